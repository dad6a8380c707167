"""Conversations between two members, their messages and each member's side (unread, removed).

A conversation exists from its first message on. Sending books the message and its charge in
one transaction, under a lock on the sender's row (PostgreSQL), and a message carries the
sender's own id for it (`client_id`, unique per sender): sending the same message twice, by a
double click or a retry after a dropped connection, stores and charges it once. On PostgreSQL a
reply is two statements: the lock with the recipient's query, and the booking (`_booking`); a
first message asks for the recipient once more, under the lock. `sending` yields the steps, for
the thread path (`send_message`) and the event loop's (actions/chat.send_on_loop) to run.
"""

import re
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    Executable,
    Index,
    Insert,
    Integer,
    Select,
    String,
    UniqueConstraint,
    Update,
    and_,
    bindparam,
    case,
    cast,
    exists,
    func,
    insert,
    literal,
    or_,
    true,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased, make_transient_to_detached
from sqlmodel import Field, Session, SQLModel, select

from models.account_rules import storable
from models.activation import can_receive_messages
from models.blocks import not_blocked_with
from models.chat_from import liked_by, start_refusal
from models.credits import charge_line, debit
from models.db import detached
from models.directory import TILE_WIDTH, MemberTile, tile_select, to_tile
from models.gifts import GIFTS
from models.member import Member, MemberStatus, Profile, utcnow
from models.message_filter import Reason, screen
from models.push_subscription import subscribed
from models.site_settings import SiteSettings
from models.upsert import insert_for
from models.visibility import shown_member, shown_to
from translations.catalog import N_, N_plural
from translations.errors import INSUFFICIENT_CREDITS, MEMBER_UNAVAILABLE

FREE_CHAT_STARTS = 2  # spec section 9: free members start at most 2 chats
CLIENT_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
TEXT, GIFT = "text", "gift"

EMPTY_MESSAGE = N_("Write a message first.")
MESSAGE_TOO_LONG = N_plural(
    "Your message can have at most {max} character.",
    "Your message can have at most {max} characters.",
    "max",
)
RECIPIENT_NOT_CONFIRMED = N_(
    "This member has not confirmed their e-mail address yet and cannot receive messages. "
    "Nothing was charged."
)
FREE_CHATS_USED = N_plural(
    "Free members can start {count} chat. Go Premium to start a chat with {name}.",
    "Free members can start {count} chats. Go Premium to start a chat with {name}.",
)
UNKNOWN_GIFT = N_("Choose a gift.")
# The message filter's "Are you sure?", by the first reason found (see models/message_filter).
CONFIRM_OFFENSIVE = N_("{name} may find this message offensive. It will be shown behind a warning.")
CONFIRM_SCAM = N_(
    "Your message mentions money or payment details. {name} will see it behind a warning."
)
CONFIRM_CONTACT = N_(
    "{name} has not replied yet, and your message shares contact details outside the site. It "
    "will be shown behind a warning."
)
_CONFIRMS = {
    Reason.INSULT: CONFIRM_OFFENSIVE,
    Reason.SEXUAL: CONFIRM_OFFENSIVE,
    Reason.SCAM: CONFIRM_SCAM,
    Reason.CONTACT: CONFIRM_CONTACT,
}
CONFIRMATIONS = frozenset(_CONFIRMS.values())


class ChatError(Exception):
    """A message that was not sent (nothing stored, nothing charged); `message` is a msgid."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


class Conversation(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("member_a", "member_b", name="uq_conversation_pair"),)

    id: int | None = Field(default=None, primary_key=True)
    member_a: int = Field(foreign_key="member.id", ondelete="CASCADE")  # the lower id
    member_b: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    started_by: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)
    last_message_at: datetime = Field(default_factory=utcnow)


class ChatSide(SQLModel, table=True):
    """One member's side of a conversation."""

    __table_args__ = (Index("ix_chatside_member", "member_id", "removed"),)

    conversation_id: int = Field(
        foreign_key="conversation.id", primary_key=True, ondelete="CASCADE"
    )
    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    unread: int = 0
    removed: bool = False  # removed from the member's list until a new message arrives
    hidden_through: int = 0  # messages up to this id were removed by this member


