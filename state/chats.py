"""The chat screens: the conversation list, the open conversation with its composer, gifts and
icebreakers, and what arrives live from the other member (messages, typing, unread counts).

Every handler asks the session who is asking and the database what that member may see; ids
from the browser only name what to look up. A message is committed before anybody is told.
"""

import re
import secrets
import time

import reflex as rx
from sqlmodel import Session

from models.chat import (
    FREE_CHATS_USED,
    ChatError,
    Message,
    Outgoing,
    chat_list,
    chat_partner,
    conversation_between,
    mark_read,
    messages_of,
    partner_of,
    remove_chat,
    send_message,
    side_of,
)
from models.chat import Conversation as ConversationRow
from models.member import Profile, utcnow
from services.database import db_session
from services.site_settings import current_settings
from state.chat_views import bubble, chat_card, iso, message_price
from state.forms import browser_id
from state.i18n import I18nState
from state.live import TabUpdate, push_later, push_to_member
from state.members import tile_to_card
from state.session import SessionState, current_member_id
from translations.catalog import gettext
from translations.errors import GENERIC_ERROR, INSUFFICIENT_CREDITS

LIST_SIZE = 50
PAGE_SIZE = 30
TYPING_SHOWN_SECONDS = 6.0
TYPING_NOTICE_EVERY_SECONDS = 3.0
CHAT_PATH = re.compile(r"^/chats/(\d+)/?$")
MEMBER_CHAT_PATH = re.compile(r"^/members/(\d+)/chat/?$")
CREDITS, PREMIUM = "credits", "premium"  # errors that come with a way out


def new_client_id() -> str:
    return secrets.token_urlsafe(16)


