"""Customer service tickets (docs/customer-service.md): a request sent through the contact form
of /pages/service opens a ticket; support answers it from the console, and the member's
follow-up through the same form, quoting the reference, joins its thread and reopens it."""

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import Index
from sqlmodel import Field, Session, SQLModel, col, delete, func, or_, select
from sqlmodel.sql.expression import SelectOfScalar

from models.account_errors import AccountError
from models.account_rules import clean_email, storable
from models.member import Member, utcnow
from models.report_rules import REFERENCE_LENGTH, new_reference
from models.signup import MESSAGE_TOO_LONG
from translations.catalog import N_

MESSAGE_LIMIT = 4000  # a message's characters (the column's size)
EMAIL_LIMIT = 254
TICKETS_PER_CLIENT = 5  # requests from one client address in models/attempts.WINDOW
RECEIPTS_PER_ADDRESS = 3  # receipts to one address in RECEIPT_DAY: the form relays no flood
RECEIPT_DAY = timedelta(hours=24)
VISITOR_RECEIPTS_PER_HOUR = 100  # receipts to visitors' (unproven) addresses, site-wide
KEPT_AFTER_CLOSING = timedelta(days=365)  # a closed ticket goes 12 months after its last change


class TicketTopic(StrEnum):
    ACCOUNT = "account"
    PAYMENTS = "payments"  # payments and refunds
    CREDITS = "credits"
    TECHNICAL = "technical"
    PRIVACY = "privacy"  # privacy and my data
    OTHER = "other"


class TicketStatus(StrEnum):
    OPEN = "open"  # waiting for support
    ANSWERED = "answered"  # waiting for the member
    CLOSED = "closed"


class Author(StrEnum):
    MEMBER = "member"
    STAFF = "staff"


TOPIC_LABELS = {
    TicketTopic.ACCOUNT: N_("My account"),
    TicketTopic.PAYMENTS: N_("Payments and refunds"),
    TicketTopic.CREDITS: N_("Credits"),
    TicketTopic.TECHNICAL: N_("A technical problem"),
    TicketTopic.PRIVACY: N_("Privacy and my data"),
    TicketTopic.OTHER: N_("Something else"),
}
STATUS_LABELS = {
    TicketStatus.OPEN: N_("Open"),
    TicketStatus.ANSWERED: N_("Answered"),
    TicketStatus.CLOSED: N_("Closed"),
}
TOPICS = frozenset(TicketTopic)
STATUSES = frozenset(TicketStatus)

TOPIC_REQUIRED = N_("Choose what your question is about.")
MESSAGE_REQUIRED = N_("Write your message.")
UNKNOWN_REFERENCE = N_(
    "We found no request with this reference from you. Check the reference, or leave it empty "
    "to start a new request."
)
TOO_MANY_REQUESTS = N_(
    "You have sent several messages in a short time. Try again in {minutes} min."
)


