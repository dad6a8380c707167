"""The chat screens: the conversation list, the open conversation with its composer, gifts and
icebreakers, and what arrives live from the other member (messages, typing, unread counts).

Every handler asks who is asking (the tab's own session) and runs actions (actions/chat.py)
off the event loop; ids from the browser only name what to look up. The draft stays in the
browser until it is sent (assets/shell.js): its text, its counter and its client id; a gift's
client id too. The open chat keeps a window of at most SHOWN_MESSAGES in the tab's state.
"""

import json
import logging
import re
import time

import reflex as rx
from reflex.state import StateUpdate
from reflex_base.constants.state import FIELD_MARKER
from reflex_base.event import Event
from sqlalchemy.exc import SQLAlchemyError

from actions import chat
from actions.chat import CaughtUp, ChatAddress, MessageStored, Opened, TabView, Typing
from actions.effects import handles
from actions.notices import here_now
from actions.runner import act, read
from actions.session import Balance
from actions.viewer import Viewer
from models.chat import (
    CLIENT_ID_RE,
    CONFIRMATIONS,
    FREE_CHATS_USED,
    ChatCounts,
    ChatError,
    ChatSummary,
    Outgoing,
)
from models.chat_from import ONLY_PREMIUM
from models.routes import url
from models.site_settings import SiteSettings
from services.outages import log_failure
from services.site_settings import site_settings
from state.chat_views import chat_card, message_price
from state.forms import browser_id
from state.i18n import I18nState
from state.live import (
    CHAT_PATH,
    LeanPush,
    TabReply,
    push_later,
    push_to_member,
    push_to_members,
    register_tab,
    shown_chat,
)
from state.members import tile_to_card
from state.session import SessionState, balance_delta, current_viewer
from translations.catalog import N_, gettext
from translations.errors import GENERIC_ERROR, INSUFFICIENT_CREDITS

TYPING_SHOWN_SECONDS = 6.0
TYPING_NOTICE_EVERY_SECONDS = 3.0
SHOWN_MESSAGES = 120  # the open chat's window in the tab's state: reading back drops the newest
MEMBER_CHAT_PATH = re.compile(r"^/members/(\d{1,12})/chat/?$")
CREDITS, PREMIUM = "credits", "premium"  # errors that come with a way out
PREMIUM_REFUSALS = (FREE_CHATS_USED, ONLY_PREMIUM)  # shown with "Get Premium"
NOT_SENT = N_("Your message was not sent. Please try again.")
# Holds what a browser may send in memory; the rules refuse anything over `message_length`
# (a setting: a fresh tab state does not know it yet, so it cannot bound the input here).
TEXT_INPUT = 20_000
SENT_SCRIPT = "window.siteChat && window.siteChat.sent()"
GIFT_SENT_SCRIPT = "window.siteChat && window.siteChat.giftSent()"
FOCUS_DRAFT_SCRIPT = "document.querySelector('[data-chat-composer] textarea')?.focus()"
ARRIVED_SCRIPT = "window.siteChat && window.siteChat.arrived({conversation}, {bubble})"
FORGET_SCRIPT = "window.siteChat && window.siteChat.forget({conversation})"

Answer = list[rx.event.EventSpec] | rx.event.EventSpec | None  # what a send gives the browser

log = logging.getLogger(__name__)


def chat_address(path: str) -> ChatAddress | None:
    """The chat an address names, or None for the list alone."""
    if found := CHAT_PATH.match(path):
        return ChatAddress(conversation_id=browser_id(found.group(1)))
    if found := MEMBER_CHAT_PATH.match(path):
        return ChatAddress(partner_id=browser_id(found.group(1)))
    return None


def _shown_counts(session: SessionState, counts: ChatCounts | None) -> None:
    if counts is not None:
        session._apply_balance(
            Balance(counts.credits, counts.paid_user, counts.unread, session.new_likes)
        )