class ChatsState(rx.State):
    chats: list[dict] = []
    conversation_id: int = 0
    partner: dict = {}
    messages: list[dict] = []
    more_before: bool = False
    not_found: bool = False
    draft: str = ""
    draft_id: str = ""
    gift_id: str = ""
    error: str = ""
    error_kind: str = ""
    partner_typing: bool = False
    gifts_open: bool = False
    icebreakers_open: bool = False
    premium_alert: str = ""
    message_length: int = 0
    message_credits: int = 0
    message_price: str = ""
    gift_credits: int = 0
    _typing_until: float = 0.0
    _typing_told_at: float = 0.0

    @rx.var
    def characters_left(self) -> int:
        return self.message_length - len(self.draft)

    @rx.var
    def chat_open(self) -> bool:
        return self.partner.get("id") is not None

    async def _member_id(self) -> int | None:
        return await current_member_id(self)

    async def _text(self, msgid: str, **params: object) -> str:
        return gettext((await self.get_state(I18nState)).locale, msgid, **params)

    @rx.event
    async def open_page(self) -> None:
        """On load of /chats, /chats/[id] and /members/[id]/chat: the list, and the
        conversation the address names (a new one for a member not written to yet)."""
        member_id = await self._member_id()
        kept = (self.partner.get("id"), self.draft, self.draft_id, self.gift_id)
        self._close()
        if member_id is None:
            self.chats = []
            return
        settings = current_settings()
        self.message_length, self.message_credits = (
            settings.message_length,
            settings.message_credits,
        )
        self.gift_credits = settings.gift_credits
        session = await self.get_state(SessionState)
        with db_session() as db:
            self._open_addressed(db, member_id)
            self._load_list(db, member_id)
            session.refresh_for_chat(db)  # opening a chat read its messages
            profile = db.get(Profile, member_id)
            country = profile.country if profile else ""
        if self.chat_open and self.partner["id"] == kept[0]:  # a reload or a reconnect
            self.draft, self.draft_id, self.gift_id = kept[1:]
        locale = (await self.get_state(I18nState)).locale
        self.message_price = message_price(settings, country, locale)
        self.gifts_open = self.chat_open and self.router.url.query_parameters.get("gift") == "1"
        self.icebreakers_open = self.chat_open and not self.messages and not self.gifts_open

    def _close(self) -> None:
        self.conversation_id, self.partner, self.messages = 0, {}, []
        self.more_before = self.not_found = self.partner_typing = False
        self.gifts_open = self.icebreakers_open = False
        self.draft, self.error, self.error_kind, self.premium_alert = "", "", "", ""
        self.draft_id, self.gift_id = new_client_id(), new_client_id()

    def _open_addressed(self, db: Session, member_id: int) -> None:
        path = self.router.url.path
        if found := CHAT_PATH.match(path):
            conversation = db.get(ConversationRow, int(found.group(1)))
            partner_id = partner_of(conversation, member_id) if conversation else None
        elif found := MEMBER_CHAT_PATH.match(path):
            partner_id = int(found.group(1))
            conversation = conversation_between(db, member_id, partner_id)
        else:
            return
        tile = chat_partner(db, member_id, partner_id, utcnow().date()) if partner_id else None
        if tile is None:
            self.not_found = True
            return
        self.partner = tile_to_card(tile, current_settings())
        self.conversation_id = conversation.id if conversation else 0
        self._load_messages(db, member_id)

    def _load_messages(self, db: Session, member_id: int) -> None:
        if not self.conversation_id:
            return
        self.messages = self._page(db, member_id)
        mark_read(db, member_id, self.conversation_id)

    def _page(self, db: Session, member_id: int, before_id: int | None = None) -> list[dict]:
        """A page of the open conversation (before `before_id`), oldest first; sets
        `more_before`."""
        rows = messages_of(db, member_id, self.conversation_id, PAGE_SIZE + 1, before_id)
        self.more_before = len(rows) > PAGE_SIZE
        return [bubble(row, member_id) for row in rows[-PAGE_SIZE:]]

    def _load_list(self, db: Session, member_id: int) -> None:
        settings = current_settings()
        summaries = chat_list(db, member_id, utcnow().date(), LIST_SIZE)
        self.chats = [
            {**card, "unread": 0} if card["id"] == self.conversation_id else card
            for card in (chat_card(summary, settings) for summary in summaries)
        ]

    @rx.event
    async def load_earlier(self) -> None:
        member_id = await self._member_id()
        if member_id is None or not self.messages or not self.more_before:
            return
        with db_session() as db:
            self.messages = self._page(db, member_id, self.messages[0]["id"]) + self.messages

    @rx.event
    async def set_draft(self, text: str) -> None:
        """Each (debounced) edit of the composer; the other member sees that this one types."""
        self.draft = str(text)[: self.message_length + 100]
        now = time.time()
        if not self.draft.strip() or not self.conversation_id:
            return
        if now - self._typing_told_at < TYPING_NOTICE_EVERY_SECONDS:
            return
        if await self._member_id() is not None:  # only a member still logged in is typing
            self._typing_told_at = now
            push_to_member(self.partner["id"], _typing_shown(self.conversation_id))

    @rx.event
    async def send_text(self, form: dict) -> rx.event.EventSpec | None:
        text = str(form.get("text", ""))
        return await self._send(str(form.get("client_id", "")), text=text)

    @rx.event
    async def send_gift(self, gift: str, client_id: str) -> rx.event.EventSpec | None:
        return await self._send(str(client_id), gift=str(gift))

    async def _send(
        self, client_id: str, text: str = "", gift: str | None = None
    ) -> rx.event.EventSpec | None:
        member_id = await self._member_id()
        if member_id is None or not self.chat_open:
            return rx.redirect("/login")
        outgoing = Outgoing(member_id, self.partner["id"], client_id, text=text, gift=gift)
        try:
            with db_session() as db:
                sent = send_message(db, outgoing, current_settings())
                self._sent(sent.message.conversation_id, gift is not None)
                self._show_sent(db, sent.message, member_id)
                (await self.get_state(SessionState)).refresh_for_chat(db)
        except ChatError as refused:
            return await self._refused(refused)
        except ValueError:
            self.error = await self._text(GENERIC_ERROR)
            return None
        token = self.router.session.client_token
        push_to_member(self.partner["id"], _message_arrived(sent.message.conversation_id))
        push_to_member(member_id, _message_arrived(sent.message.conversation_id), token)
        return None

    def _sent(self, conversation_id: int, gift: bool) -> None:
        self.conversation_id = conversation_id
        self.error = self.error_kind = ""
        self.gifts_open = self.icebreakers_open = False
        if gift:
            self.gift_id = new_client_id()
        else:
            self.draft, self.draft_id = "", new_client_id()

    async def _refused(self, refused: ChatError) -> None:
        text = await self._text(refused.message, **refused.params)
        if refused.message == FREE_CHATS_USED:
            self.premium_alert = text
            return
        self.error = text
        self.error_kind = CREDITS if refused.message == INSUFFICIENT_CREDITS else ""
        self.gifts_open = False

    def _show_sent(self, db: Session, message: Message, member_id: int) -> None:
        """This tab's message in the window and on top of the list (a repeated send shows the
        message stored the first time)."""
        if all(shown["id"] != message.id for shown in self.messages):
            self.messages = sorted(
                [*self.messages, bubble(message, member_id)], key=lambda shown: shown["id"]
            )
        if not self._touch_card(message, member_id, unread=0):
            self._load_list(db, member_id)

    def _show_new(self, db: Session, member_id: int) -> list[Message]:
        """Messages of the open conversation after the last one shown, read at once."""
        last_id = self.messages[-1]["id"] if self.messages else 0
        if not self.conversation_id and self.partner:
            found = conversation_between(db, member_id, self.partner["id"])
            self.conversation_id = found.id if found else 0
        if not self.conversation_id:
            return []
        rows = messages_of(db, member_id, self.conversation_id, PAGE_SIZE)
        new = [row for row in rows if row.id > last_id]
        self.messages = self.messages + [bubble(row, member_id) for row in new]
        mark_read(db, member_id, self.conversation_id)
        return new

    def _touch_card(self, message: Message, member_id: int, unread: int) -> bool:
        """The conversation's card on top of the list with `message`; False when not listed."""
        card = next((c for c in self.chats if c["id"] == message.conversation_id), None)
        if card is None:
            return False
        fresh = {
            **card,
            "text": message.body,
            "gift": message.gift or "",
            "at": iso(message.created_at),
            "from_me": message.sender_id == member_id,
            "unread": unread,
        }
        self.chats = [fresh, *(c for c in self.chats if c["id"] != message.conversation_id)]
        return True

    async def catch_up(self, conversation_id: int) -> None:
        """A message in `conversation_id` was stored: shown at once if this tab has that chat
        open, its card moved up if the tab shows the list; badges and balance in any case.
        A few queries, not a reload: this runs for every message on every open tab."""
        session = await self.get_state(SessionState)
        member_id = session._member_id
        if member_id is None:
            return
        with db_session() as db:
            if self._shows_chats():
                self._catch_up_chats(db, member_id, conversation_id)
            session.refresh_for_chat(db)

    def _catch_up_chats(self, db: Session, member_id: int, conversation_id: int) -> None:
        if self.conversation_id == conversation_id or (self.chat_open and not self.conversation_id):
            self.partner_typing = False
            new = self._show_new(db, member_id)
            listed = not new or self._touch_card(new[-1], member_id, unread=0)
        else:
            side = side_of(db, member_id, conversation_id)
            latest = messages_of(db, member_id, conversation_id, 1)
            listed = bool(side and latest) and self._touch_card(latest[-1], member_id, side.unread)
        if not listed:
            self._load_list(db, member_id)

    async def _reload(self, member_id: int) -> None:
        """The open conversation, the list, the balance and the unread count again from the
        database (the refresh that calls this has just reloaded the rest of the member)."""
        session = await self.get_state(SessionState)
        with db_session() as db:
            self._show_new(db, member_id)
            self._load_list(db, member_id)
            session.refresh_for_chat(db)

    def _shows_chats(self) -> bool:
        """The tab is on a chat page now (this state keeps its last chat when the tab leaves)."""
        path = self.router.url.path
        return path.rstrip("/") == "/chats" or bool(
            CHAT_PATH.match(path) or MEMBER_CHAT_PATH.match(path)
        )

    @rx.event
    async def remove(self, conversation_id: int):
        """Drop the chat from the list at once, then delete it; if that fails, say so and
        reload the list."""
        conversation_id = browser_id(conversation_id)
        self.chats = [chat for chat in self.chats if chat["id"] != conversation_id]
        leaving = conversation_id == self.conversation_id
        yield
        member_id = await self._member_id()
        removed = False
        if member_id is not None and conversation_id is not None:
            with db_session() as db:
                removed = remove_chat(db, member_id, conversation_id)
                (await self.get_state(SessionState)).refresh_for_chat(db)
        if not removed:
            yield rx.window_alert(await self._text(GENERIC_ERROR))
            yield ChatsState.open_page
            return
        if leaving:
            yield rx.redirect("/chats")

    @rx.event
    def toggle_gifts(self, open_: bool) -> None:
        self.gifts_open = open_

    @rx.event
    def toggle_icebreakers(self, open_: bool) -> None:
        self.icebreakers_open = open_

    @rx.event
    def use_opener(self, text: str) -> None:
        self.draft = str(text)[: self.message_length]
        self.icebreakers_open = False

    @rx.event
    def close_premium_alert(self) -> None:
        self.premium_alert = ""

    @rx.event
    async def refresh_list(self) -> None:
        """The periodic safety net: the list when this tab shows chats."""
        member_id = await self._member_id()
        if member_id is not None and self._shows_chats():
            await self._reload(member_id)

    def typing_seen(self, conversation_id: int) -> bool:
        """The other member types in `conversation_id`: show it for a few seconds."""
        if self.conversation_id != conversation_id:
            return False
        self.partner_typing = True
        self._typing_until = time.time() + TYPING_SHOWN_SECONDS
        return True

    def typing_expired(self, conversation_id: int) -> None:
        if self.conversation_id == conversation_id and time.time() >= self._typing_until:
            self.partner_typing = False


def _message_arrived(conversation_id: int) -> TabUpdate:
    async def update(root: rx.State) -> None:
        await (await root.get_state(ChatsState)).catch_up(conversation_id)

    return update


def _typing_shown(conversation_id: int) -> TabUpdate:
    async def update(root: rx.State) -> None:
        chats = await root.get_state(ChatsState)
        if chats.typing_seen(conversation_id):
            member_id = (await root.get_state(SessionState))._member_id
            token = root.router.session.client_token
            push_later(TYPING_SHOWN_SECONDS + 0.2, member_id, token, _typing_over(conversation_id))

    return update


def _typing_over(conversation_id: int) -> TabUpdate:
    async def update(root: rx.State) -> None:
        (await root.get_state(ChatsState)).typing_expired(conversation_id)

    return update
