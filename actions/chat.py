"""Chat: sending texts and gifts, reading, removing and typing, and what the chat screens show.

Messages leave here as plain dicts (bubbles); a stored message becomes a `MessageStored` effect,
a typing notice a `Typing` effect, both delivered to open tabs by `state/chats.py` after the
commit; the recipient's push and mail are a job deferred in the send's transaction
(actions/notices.py).
"""

import asyncio
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache, partial

from sqlalchemy import Executable, Integer, Select, bindparam, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from actions.effects import dispatch
from actions.notices import message_told, message_told_on_loop
from actions.runner import Done, act
from actions.viewer import SIGNED_IN, VIEWER_BY_KEY, Viewer, viewer_by_key, viewer_of
from models.chat import (
    GIFT,
    Booked,
    ChatCounts,
    ChatSide,
    ChatSummary,
    Conversation,
    Message,
    Outgoing,
    Sent,
    chat_counts,
    chat_list,
    chat_opening,
    conversation_between,
    mark_read,
    messages_of,
    new_message,
    partner_of,
    remove_chat,
    remove_chats_with,
    send_message,
    sending,
    shown_body,
)
from models.directory import MemberTile
from models.gifts import gift_picture
from models.member import Member, utcnow
from models.site_settings import SiteSettings
from services.database import autocommit_connection, db_session, transaction
from services.loop_database import (
    ELSEWHERE,
    Elsewhere,
    LoopStatement,
    LoopTransaction,
    in_loop_transaction,
    loop_row,
)
from services.site_settings import current_settings, site_settings

PAGE_SIZE = 30
LIST_SIZE = 50
CATCH_UP_LIMIT = 200  # more new messages than this: the tab shows the newest page instead


@dataclass(frozen=True)
class SentOutside:
    """A message sent from outside the sending tab's state (app/chat_api.py): the session key
    the request was checked with, and the sender's balance, which goes straight to that tab."""

    session_key: str
    credits_left: int
    paid_user: bool


@dataclass(frozen=True)
class MessageStored:
    """A message was committed: the recipient's tabs and the sender's other tabs show it."""

    conversation_id: int
    recipient_id: int
    sender_id: int
    except_token: str  # the sending tab, which shows it already
    bubble: dict  # as the recipient sees it
    outside: SentOutside | None = None


@dataclass(frozen=True)
class Typing:
    """`member_id`'s chat partner is typing in `conversation_id`."""

    conversation_id: int
    member_id: int