class ChatsState(rx.State):
    chats: list[dict] = []
    conversation_id: int = 0
    partner: dict = {}
    # A partner is shown. Set with `partner`, not a computed var: Reflex works out every
    # computed var for a new tab and then stores its state, which would put this state in
    # every visitor's.
    chat_open: bool = False
    messages: list[dict] = []
    more_before: bool = False
    more_after: bool = False  # the member read back past the window: newer messages exist
    not_found: bool = False
    error: str = ""
    error_kind: str = ""
    partner_typing: bool = False
    gifts_open: bool = False
    icebreakers_open: bool = False
    premium_alert: str = ""
    confirm_text: str = ""  # the message filter's "Are you sure?" while it asks
    message_length: int = 0
    message_credits: int = 0
    message_price: str = ""
    gift_credits: int = 0
    _typing_until: float = 0.0
    _typing_told_at: float = 0.0
    _pending: list[str] = []  # the flagged text awaiting "Send anyway": client id, text

    async def _text(self, msgid: str, **params: object) -> str:
        return gettext((await self.get_state(I18nState)).locale, msgid, **params)

    @rx.event
    async def open_page(self) -> None:
        """On load of /chats, /chats/[id] and /members/[id]/chat: the list, and the
        conversation the address names (a new one for a member not written to yet)."""
        viewer = await current_viewer(self)
        self._close()
        if viewer is None:
            self.chats = []
            return
        await self._open(viewer)
        self.gifts_open = self.chat_open and self.router.url.query_parameters.get("gift") == "1"
        self.icebreakers_open = self.chat_open and not self.messages and not self.gifts_open

    def _close(self) -> None:
        self.conversation_id, self.partner, self.messages = 0, {}, []
        self.chat_open = False
        self.more_before = self.more_after = self.not_found = self.partner_typing = False
        self.gifts_open = self.icebreakers_open = False
        self.error, self.error_kind, self.premium_alert = "", "", ""
        self.confirm_text, self._pending = "", []

    async def _open(self, viewer: Viewer) -> None:
        """The list and the addressed chat from the database (the page's load, or a tab whose
        state was lost), its messages read."""
        settings = await site_settings()
        self.message_length, self.message_credits = (
            settings.message_length,
            settings.message_credits,
        )
        self.gift_credits = settings.gift_credits
        address = chat_address(self.router.url.path)
        opened: Opened = await act(chat.open_chat, viewer, address)
        self.not_found = address is not None and opened.partner is None
        if opened.partner is not None:
            self.partner = tile_to_card(opened.partner, settings)
            self.chat_open = True
            self.conversation_id = opened.conversation_id
            self._show_newest(opened.page)
            locale = (await self.get_state(I18nState)).locale
            self.message_price = message_price(settings, opened.country, locale)
        self._list(opened.chats, settings, self.conversation_id)
        if opened.read:  # the frame counted these unread a moment ago
            session = await self.get_state(SessionState)
            session.unread_messages = max(0, session.unread_messages - opened.read)

    @rx.event
    async def load_earlier(self) -> None:
        viewer = await current_viewer(self)
        if viewer is None or not self.messages or not self.more_before:
            return
        page = await read(
            chat.earlier_messages, viewer, self.conversation_id, self.messages[0]["id"]
        )
        self.messages, self.more_before = page.messages + self.messages, page.more_before
        if len(self.messages) > SHOWN_MESSAGES:  # the newest leave the window
            self.messages, self.more_after = self.messages[:SHOWN_MESSAGES], True
            await register_tab(self, viewer.member_id, self._showing())

    @rx.event
    async def load_latest(self) -> None:
        """Back from reading to the newest page ("Newer messages"), read now."""
        viewer = await current_viewer(self)
        if viewer is None or not self.more_after:
            return
        caught: CaughtUp = await act(chat.newest, viewer, self.conversation_id)
        self._show_newest(caught.page)
        await register_tab(self, viewer.member_id, self._showing())
        self._read_card(self.conversation_id)
        _shown_counts(await self.get_state(SessionState), caught.counts)

    def _show_newest(self, page: chat.Page) -> None:
        self.messages, self.more_before, self.more_after = page.messages, page.more_before, False

    @rx.event
    async def typing(self) -> None:
        """The browser says the member types (at most every few seconds, without the text)."""
        now = time.time()
        if not self.conversation_id or now - self._typing_told_at < TYPING_NOTICE_EVERY_SECONDS:
            return
        if viewer := await current_viewer(self):  # only a member still logged in is typing
            self._typing_told_at = now
            await act(chat.notice_typing, viewer, self.conversation_id)

    @rx.event
    async def take_arrivals(self) -> None:
        """shell.js holds many messages that reached the open chat outside the state (sent
        over HTTP, or arrived lean): they come into the state, read."""
        viewer = await current_viewer(self)
        if viewer is not None and self.conversation_id and not self.more_after:
            await self._catch_up(viewer, self.conversation_id)

    @rx.event
    async def send_text(self, form: dict) -> Answer:
        text = str(form.get("text", ""))[:TEXT_INPUT]
        return await self._send(form.get("client_id"), text=text)

    @rx.event
    async def send_gift(self, form: dict) -> Answer:
        """A gift from the picker, with the client id the browser minted for it."""
        return await self._send(form.get("client_id"), gift=str(form.get("gift", ""))[:20])

    @rx.event
    async def send_anyway(self) -> Answer:
        """The sender's "Send anyway" after the message filter's "Are you sure?": the same
        text and client id, stored flagged."""
        pending, self._pending, self.confirm_text = self._pending, [], ""
        if len(pending) != 2:
            return None
        return await self._send(pending[0], text=pending[1], anyway=True)

    @rx.event
    def edit_flagged(self) -> rx.event.EventSpec:
        """The sender's "Edit": back to the draft, which the browser kept."""
        self._pending, self.confirm_text = [], ""
        return rx.call_script(FOCUS_DRAFT_SCRIPT)

    @rx.event
    def show_flagged(self, message_id: int) -> None:
        """The recipient chose to read a message shown behind the filter's warning."""
        shown = browser_id(message_id)
        self.messages = [
            {**message, "flagged": False} if message["id"] == shown else message
            for message in self.messages
        ]

    async def _send(
        self, client_id: object, text: str = "", gift: str | None = None, anyway: bool = False
    ) -> Answer:
        """Any step may meet the database away (the viewer check comes first): the member is
        told it was not sent, and the browser keeps the draft and its client id."""
        try:
            return await self._deliver(client_id, text, gift, anyway)
        except ChatError as refused:
            if refused.message in CONFIRMATIONS and isinstance(client_id, str):
                self._pending = [client_id, text]
            return await self._refused(refused)
        except SQLAlchemyError:
            log_failure(log, "a message was not sent")
            self.error = await self._text(NOT_SENT)
            return None

    async def _deliver(
        self, client_id: object, text: str, gift: str | None, anyway: bool = False
    ) -> Answer:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(url("login"))
        if not self.chat_open:  # the tab's state was lost (a restart): rebuild it
            await self._open(viewer)
        if not (
            self.chat_open and isinstance(client_id, str) and CLIENT_ID_RE.fullmatch(client_id)
        ):
            self.error = await self._text(GENERIC_ERROR)
            return None
        locale = (await self.get_state(I18nState)).locale
        outgoing = Outgoing(
            viewer.member_id, self.partner["id"], client_id, text, gift, anyway, locale
        )
        here = await here_now(outgoing.recipient_id)
        # what reached this tab lean since its state's last message comes into the state first
        after = self._view().last_id if self.conversation_id and not self.more_after else None
        token = self.router.session.client_token
        sent = await act(chat.send, viewer, outgoing, token, here, after)
        self._sent(sent)
        session = await self.get_state(SessionState)
        session.credits = sent.credits_left
        confirmed = rx.call_script(GIFT_SENT_SCRIPT if gift is not None else SENT_SCRIPT)
        if self.more_after:  # sent while reading back: the newest page, with this message
            return [confirmed, ChatsState.load_latest]
        return [confirmed]

    def _sent(self, sent: chat.SentMessage) -> None:
        """This tab's message in the window, after what came since the window's last (a lean
        arrival shell.js shows, else the state's last id would pass it), and on top of the
        list (a repeated send shows the message stored the first time)."""
        self.conversation_id = sent.conversation_id
        self.error = self.error_kind = ""
        self.gifts_open = self.icebreakers_open = False
        if not self.more_after:  # else the newest page follows (load_latest)
            if sent.page is not None:
                self._show_page(sent.page)
            self._add_messages([sent.bubble])
        self._to_top(self._card(sent.bubble))

    async def _refused(self, refused: ChatError) -> None:
        text = await self._text(refused.message, **refused.params)
        if refused.message in CONFIRMATIONS:
            self.confirm_text = text
            return
        if refused.message in PREMIUM_REFUSALS:
            self.premium_alert = text
            return
        self.error = text
        self.error_kind = CREDITS if refused.message == INSUFFICIENT_CREDITS else ""
        self.gifts_open = False

    def _add_messages(self, bubbles: list[dict]) -> None:
        shown = {message["id"] for message in self.messages}
        new = [message for message in bubbles if message["id"] not in shown]
        if not new:
            return
        messages = sorted([*self.messages, *new], key=lambda message: message["id"])
        if len(messages) > SHOWN_MESSAGES:  # the oldest leave the window
            messages, self.more_before = messages[-SHOWN_MESSAGES:], True
        self.messages = messages

    def _card(self, message: dict) -> dict:
        """The open conversation's card with `message` as its last one."""
        return {
            "id": self.conversation_id,
            "member_id": self.partner["id"],
            "name": self.partner["name"],
            "thumb": self.partner["thumb"],
            "premium": self.partner["premium"],
            "text": message["body"],
            "gift": message["gift"],
            "at": message["at"],
            "from_me": message["mine"],
            "unread": 0,
            "veiled": message["flagged"],
            "removed": message.get("removed", False),
            "last_id": message["id"],
        }

    def _to_top(self, card: dict) -> None:
        self.chats = [card, *(shown for shown in self.chats if shown["id"] != card["id"])]

    def _view(self) -> TabView:
        shows_chats = self._shows_chats()
        return TabView(
            conversation_id=self.conversation_id if shows_chats else 0,
            partner_id=self.partner.get("id") if shows_chats else None,
            last_id=self.messages[-1]["id"] if self.messages else 0,
            latest=not self.more_after,
            lists_chats=shows_chats,
        )

    async def _catch_up(self, viewer: Viewer, conversation_id: int) -> None:
        """A message in `conversation_id` was stored: shown at once if this tab has that chat
        open, its card moved up if the tab shows the list; badges and balance in any case."""
        caught: CaughtUp = await act(chat.catch_up, viewer, self._view(), conversation_id)
        self._show_caught(caught)
        if caught.card is not None:
            settings = await site_settings()
            self._to_top(chat_card(caught.card, settings))
        _shown_counts(await self.get_state(SessionState), caught.counts)

    def _show_caught(self, caught: CaughtUp) -> None:
        if caught.page is None:
            return
        self.conversation_id = caught.conversation_id
        self.partner_typing = False
        self._show_page(caught.page)
        if self.messages:
            self._to_top(self._card(self.messages[-1]))

    def _show_page(self, page: chat.Page) -> None:
        if page.complete:
            self._add_messages(page.messages)
        else:  # too many arrived at once: the newest page, the gap behind "earlier"
            self._show_newest(page)

    async def _refresh(self, viewer: Viewer) -> None:
        """The periodic safety net on a chat page: new messages of the open chat, the list."""
        if not self._shows_chats():
            return
        caught: CaughtUp = await act(chat.refresh, viewer, self._view())
        read_id = caught.conversation_id if caught.page is not None else 0
        self._list(caught.chats or [], await site_settings(), read_id)
        self._show_caught(caught)

    def _list(self, summaries: list[ChatSummary], settings: SiteSettings, read_id: int) -> None:
        """The chat list; conversation `read_id` is open here and read."""
        self.chats = [chat_card(summary, settings) for summary in summaries]
        self._read_card(read_id)

    def _read_card(self, conversation_id: int) -> None:
        self.chats = [
            {**card, "unread": 0} if card["id"] == conversation_id else card for card in self.chats
        ]

    def _showing(self) -> int:
        """The chat the tab shows at its newest end, for lean pushes (0: none)."""
        return 0 if self.more_after else shown_chat(self.router.url.path)

    def _shows_chats(self) -> bool:
        """The tab is on a chat page now (this state keeps its last chat when the tab leaves)."""
        path = self.router.url.path
        return path.rstrip("/") == url("chats") or chat_address(path) is not None

    @rx.event
    async def remove(self, conversation_id: int):
        """Drop the chat from the list at once, then delete it; if that fails, say so and
        reload the list."""
        conversation_id = browser_id(conversation_id)
        self.chats = [shown for shown in self.chats if shown["id"] != conversation_id]
        leaving = conversation_id == self.conversation_id
        yield
        viewer = await current_viewer(self)
        counts = None
        if viewer is not None and conversation_id is not None:
            counts = await act(chat.remove, viewer, conversation_id)
        if counts is None:
            yield rx.window_alert(await self._text(GENERIC_ERROR))
            yield ChatsState.open_page
            return
        _shown_counts(await self.get_state(SessionState), counts)
        yield rx.call_script(FORGET_SCRIPT.format(conversation=conversation_id))
        if leaving:
            yield rx.redirect(url("chats"))

    @rx.event
    def toggle_gifts(self, open_: bool) -> None:
        self.gifts_open = bool(open_)

    @rx.event
    def toggle_icebreakers(self, open_: bool) -> None:
        self.icebreakers_open = bool(open_)

    @rx.event
    def use_opener(self, text: str) -> rx.event.EventSpec:
        """The opener goes into the browser's draft, to be changed before it is sent."""
        self.icebreakers_open = False
        opener = json.dumps(str(text)[:TEXT_INPUT])
        return rx.call_script(f"window.siteChat && window.siteChat.fill({opener})")

    @rx.event
    def close_premium_alert(self) -> None:
        self.premium_alert = ""

    def _typing_seen(self, conversation_id: int) -> bool:
        """The other member types in `conversation_id`: show it for a few seconds."""
        if self.conversation_id != conversation_id or not self._shows_chats():
            return False
        self.partner_typing = True
        self._typing_until = time.time() + TYPING_SHOWN_SECONDS
        return True

    def _typing_expired(self, conversation_id: int) -> None:
        if self.conversation_id == conversation_id and time.time() >= self._typing_until:
            self.partner_typing = False