class Ticket(SQLModel, table=True):
    """A member's or visitor's request; `email` is where the receipt and answers go."""

    __table_args__ = (Index("ix_ticket_queue", "status", "updated_at", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    reference: str = Field(max_length=REFERENCE_LENGTH, unique=True)
    member_id: int | None = Field(
        default=None, foreign_key="member.id", index=True, ondelete="CASCADE"
    )
    email: str = Field(max_length=EMAIL_LIMIT)
    locale: str = Field(default="en", max_length=5)  # the page's language: the mails'
    topic: str = Field(max_length=20)  # a TicketTopic
    status: str = Field(default=TicketStatus.OPEN, max_length=10)  # a TicketStatus
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class TicketMessage(SQLModel, table=True):
    """One message of a ticket's thread, the member's or an answer of support."""

    id: int | None = Field(default=None, primary_key=True)
    ticket_id: int = Field(foreign_key="ticket.id", index=True, ondelete="CASCADE")
    author: str = Field(max_length=10)  # an Author
    staff_id: int | None = None  # a plain id, as the audit log's: erasing staff keeps the thread
    body: str = Field(max_length=MESSAGE_LIMIT)
    created_at: datetime = Field(default_factory=utcnow)


@dataclass(frozen=True)
class ContactRequest:
    """The contact form as sent (already cut one past each limit by the state)."""

    topic: str
    message: str
    email: str  # a visitor's; ignored for a member, whose account's address is used
    reference: str  # "" for a new request; a ticket's to follow it up
    locale: str
    token: str = ""  # a follow-up's proof from the mailed link (services/ticket_tokens.py)


def clean_message(text: str) -> str:
    """A message as stored, or AccountError naming the "message" field."""
    body = storable(text).strip()
    if not body:
        raise AccountError(MESSAGE_REQUIRED, "message")
    if len(body) > MESSAGE_LIMIT:
        raise AccountError(MESSAGE_TOO_LONG, "message", max=MESSAGE_LIMIT)
    return body


def clean_request(request: ContactRequest, member: Member | None) -> ContactRequest:
    """The request as stored, or AccountError naming the first field to fix. A member writes
    from their account's address; a visitor must give a valid one."""
    reference = request.reference.strip().upper()
    if not reference and request.topic not in TOPICS:
        raise AccountError(TOPIC_REQUIRED, "topic")
    message = clean_message(request.message)
    email = member.email if member else clean_email(request.email)
    return replace(request, message=message, email=email, reference=reference)


def followed_ticket(db: Session, reference: str, may_follow: Callable[[Ticket], bool]) -> Ticket:
    """The ticket a follow-up quotes, locked, when the sender `may_follow` it (their account's,
    or the mailed link's token); AccountError otherwise, the same whether it exists or not."""
    ticket = db.exec(select(Ticket).where(Ticket.reference == reference).with_for_update()).first()
    if ticket is None or not may_follow(ticket):
        raise AccountError(UNKNOWN_REFERENCE, "reference")
    return ticket


def receipt_allowed(db: Session, ticket: Ticket, now: datetime) -> bool:
    """Whether the message just added to `ticket` gets a receipt: at most RECEIPTS_PER_ADDRESS
    messages to its address in RECEIPT_DAY, and VISITOR_RECEIPTS_PER_HOUR to visitors in an
    hour. The caller holds the receipts' lock, so two messages at once count each other."""
    to_address = _messages_since(now - RECEIPT_DAY).where(Ticket.email == ticket.email)
    if db.exec(to_address).one() > RECEIPTS_PER_ADDRESS:
        return False
    if ticket.member_id is not None:
        return True
    to_visitors = _messages_since(now - timedelta(hours=1)).where(col(Ticket.member_id).is_(None))
    return db.exec(to_visitors).one() <= VISITOR_RECEIPTS_PER_HOUR


def _messages_since(since: datetime) -> SelectOfScalar[int]:
    return (
        select(func.count())
        .select_from(TicketMessage)
        .join(Ticket, col(Ticket.id) == TicketMessage.ticket_id)
        .where(TicketMessage.author == Author.MEMBER, TicketMessage.created_at > since)
    )


def purge_closed_tickets(db: Session, now: datetime) -> int:
    """Delete the tickets closed and unchanged for KEPT_AFTER_CLOSING, with their threads."""
    due = select(Ticket.id).where(
        Ticket.status == TicketStatus.CLOSED, Ticket.updated_at <= now - KEPT_AFTER_CLOSING
    )
    return _delete_tickets(db, due)


def erase_tickets_of(db: Session, member_id: int, email: str) -> None:
    """An erased account's tickets: its own, and those a visitor sent from its address."""
    sent = or_(
        Ticket.member_id == member_id,
        (col(Ticket.member_id).is_(None)) & (Ticket.email == email),
    )
    _delete_tickets(db, select(Ticket.id).where(sent))


def _delete_tickets(db: Session, ids: SelectOfScalar[int | None]) -> int:
    found = list(db.exec(ids))
    if found:
        db.exec(delete(TicketMessage).where(col(TicketMessage.ticket_id).in_(found)))
        db.exec(delete(Ticket).where(col(Ticket.id).in_(found)))
    return len(found)


def open_ticket(db: Session, request: ContactRequest, member_id: int | None) -> Ticket:
    """A new ticket with the request as its first message."""
    ticket = Ticket(
        reference=new_reference(),
        member_id=member_id,
        email=request.email,
        locale=request.locale,
        topic=request.topic,
    )
    db.add(ticket)
    db.flush()
    add_message(db, ticket, Author.MEMBER, request.message)
    return ticket


def follow_up(db: Session, ticket: Ticket, request: ContactRequest) -> None:
    """The member's message joins the thread and the ticket waits for support again; the
    answers follow the language the member last wrote in."""
    ticket.status, ticket.locale = TicketStatus.OPEN, request.locale
    add_message(db, ticket, Author.MEMBER, request.message)


def add_message(
    db: Session, ticket: Ticket, author: Author, body: str, staff_id: int | None = None
) -> TicketMessage:
    now = utcnow()
    message = TicketMessage(
        ticket_id=ticket.id, author=author, staff_id=staff_id, body=body, created_at=now
    )
    ticket.updated_at = now
    db.add_all((ticket, message))
    return message