def iso(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat(timespec="seconds")


def bubble(message: Message, member_id: int) -> dict:
    """A message as the chat shows it; "flagged": received behind the filter's warning;
    "removed": a moderator removed it, shown as a placeholder without its body or gift."""
    removed = message.removed_at is not None
    gift = message.gift if message.kind == GIFT and not removed else ""
    mine = message.sender_id == member_id
    return {
        "id": message.id,
        "mine": mine,
        "flagged": message.flagged and not mine and not removed,
        "removed": removed,
        "body": shown_body(message),
        "gift": gift or "",
        "picture": gift_picture(gift) if gift else "",
        "at": iso(message.created_at),
    }


@dataclass(frozen=True)
class Page:
    """Messages of the open conversation, oldest first."""

    messages: list[dict]
    more_before: bool = False  # older messages exist
    complete: bool = True  # False: more arrived than were fetched; this is the newest page


def _newest(
    db: Session, member_id: int, conversation_id: int, before_id: int | None = None
) -> Page:
    rows = messages_of(db, member_id, conversation_id, PAGE_SIZE + 1, before_id)
    shown = [bubble(row, member_id) for row in rows[-PAGE_SIZE:]]
    return Page(shown, more_before=len(rows) > PAGE_SIZE)


def _after(db: Session, member_id: int, conversation_id: int, after_id: int) -> Page:
    """Every message after `after_id`, up to a bound; past it, the newest page."""
    rows = messages_of(db, member_id, conversation_id, CATCH_UP_LIMIT + 1, after_id=after_id)
    if len(rows) > CATCH_UP_LIMIT:
        return Page(_newest(db, member_id, conversation_id).messages, True, complete=False)
    return Page([bubble(row, member_id) for row in rows])


@dataclass(frozen=True)
class ChatAddress:
    """The chat an address names: by its conversation, or by the other member."""

    conversation_id: int | None = None
    partner_id: int | None = None


@dataclass(frozen=True)
class Opened:
    partner: MemberTile | None  # None: no chat addressed, or one the member may not open
    conversation_id: int
    page: Page
    read: int  # unread messages this opening read
    country: str  # the member's own, for the price of a message
    chats: list[ChatSummary]


def open_chat(viewer: Viewer, address: ChatAddress | None) -> Done[Opened]:
    """The chat list and the addressed chat, its newest page read."""
    member_id, today = viewer.member_id, utcnow().date()
    with transaction() as db:
        opening = (
            chat_opening(db, member_id, today, address.conversation_id, address.partner_id)
            if address
            else None
        )
        conversation_id = opening.conversation_id if opening else 0
        page = _newest(db, member_id, conversation_id) if conversation_id else Page([])
        read = opening.unread if opening else 0
        if read:
            mark_read(db, member_id, conversation_id)
        chats = chat_list(db, member_id, today, LIST_SIZE)
    partner, country = (opening.partner, opening.viewer_country) if opening else (None, "")
    return Done(Opened(partner, conversation_id, page, read, country, chats))


def earlier_messages(viewer: Viewer, conversation_id: int, before_id: int) -> Page:
    """The page before `before_id` (a read)."""
    with db_session() as db:
        return _newest(db, viewer.member_id, conversation_id, before_id)


@dataclass(frozen=True)
class SentMessage:
    conversation_id: int
    bubble: dict
    credits_left: int
    # with `shown_after`: the messages after the tab's last, this one among them (some may
    # have reached the tab lean, without its state: state/live.py LeanPush)
    page: Page | None = None


def send(
    viewer: Viewer,
    outgoing: Outgoing,
    tab: str,
    recipient_here: bool = False,
    shown_after: int | None = None,
    outside_key: str = "",
) -> Done[SentMessage]:
    """Store and charge the viewer's message once (ChatError: nothing stored or charged).
    `recipient_here`: the recipient is on the site (actions/notices.here_now), so no mail.
    `shown_after`: the sending tab's last message in this chat, for what came after it.
    `outside_key`: the session key of a send from outside the tab's state (SentOutside)."""
    outgoing = replace(outgoing, sender_id=viewer.member_id)
    with transaction() as db:
        told = partial(message_told, here=recipient_here)
        sent = send_message(db, outgoing, current_settings(), told)
        page = (
            None
            if shown_after is None
            else _after(db, viewer.member_id, sent.message.conversation_id, shown_after)
        )
    return _stored(viewer, sent, tab, outside_key, page)


def _stored(
    viewer: Viewer, sent: Sent, tab: str, outside_key: str, page: Page | None
) -> Done[SentMessage]:
    message = sent.message
    stored = MessageStored(
        message.conversation_id,
        sent.recipient_id,
        viewer.member_id,
        tab,
        bubble(message, sent.recipient_id),
        SentOutside(outside_key, sent.credits_left, viewer.paid_user) if outside_key else None,
    )
    shown = SentMessage(
        message.conversation_id, bubble(message, viewer.member_id), sent.credits_left, page
    )
    return Done(shown, (stored,))


async def send_outside(
    viewer: Viewer, outgoing: Outgoing, tab: str, recipient_here: bool, outside_key: str
) -> SentMessage:
    """`send` for a text sent from outside the tab's state (app/chat_api.py). On PostgreSQL in
    one transaction on the event loop's own connection (services/loop_database.py): the same
    steps (models/chat.sending) without a hop to a database thread and SQLAlchemy's execution;
    `send` on the thread path when that cannot serve it. Shielded, as `act` is: a request
    cancelled meanwhile leaves a committed message its effects."""
    outgoing = replace(outgoing, sender_id=viewer.member_id)
    shown = await asyncio.shield(_sent_on_loop(viewer, outgoing, tab, recipient_here, outside_key))
    if shown is ELSEWHERE:
        return await act(send, viewer, outgoing, tab, recipient_here, None, outside_key)
    return shown


async def _sent_on_loop(
    viewer: Viewer, outgoing: Outgoing, tab: str, here: bool, outside_key: str
) -> SentMessage | Elsewhere:
    sent = await send_on_loop(outgoing, await site_settings(), here)
    if sent is ELSEWHERE:
        return ELSEWHERE
    done = _stored(viewer, sent, tab, outside_key, None)
    dispatch(done.effects)
    return done.value


async def send_on_loop(outgoing: Outgoing, settings: SiteSettings, here: bool) -> Sent | Elsewhere:
    """models/chat.send_message on the serving loop's own connection, `here` as `send`'s
    `recipient_here`: committed, its effects not run; `ELSEWHERE` when the loop cannot."""
    try:
        booked = await in_loop_transaction(partial(_booked_on_loop, outgoing, settings, here))
    except IntegrityError:  # a concurrent twin: one more try, as `send_message` settles it
        booked = await in_loop_transaction(partial(_booked_on_loop, outgoing, settings, here))
    return booked if booked is ELSEWHERE else booked.sent


async def _booked_on_loop(
    outgoing: Outgoing, settings: SiteSettings, here: bool, transaction: LoopTransaction
) -> Booked:
    message = new_message(outgoing, settings)
    steps, row = sending(outgoing, message, "postgresql"), None
    while True:
        try:
            ask = steps.send(row)
        except StopIteration as done:
            booked = done.value
            break
        row = await transaction.row(_on_loop(ask.statement), ask.params)
    if not booked.sent.duplicate:
        await message_told_on_loop(
            transaction, message, booked.recipient, booked.push_subscribed, here
        )
    return booked


@cache
def _on_loop(statement: Executable) -> LoopStatement:
    """A send's statement compiled for the loop, once (models/chat builds each once)."""
    return LoopStatement.of(statement)


@dataclass(frozen=True)
class TabView:
    """What a tab shows of the chats: the open chat (its conversation, 0 before the first
    message; its other member) up to its last message, whether that is the newest (not when the
    member read back past the tab's window), and whether the list is in view."""

    conversation_id: int = 0
    partner_id: int | None = None
    last_id: int = 0
    latest: bool = True
    lists_chats: bool = False


@dataclass(frozen=True)
class CaughtUp:
    conversation_id: int  # the open chat's, found when its first message arrived
    page: Page | None  # what is new in the open chat, read now
    card: ChatSummary | None  # the arriving conversation's card, for a tab listing chats
    chats: list[ChatSummary] | None  # the whole list again (the periodic refresh)
    counts: ChatCounts | None


def _open_conversation(db: Session, member_id: int, view: TabView) -> int:
    if view.conversation_id or view.partner_id is None:
        return view.conversation_id
    found = conversation_between(db, member_id, view.partner_id)
    return found.id if found else 0


def _shown(db: Session, member_id: int, conversation_id: int, page: Page) -> Page:
    """`page` as the open chat shows it: the other member's messages in it are read."""
    if any(not shown["mine"] for shown in page.messages):
        mark_read(db, member_id, conversation_id)
    return page


def _read_new(db: Session, member_id: int, open_id: int, view: TabView) -> Page | None:
    """What is new after the tab's last message, read; None for a tab reading back."""
    if not (open_id and view.latest):
        return None
    return _shown(db, member_id, open_id, _after(db, member_id, open_id, view.last_id))


def catch_up(viewer: Viewer, view: TabView, arrived: int) -> Done[CaughtUp]:
    """A message in conversation `arrived` was stored: what of it the tab shows. The open chat
    gets everything after its last message (read now; not while the member reads back), a
    listed card moves up, and the frame gets its counts. At most three statements: this runs on
    every open tab for every message."""
    member_id = viewer.member_id
    with transaction() as db:
        open_id = _open_conversation(db, member_id, view)
        page = _read_new(db, member_id, open_id, view) if open_id == arrived else None
        card = None
        if page is None and view.lists_chats:
            found = chat_list(db, member_id, utcnow().date(), 1, conversation_id=arrived)
            card = found[0] if found else None
        counts = chat_counts(db, member_id)
    return Done(CaughtUp(open_id, page, card, None, counts))


def arrived_for(key: str, member_id: int, conversation_id: int) -> Done[Viewer | None]:
    """A message arrived lean (state/live.py LeanPush) for a tab that registered showing its
    conversation with the session key `key`: the tab's viewer when that session is live and
    names `member_id`, signed in, and the conversation read for them, as `catch_up` reads it;
    None, and nothing read, otherwise. One statement on PostgreSQL; SQLite checks, then marks."""
    if not key:
        return Done(None)
    with autocommit_connection() as connection:
        if connection.dialect.name == "postgresql":
            ids = _arrival(key, member_id, conversation_id)
            return Done(viewer_of(connection.execute(_ARRIVED, ids).first(), SIGNED_IN))
        viewer = viewer_by_key(connection, key, SIGNED_IN)
        if viewer is not None and viewer.member_id == member_id:
            mark_read(connection, member_id, conversation_id)
        return Done(viewer)


def _arrival(key: str, member_id: int, conversation_id: int) -> dict:
    return {"key": key, "now": utcnow(), "member": member_id, "conversation": conversation_id}


def _arrived_query() -> Select:
    """`arrived_for`'s statement on PostgreSQL: the viewer, and the read mark as a
    data-modifying CTE that finds its member in the viewer's row."""
    viewer = VIEWER_BY_KEY.where(Member.id == bindparam("member", type_=Integer)).cte("viewer")
    reader = select(viewer.c.id).where(viewer.c.status.in_(sorted(SIGNED_IN))).scalar_subquery()
    read = (
        update(ChatSide)
        .where(
            ChatSide.conversation_id == bindparam("conversation", type_=Integer),
            ChatSide.member_id == reader,
        )
        .values(unread=0)
        .returning(ChatSide.member_id)
        .cte("read")
    )
    return select(viewer).add_cte(read)


_ARRIVED = _arrived_query()
_ARRIVED_ON_LOOP = LoopStatement.of(_ARRIVED)


async def arrived(key: str, member_id: int, conversation_id: int) -> Viewer | None:
    """`arrived_for` from the event loop: on the serving loop's own pool when it can
    (services/loop_database; the read mark is safe to set twice), else on a thread."""
    if not key:
        return None
    row = await loop_row(_ARRIVED_ON_LOOP, _arrival(key, member_id, conversation_id))
    if row is ELSEWHERE:
        return await act(arrived_for, key, member_id, conversation_id)
    return viewer_of(row, SIGNED_IN)


def refresh(viewer: Viewer, view: TabView) -> Done[CaughtUp]:
    """The periodic safety net on a chat page: the open chat's new messages and the list."""
    member_id = viewer.member_id
    with transaction() as db:
        open_id = _open_conversation(db, member_id, view)
        page = _read_new(db, member_id, open_id, view)
        chats = chat_list(db, member_id, utcnow().date(), LIST_SIZE)
    return Done(CaughtUp(open_id, page, None, chats, None))


def newest(viewer: Viewer, conversation_id: int) -> Done[CaughtUp]:
    """The open chat's newest page again, read ("Newer messages" after reading back past the
    tab's window), with the frame's counts."""
    member_id = viewer.member_id
    with transaction() as db:
        page = _shown(db, member_id, conversation_id, _newest(db, member_id, conversation_id))
        counts = chat_counts(db, member_id)
    return Done(CaughtUp(conversation_id, page, None, None, counts))


def remove(
    viewer: Viewer, conversation_id: int | None = None, partner_id: int | None = None
) -> Done[ChatCounts | None]:
    """Take a conversation (or every one with `partner_id`) off the viewer's list; the counts
    afterwards, or None when there was nothing of the viewer's to remove."""
    member_id = viewer.member_id
    with transaction() as db:
        if conversation_id is not None:
            removed = remove_chat(db, member_id, conversation_id)
        else:
            removed = partner_id is not None and bool(remove_chats_with(db, member_id, partner_id))
        counts = chat_counts(db, member_id) if removed else None
    return Done(counts)


def notice_typing(viewer: Viewer, conversation_id: int) -> Done[bool]:
    """The viewer types in a conversation of theirs: the other member is told."""
    with transaction() as db:
        conversation = db.get(Conversation, conversation_id)
        partner_id = partner_of(conversation, viewer.member_id) if conversation else None
    if partner_id is None:
        return Done(False)
    return Done(True, (Typing(conversation_id, partner_id),))


def overview(viewer: Viewer, limit: int) -> tuple[list[ChatSummary], int]:
    """The viewer's chats and unread total for the HTTP API (a read)."""
    with db_session() as db:
        summaries = chat_list(db, viewer.member_id, utcnow().date(), limit)
        counts = chat_counts(db, viewer.member_id)
    return summaries, counts.unread if counts else 0