class Message(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("sender_id", "client_id", name="uq_message_client_id"),
        Index("ix_message_conversation", "conversation_id", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    conversation_id: int = Field(foreign_key="conversation.id", ondelete="CASCADE")
    sender_id: int = Field(foreign_key="member.id", ondelete="CASCADE")
    kind: str = Field(default=TEXT, max_length=10)
    body: str = Field(default="", max_length=4000)
    gift: str | None = Field(default=None, max_length=20)
    credits: int = 0
    client_id: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    flagged: bool = False  # the message filter's: shown behind "may be offensive"
    removed_at: datetime | None = None  # removed by a moderation decision


@dataclass(frozen=True)
class Outgoing:
    """What a member asks to send: a text, or a gift from models/gifts.py."""

    sender_id: int
    recipient_id: int
    client_id: str
    text: str = ""
    gift: str | None = None
    anyway: bool = False  # the sender confirmed a text the message filter flags
    language: str = ""  # the sender's page language: its word list applies too
    # The chat the sending tab shows, when it sends outside its state (app/chat_api.py): a
    # send that would land elsewhere (another or a new conversation) is refused.
    conversation_id: int | None = None


@dataclass(frozen=True)
class Sent:
    message: Message
    recipient_id: int
    duplicate: bool  # this client id was sent before: nothing new stored or charged
    credits_left: int  # the sender's balance after this send


@dataclass(frozen=True)
class ChatSummary:
    conversation_id: int
    member: MemberTile
    last_kind: str
    last_body: str
    last_gift: str | None
    last_at: datetime
    last_from_me: bool
    unread: int
    last_veiled: bool = False  # received and flagged: the list does not quote it
    last_removed: bool = False  # removed by a moderator: no body, the list says so


def pair(member_id: int, other_id: int) -> tuple[int, int]:
    return (member_id, other_id) if member_id < other_id else (other_id, member_id)


def conversation_between(db: Session, member_id: int, other_id: int) -> Conversation | None:
    a, b = pair(member_id, other_id)
    return db.exec(
        select(Conversation).where(Conversation.member_a == a, Conversation.member_b == b)
    ).first()


def partner_of(conversation: Conversation, member_id: int) -> int | None:
    """The other member, or None when `member_id` is not in the conversation."""
    if member_id == conversation.member_a:
        return conversation.member_b
    if member_id == conversation.member_b:
        return conversation.member_a
    return None


def _chat_partner_to(viewer_id: int):
    """SQL for tile rows: a member the viewer may see, or one who has not confirmed their
    e-mail address yet (the chat then says why it cannot send)."""
    return and_(
        Member.id != viewer_id,
        or_(shown_to(viewer_id), Member.status == MemberStatus.NOT_CONFIRMED),
        not_blocked_with(viewer_id, Member.id),
    )


@dataclass(frozen=True)
class Opening:
    partner: MemberTile
    conversation_id: int  # 0 until the first message
    unread: int  # the viewer's unread messages in it
    viewer_country: str


def chat_opening(
    db: Session,
    viewer_id: int,
    today: date,
    conversation_id: int | None = None,
    partner_id: int | None = None,
) -> Opening | None:
    """A chat the viewer opens by its conversation or by the other member: that member as a
    tile, the pair's conversation, the viewer's unread in it and country. One query."""
    in_pair = or_(
        and_(Conversation.member_a == viewer_id, Conversation.member_b == Member.id),
        and_(Conversation.member_b == viewer_id, Conversation.member_a == Member.id),
    )
    country = select(Profile.country).where(Profile.member_id == viewer_id).scalar_subquery()
    mine = (ChatSide.conversation_id == Conversation.id) & (ChatSide.member_id == viewer_id)
    query = (
        tile_select(Conversation.id, ChatSide.unread, country)
        .outerjoin(Conversation, in_pair)
        .outerjoin(ChatSide, mine)
        .where(_chat_partner_to(viewer_id))
    )
    if conversation_id is not None:
        query = query.where(Conversation.id == conversation_id)
    else:
        query = query.where(Profile.member_id == partner_id)
    row = db.exec(query).first()
    if row is None:
        return None
    found, unread, viewer_country = row[TILE_WIDTH:]
    return Opening(to_tile(row, today), found or 0, unread or 0, viewer_country or "")


def _started_by(member_id: int | ColumnElement[int]):
    """SQL for the number of conversations `member_id` started."""
    started = select(func.count()).where(Conversation.started_by == member_id)
    return started.correlate(None).scalar_subquery()


def _clean(outgoing: Outgoing, settings: SiteSettings) -> tuple[str, str, int]:
    """(kind, body, cost) of a message that may be sent, or ChatError."""
    if outgoing.gift is not None:
        if outgoing.gift not in GIFTS:
            raise ChatError(UNKNOWN_GIFT)
        return GIFT, "", settings.gift_credits
    body = storable(outgoing.text or "").strip()
    if not body:
        raise ChatError(EMPTY_MESSAGE)
    if len(body) > settings.message_length:
        raise ChatError(MESSAGE_TOO_LONG, max=settings.message_length)
    return TEXT, body, settings.message_credits


@dataclass(frozen=True)
class _Sender:
    credits: int
    paid_user: bool
    earlier_id: int | None  # the message stored before under this client id
    language: str


_MEMBER_COLUMNS, _PROFILE_COLUMNS = tuple(Member.__table__.c), tuple(Profile.__table__.c)
_MESSAGE_BY_ID = select(*Message.__table__.c).where(
    Message.__table__.c.id == bindparam("message_id", type_=Integer)
)


@dataclass(frozen=True)
class _Recipient:
    member: Member
    profile: Profile | None
    blocked: bool
    conversation_id: int | None
    chats_started: int  # by the sender; counted only when the pair has no conversation yet
    liked_sender: bool  # the recipient liked the sender (their `chat_from` may ask for it)
    replied: bool  # the recipient wrote in the conversation: until then every text is a first
    push_subscribed: bool  # the recipient has a browser to push to (their notice's job)


def _recipient_query(with_sender: bool) -> Select:
    """The recipient, their profile, a block either way, the pair's conversation and, without
    one, the chats the sender started, whether the recipient liked the sender, has ever written
    back and has a push subscription: one query, built once (building it costs more than
    running it). `with_sender`: led by the sender's balance, premium, language and an earlier
    message with this client id, with the sender's row locked (no row: no sender). FOR NO KEY
    UPDATE: serialises this sender's sends, yet lets the other member's first message reference
    this row (FOR UPDATE would deadlock with their foreign-key check). A twin committed while
    this waited is caught by the unique client id instead."""
    sender_id, recipient_id = (
        bindparam("sender_id", type_=Integer),
        bindparam("recipient_id", type_=Integer),
    )
    a, b = bindparam("member_a", type_=Integer), bindparam("member_b", type_=Integer)
    started = case((Conversation.id.is_(None), _started_by(sender_id)), else_=0)
    replied = exists().where(
        Message.conversation_id == Conversation.id, Message.sender_id == recipient_id
    )
    columns = (*_MEMBER_COLUMNS, *_PROFILE_COLUMNS, not_blocked_with(sender_id, Member.id))
    columns += (Conversation.id, started, liked_by(recipient_id, sender_id), replied)
    query = select(*columns, subscribed(recipient_id))
    if not with_sender:
        return _joined(query.select_from(Member), a, b).where(Member.id == recipient_id)
    sender = aliased(Member, name="sender")
    earlier = select(Message.id).where(
        Message.sender_id == sender_id,
        Message.client_id == bindparam("client_id", type_=Message.client_id.type),
    )
    query = query.add_columns(
        sender.credits, sender.paid_user, earlier.scalar_subquery(), sender.language
    )
    recipient = query.select_from(sender).outerjoin(Member, Member.id == recipient_id)
    return (
        _joined(recipient, a, b)
        .where(sender.id == sender_id)
        .with_for_update(of=sender, key_share=True)
    )


def _joined(query: Select, a: ColumnElement[int], b: ColumnElement[int]) -> Select:
    return query.outerjoin(Profile, Profile.member_id == Member.id).outerjoin(
        Conversation, (Conversation.member_a == a) & (Conversation.member_b == b)
    )


_SENDER_AND_RECIPIENT, _RECIPIENT = _recipient_query(True), _recipient_query(False)
_SENDER_COLUMNS = 4  # what `_SENDER_AND_RECIPIENT` adds: `_Sender`'s


def _ids(outgoing: Outgoing) -> dict[str, int | str]:
    """The parameters of `_SENDER_AND_RECIPIENT` and `_RECIPIENT`."""
    sender_id, recipient_id = outgoing.sender_id, outgoing.recipient_id
    a, b = pair(sender_id, recipient_id)
    ids = {"sender_id": sender_id, "recipient_id": recipient_id, "member_a": a, "member_b": b}
    return ids | {"client_id": outgoing.client_id}


def _recipient_of(row: Sequence[Any] | None) -> _Recipient | None:
    """The recipient from `_RECIPIENT`'s columns; None for no row, or no such member."""
    if row is None:
        return None
    members, profiles = len(_MEMBER_COLUMNS), len(_MEMBER_COLUMNS) + len(_PROFILE_COLUMNS)
    member = detached(Member, _MEMBER_COLUMNS, row[:members])
    if member.id is None:
        return None
    profile = detached(Profile, _PROFILE_COLUMNS, row[members:profiles])
    free, conversation_id, chats_started, liked, replied, push = row[profiles:]
    return _Recipient(
        member,
        profile if profile.member_id is not None else None,
        not free,
        conversation_id,
        chats_started,
        bool(liked),
        bool(replied),
        bool(push),
    )


def _check_recipient(outgoing: Outgoing, recipient: _Recipient | None) -> None:
    """Unconfirmed members are named as such (their profile is hidden until they confirm, so
    they are otherwise "not available"); gone, hidden and blocked members are not available."""
    if recipient is None or recipient.blocked:
        raise ChatError(MEMBER_UNAVAILABLE)
    if recipient.member.status == MemberStatus.NOT_CONFIRMED:
        raise ChatError(RECIPIENT_NOT_CONFIRMED)
    # blocks are checked above: what is left of `can_contact` is a shown profile
    shown = shown_member(recipient.member, recipient.profile)
    if not (
        can_receive_messages(recipient.member)
        and shown
        and outgoing.sender_id != recipient.member.id
    ):
        raise ChatError(MEMBER_UNAVAILABLE)


def start_refused(db: Session, sender_id: int, recipient_id: int) -> tuple[str, str] | None:
    """(msgid, the recipient's name) when the recipient's `chat_from` keeps the sender from
    starting a chat with them (no conversation yet): for the profile's message button. One
    query."""
    a, b = pair(sender_id, recipient_id)
    talking = exists().where(Conversation.member_a == a, Conversation.member_b == b)
    paid = select(Member.paid_user).where(Member.id == sender_id).scalar_subquery()
    row = db.exec(
        select(Member.chat_from, Profile.name, paid, liked_by(recipient_id, sender_id), talking)
        .join(Profile, Profile.member_id == Member.id)
        .where(Member.id == recipient_id)
    ).first()
    if row is None or row[4]:
        return None
    refusal = start_refusal(row[0], bool(row[2]), bool(row[3]))
    return (refusal, row[1]) if refusal is not None else None


def _may_start(sender: _Sender, recipient: _Recipient) -> None:
    """ChatError unless the sender may start a conversation with the recipient: their
    `chat_from` decides who may, and it counts towards a free member's chat starts."""
    name = recipient.profile.name
    refusal = start_refusal(recipient.member.chat_from, sender.paid_user, recipient.liked_sender)
    if refusal is not None:
        raise ChatError(refusal, name=name)
    if not sender.paid_user and recipient.chats_started >= FREE_CHAT_STARTS:
        raise ChatError(FREE_CHATS_USED, count=FREE_CHAT_STARTS, name=name)


def _flagged(
    outgoing: Outgoing, message: Message, sender: _Sender, recipient: _Recipient, first: bool
) -> bool:
    """Whether the message filter flags the text; ChatError asking "Are you sure?" (nothing
    stored or charged) until the sender confirms it."""
    if message.kind != TEXT:
        return False
    languages = (outgoing.language, sender.language, recipient.member.language)
    reasons = screen(message.body, languages, first)
    if reasons and not outgoing.anyway:
        first_reason = min(reasons, key=list(Reason).index)
        raise ChatError(_CONFIRMS[first_reason], name=recipient.profile.name)
    return bool(reasons)


# Built once, as the other statements every message runs (`_RECIPIENT`, `_COUNTS`); the
# parameters are not named as columns (UPDATE's rule).
_CONVERSATION, _MEMBER = (
    bindparam("conversation", type_=Integer),
    bindparam("member", type_=Integer),
)
_SENDER, _COST, _KIND, _AT = (
    bindparam("sender", type_=Integer),
    bindparam("cost", type_=Integer),
    bindparam("kind", type_=String),
    bindparam("at", type_=Message.__table__.c.created_at.type),
)
_PAIR = {
    "member_a": bindparam("pair_a", type_=Integer),
    "member_b": bindparam("pair_b", type_=Integer),
}
_SIDE_COLUMNS = ("conversation_id", "member_id", "unread", "removed", "hidden_through")
_MESSAGE_COLUMNS = (
    "conversation_id",
    "sender_id",
    "kind",
    "body",
    "gift",
    "credits",
    "client_id",
    "created_at",
    "flagged",
)


def _opened() -> Insert:
    """The pair's new conversation, already as its first message leaves it; its id."""
    opened = {"started_by": _SENDER, "created_at": _AT, "last_message_at": _AT}
    return insert(Conversation).values(**_PAIR, **opened).returning(Conversation.id)


def _moved_up() -> Update:
    """The pair's conversation moved up by the message; its id (no row: it is gone)."""
    moved = update(Conversation).where(Conversation.id == _CONVERSATION)
    return moved.values(last_message_at=_AT).returning(Conversation.id)


def _seen_again(dialect: str, conversation: ColumnElement[int]) -> Insert:
    """Both members' sides: made with a new conversation, else back on both lists; one more
    unread for the recipient."""
    sides = union_all(
        *(
            select(
                conversation,
                bind,
                bindparam(f"unread_{x}", type_=Integer),
                literal(False),
                literal(0),
            )
            for x, bind in zip("ab", _PAIR.values(), strict=True)
        )
    ).subquery()
    # the WHERE tells SQLite's parser that ON CONFLICT is not a join's ON
    both = insert_for(dialect, ChatSide).from_select(_SIDE_COLUMNS, select(sides).where(true()))
    seen = {"removed": False, "unread": ChatSide.unread + both.excluded.unread}
    return both.on_conflict_do_update(index_elements=_SIDE_COLUMNS[:2], set_=seen)


def _stored(conversation: ColumnElement[int]) -> Insert:
    """The message in `conversation`; its id and conversation."""
    body, gift, client_id = (
        bindparam(name, type_=String) for name in ("body", "gift", "client_id")
    )
    flagged = bindparam("flagged", type_=Boolean)
    values = select(conversation, _SENDER, _KIND, body, gift, _COST, client_id, _AT, flagged)
    stored = insert(Message).from_select(_MESSAGE_COLUMNS, values)
    return stored.returning(Message.id, Message.conversation_id)


def _charged(message_id: ColumnElement[int]) -> Insert:
    reference = literal("message:") + cast(message_id, String)
    return charge_line(_SENDER, _COST, _KIND, reference, _AT)


@dataclass(frozen=True)
class _Booking:
    """A message's writes one statement each, an id one returns a parameter of the next."""

    conversation: Insert | Update
    sides: Insert
    message: Insert
    charge: Insert
    debit: Update


@cache
def _booking(dialect: str, new: bool) -> _Booking | Select:
    """The writes of a message in a `new` conversation or in the pair's, built once. On
    PostgreSQL one statement (data-modifying CTEs, each reading the ids the one before
    returned): the message's id and conversation and the sender's balance after the charge
    (None: short of credits, or nothing to take); no row: the conversation is gone."""
    conversation = _opened() if new else _moved_up()
    if dialect != "postgresql":
        sides, message = _seen_again(dialect, _CONVERSATION), _stored(_CONVERSATION)
        charge = _charged(bindparam("message", type_=Integer))
        return _Booking(conversation, sides, message, charge, debit(_SENDER, _COST))
    moved = conversation.cte("moved")
    sent = _stored(moved.c.id).cte("sent")
    taken = debit(_SENDER, _COST).cte("taken")
    written = (_seen_again(dialect, moved.c.id).cte("seen"), _charged(sent.c.id).cte("booked"))
    chain = select(sent.c.id, sent.c.conversation_id, taken.c.credits)
    return chain.select_from(sent.outerjoin(taken, true())).add_cte(*written)


def _one_by_one(connection: Connection, booking: _Booking, params: dict) -> tuple | None:
    """`_booking`'s row, from one statement each."""
    conversation_id = connection.execute(booking.conversation, params).scalar()
    if conversation_id is None:
        return None
    params = params | {"conversation": conversation_id}
    connection.execute(booking.sides, params)
    message_id = connection.execute(booking.message, params).scalar_one()
    connection.execute(booking.charge, params | {"message": message_id})
    return message_id, conversation_id, connection.execute(booking.debit, params).scalar()


def _booking_params(outgoing: Outgoing, message: Message, existing: int | None) -> dict:
    """`_booking`'s parameters: `message` with its charge, its conversation (`existing`, or a
    new one) moved up and both sides seen again."""
    a, b = pair(outgoing.sender_id, outgoing.recipient_id)
    return {
        "conversation": existing,
        "pair_a": a,
        "pair_b": b,
        "unread_a": int(a == outgoing.recipient_id),
        "unread_b": int(b == outgoing.recipient_id),
        "sender": outgoing.sender_id,
        "kind": message.kind,
        "body": message.body,
        "gift": message.gift,
        "cost": message.credits,
        "client_id": message.client_id,
        "at": message.created_at,
        "flagged": message.flagged,
    }


@dataclass(frozen=True)
class Ask:
    """A statement whose first row (a tuple of its columns, or None) a send needs next."""

    statement: Executable | _Booking
    params: dict[str, Any]


@dataclass(frozen=True)
class Booked:
    """A send done in its transaction, for the caller to commit: what was sent and, for a new
    message, its recipient (values read, not in a session) and their push subscription."""

    sent: Sent
    recipient: Member | None = None
    push_subscribed: bool = False


Sending = Generator[Ask, Sequence[Any] | None, Booked]


def new_message(outgoing: Outgoing, settings: SiteSettings) -> Message:
    """The message `outgoing` asks to send, not yet stored; ChatError when it may not be sent."""
    if not CLIENT_ID_RE.fullmatch(outgoing.client_id or ""):
        raise ValueError("a message needs its client id")
    kind, body, cost = _clean(outgoing, settings)
    return Message(kind=kind, body=body, credits=cost)


def sending(outgoing: Outgoing, message: Message, dialect: str) -> Sending:
    """A send's statements in order, each asked of the caller, who runs them in one transaction
    and, for a new message, commits once this returns: the sender's lock, the recipient's query
    and the booking (on SQLite `_Booking`'s statements one by one). ChatError: nothing may be
    stored or charged, roll back. The same steps serve the thread path (`send_message`) and
    the event loop's (actions/chat.py)."""
    ids = _ids(outgoing)
    row = yield Ask(_SENDER_AND_RECIPIENT, ids)
    if row is None:
        raise ChatError(MEMBER_UNAVAILABLE)
    sender = _Sender(*row[-_SENDER_COLUMNS:])
    if sender.earlier_id is not None:
        earlier = yield Ask(_MESSAGE_BY_ID, {"message_id": sender.earlier_id})
        message = detached(Message, tuple(Message.__table__.c), earlier)
        return Booked(Sent(message, outgoing.recipient_id, True, sender.credits))
    recipient = _recipient_of(row[:-_SENDER_COLUMNS])
    if recipient is not None and recipient.conversation_id is None:
        # A first message: asked again with the sender's row locked. The statement's snapshot
        # predates its wait for the lock, so its count would miss the sender's first message
        # to someone else committed meanwhile (a free member starts two chats).
        recipient = _recipient_of((yield Ask(_RECIPIENT, ids)))
    _check_recipient(outgoing, recipient)
    if outgoing.conversation_id not in (None, recipient.conversation_id):
        raise ChatError(MEMBER_UNAVAILABLE)
    if recipient.conversation_id is None:
        _may_start(sender, recipient)
    message.sender_id, message.client_id = outgoing.sender_id, outgoing.client_id
    message.gift = outgoing.gift
    # an opener (a gift, an icebreaker) does not open the door: only the recipient's reply
    message.flagged = _flagged(outgoing, message, sender, recipient, not recipient.replied)
    existing = recipient.conversation_id
    booking = _booking(dialect, existing is None)
    row = yield Ask(booking, _booking_params(outgoing, message, existing))
    if row is None:  # the conversation went meanwhile
        raise ChatError(MEMBER_UNAVAILABLE)
    message.id, message.conversation_id, balance = row
    if balance is None and message.credits > 0:
        raise ChatError(INSUFFICIENT_CREDITS)
    left = sender.credits - message.credits  # the sender's row is locked until the commit
    sent = Sent(message, outgoing.recipient_id, False, left)
    return Booked(sent, recipient.member, recipient.push_subscribed)


def _first_row(connection: Connection, ask: Ask) -> Sequence[Any] | None:
    if isinstance(ask.statement, _Booking):
        return _one_by_one(connection, ask.statement, ask.params)
    return connection.execute(ask.statement, ask.params).first()


def _booked(connection: Connection, steps: Sending) -> Booked:
    """Run the steps on `connection`, in its transaction."""
    row = None
    while True:
        try:
            ask = steps.send(row)
        except StopIteration as done:
            return done.value
        row = _first_row(connection, ask)


# (db, the new message, its recipient, whether the recipient has a push subscription)
StoredHook = Callable[[Session, Message, Member, bool], None]


def send_message(
    db: Session, outgoing: Outgoing, settings: SiteSettings, stored: StoredHook | None = None
) -> Sent:
    """Store and charge a message once; ChatError (nothing stored or charged) when it may not
    be sent. Commits; `stored(db, message, recipient, push_subscribed)` runs just before the
    commit of a new message, in its transaction. A clash with a concurrent send (the same
    client id, or both members' first message creating the pair's conversation at once) is
    settled by one more try."""
    message = new_message(outgoing, settings)
    try:
        return _send_once(db, outgoing, message, stored)
    except IntegrityError:
        db.rollback()
        return _send_once(db, outgoing, new_message(outgoing, settings), stored)


def _send_once(
    db: Session, outgoing: Outgoing, message: Message, stored: StoredHook | None
) -> Sent:
    connection = db.connection()
    try:
        booked = _booked(connection, sending(outgoing, message, connection.dialect.name))
    except ChatError:
        db.rollback()
        raise
    if booked.sent.duplicate:
        db.rollback()
        return booked.sent
    make_transient_to_detached(message)
    db.add(message)  # in the session as if read back, without reading it
    if stored is not None:
        stored(db, message, booked.recipient, booked.push_subscribed)
    db.commit()
    return booked.sent


def side_of(db: Session, member_id: int, conversation_id: int) -> ChatSide | None:
    """The member's side of a conversation they are in, or None."""
    return db.get(ChatSide, (conversation_id, member_id))


def shown_body(message: Message) -> str:
    """The text a member may read: none of a message a moderator removed (either member)."""
    return "" if message.removed_at is not None else message.body


def messages_of(
    db: Session,
    member_id: int,
    conversation_id: int,
    limit: int,
    before_id: int | None = None,
    after_id: int | None = None,
) -> list[Message]:
    """Messages the member has not removed, oldest first: the newest `limit` (before
    `before_id`), or with `after_id` the first `limit` after it; [] for a conversation the
    member is not in. One query."""
    if after_id is not None and before_id is None:  # a catch-up, on every tab for every message
        ids = {"member": member_id, "conversation": conversation_id, "after": after_id}
        return list(db.exec(_AFTER, params=ids | {"limit": limit}))
    query = _messages_seen_by(member_id, conversation_id)
    if before_id is not None:
        query = query.where(Message.id < before_id)
    if after_id is not None:
        return list(db.exec(query.where(Message.id > after_id).order_by(Message.id).limit(limit)))
    rows = db.exec(query.order_by(Message.id.desc()).limit(limit)).all()
    return list(reversed(rows))


def _messages_seen_by(
    member_id: int | ColumnElement[int], conversation_id: int | ColumnElement[int]
) -> Select:
    seen = (ChatSide.conversation_id == Message.conversation_id) & (ChatSide.member_id == member_id)
    return (
        select(Message)
        .join(ChatSide, seen)
        .where(Message.conversation_id == conversation_id, Message.id > ChatSide.hidden_through)
    )


_AFTER = (
    _messages_seen_by(_MEMBER, _CONVERSATION)
    .where(Message.id > bindparam("after", type_=Integer))
    .order_by(Message.id)
    .limit(bindparam("limit", type_=Integer))
)
_READ = (
    update(ChatSide)
    .where(ChatSide.conversation_id == _CONVERSATION, ChatSide.member_id == _MEMBER)
    .values(unread=0)
)


def mark_read(db: Session | Connection, member_id: int, conversation_id: int) -> None:
    """Caller commits (or `db` commits each statement)."""
    db.execute(_READ, {"member": member_id, "conversation": conversation_id})


def remove_chat(db: Session, member_id: int, conversation_id: int) -> bool:
    """Take the conversation and its messages so far off the member's list; False when the
    member is not in it. Caller commits."""
    side = side_of(db, member_id, conversation_id)
    if side is None:
        return False
    last_id = db.exec(
        select(func.max(Message.id)).where(Message.conversation_id == conversation_id)
    ).one()
    side.removed, side.unread, side.hidden_through = True, 0, last_id or 0
    db.add(side)
    return True


def remove_chats_with(db: Session, member_id: int, other_id: int) -> list[int]:
    """Remove every conversation with that profile; returns their ids."""
    found = conversation_between(db, member_id, other_id)
    if found is None or not remove_chat(db, member_id, found.id):
        return []
    return [found.id]


def _listed_sides(member_id: int | ColumnElement[int], conversation_id: int | None = None):
    """The member's sides of conversations still listed (or of just one), with the other
    member's id."""
    partner = func.coalesce(
        func.nullif(Conversation.member_a, member_id), Conversation.member_b
    ).label("partner_id")
    return (
        select(ChatSide.conversation_id, ChatSide.unread, ChatSide.hidden_through, partner)
        .join(Conversation, Conversation.id == ChatSide.conversation_id)
        .where(ChatSide.member_id == member_id, ChatSide.removed.is_(False))
        .where(true() if conversation_id is None else ChatSide.conversation_id == conversation_id)
        .subquery()
    )


def chat_list(
    db: Session, member_id: int, today: date, limit: int, conversation_id: int | None = None
) -> list[ChatSummary]:
    """The member's conversations (or just `conversation_id`), latest first, each with the other
    member and its last message: one query. Conversations with a member gone or blocked either
    way are left out."""
    sides = _listed_sides(member_id, conversation_id)
    last_id = (
        select(func.max(Message.id))
        .where(
            Message.conversation_id == sides.c.conversation_id,
            Message.id > sides.c.hidden_through,
        )
        .correlate(sides)
        .scalar_subquery()
    )
    query = (
        tile_select(sides.c.conversation_id, sides.c.unread, Message)
        .join(sides, sides.c.partner_id == Profile.member_id)
        .join(Message, Message.id == last_id)
        .where(shown_to(member_id))
        .order_by(Message.id.desc())
        .limit(limit)
    )
    return [
        ChatSummary(
            conversation_id=conversation_id,
            member=to_tile(row, today),
            last_kind=message.kind,
            last_body=shown_body(message),
            last_gift=None if message.removed_at is not None else message.gift,
            last_at=message.created_at,
            last_from_me=message.sender_id == member_id,
            unread=unread,
            last_veiled=message.flagged
            and message.sender_id != member_id
            and message.removed_at is None,
            last_removed=message.removed_at is not None,
        )
        for row in db.exec(query)
        for conversation_id, unread, message in [row[TILE_WIDTH:]]
    ]


def unread_total_query(member_id: int | ColumnElement[int]) -> Select:
    sides = _listed_sides(member_id)
    return (
        select(func.coalesce(func.sum(sides.c.unread), 0))
        .select_from(sides)
        .join(Member, Member.id == sides.c.partner_id)
        .join(Profile, Profile.member_id == sides.c.partner_id)
        .where(shown_to(member_id), sides.c.unread > 0)
    )


@dataclass(frozen=True)
class ChatCounts:
    credits: int
    paid_user: bool
    unread: int


# Built once: it runs on every open tab for every message, and building it costs more than
# running it.
_COUNTS = select(
    Member.credits, Member.paid_user, unread_total_query(_MEMBER).scalar_subquery()
).where(Member.id == _MEMBER)


def chat_counts(db: Session, member_id: int) -> ChatCounts | None:
    """What a message changes in the frame of the member's tabs: one query."""
    row = db.exec(_COUNTS, params={"member": member_id}).first()
    return ChatCounts(row[0], row[1], int(row[2])) if row is not None else None