@handles(MessageStored)
async def _message_stored(stored: MessageStored) -> None:
    """The recipient's tabs that show the chat get the message lean, read at once; their other
    tabs and the sender's other tabs (whose balance changed) catch up, and so does every tab
    for a flagged message (its "Show" works on the tab's state)."""
    conversation_id = stored.conversation_id

    async def update(root: rx.State, viewer: Viewer) -> None:
        await (await root.get_state(ChatsState))._catch_up(viewer, conversation_id)

    async def read_now(key: str) -> Viewer | None:
        return await chat.arrived(key, stored.recipient_id, conversation_id)

    flagged = stored.bubble["flagged"]
    lean = (
        None
        if flagged
        else LeanPush(stored.recipient_id, conversation_id, _arrival(stored), read_now)
    )
    await push_to_members(
        update,
        (stored.recipient_id, ""),
        (stored.sender_id, stored.except_token),
        lean=lean,
        reply=_balance_reply(stored),
    )


def _balance_reply(stored: MessageStored) -> TabReply | None:
    """A tab that sent outside its state (app/chat_api.py) shows the message from the answer
    and its new balance from this."""
    if (outside := stored.outside) is None:
        return None
    delta = balance_delta(outside.credits_left, outside.paid_user)
    update = StateUpdate(delta=delta)
    return TabReply(stored.sender_id, stored.except_token, outside.session_key, update)


def _arrival(stored: MessageStored) -> StateUpdate:
    """The message for assets/shell.js to show beside the state's (components/chat_live.py),
    and the typing notice gone, as `_show_caught` does."""
    script = ARRIVED_SCRIPT.format(
        conversation=stored.conversation_id, bubble=json.dumps(stored.bubble)
    )
    return StateUpdate(
        delta={ChatsState.get_full_name(): {"partner_typing" + FIELD_MARKER: False}},
        events=[Event("_call_script", payload={"javascript_code": script, "callback": None})],
    )


@handles(Typing)
async def _typing(typing: Typing) -> None:
    conversation_id = typing.conversation_id

    async def over(root: rx.State, _viewer: Viewer) -> None:
        (await root.get_state(ChatsState))._typing_expired(conversation_id)

    async def shown(root: rx.State, viewer: Viewer) -> None:
        if (await root.get_state(ChatsState))._typing_seen(conversation_id):
            token = root.router.session.client_token
            push_later(TYPING_SHOWN_SECONDS + 0.2, viewer.member_id, token, over)

    await push_to_member(typing.member_id, shown)
