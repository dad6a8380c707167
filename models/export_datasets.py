"""What a member's data export holds: one dataset per kind of data, each the rows of one member
as plain dicts. Other members appear only as a pseudonym (`Alias`), never by name or id.

Adding a dataset is one line in DATASETS; `owned(Model, *columns)` covers a table with a
`member_id` column. docs/data-rights.md lists the member tables that are not exported, and why;
tests/unit/test_data_rights.py holds both lists against every table of models/tables."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlmodel import Session, SQLModel, col, or_, select

from models.blocks import Block
from models.chat import Conversation, Message
from models.consent import Consent
from models.credits import CreditEntry
from models.data_export import DataExport
from models.direct_debit import SddMandate, masked_iban
from models.discount_codes import DiscountCode, DiscountRedemption
from models.likes import Like
from models.login_history import LoginEvent
from models.matchfinder import MatchPreference
from models.member import Member, Photo, Profile
from models.moderation import Appeal, Decision, Report
from models.notice_mails import NoticeMail
from models.orders import Order, OrderRefund
from models.postback import Postback
from models.push_subscription import PushSubscription
from models.search import SearchPreference
from models.signup import SignupEvent, SignupSource
from models.swipes import Swipe
from models.tickets import Ticket, TicketMessage
from models.traffic import TrafficClick

Row = dict[str, Any]
Alias = Callable[[int | None], str]  # another member's id -> "member 3f9a2c1b7d"
Rows = Callable[[Session, int, Alias], list[Row]]
ME = "me"

ACCOUNT_COLUMNS = (
    "id", "email", "status", "language", "signup_date", "paid_user", "credits", "time_zone",
    "chat_from", "invisible", "privacy_mode", "notifications_disabled", "notification_settings",
    "time_bonus_until", "sdd_blocked_at", "sdd_block_reason", "suspended_until", "deleted_at",
)  # fmt: skip
PROFILE_COLUMNS = (
    "name", "gender", "sexuality", "date_of_birth", "country", "region", "city", "hair_colour",
    "eye_colour", "body_type", "relationship_status", "tattoos", "interests", "about_me",
    "status", "main_photo_id", "listed", "privacy_mode", "signup_date",
)  # fmt: skip
ORDER_COLUMNS = (
    "id", "tier", "credits", "list_cents", "amount_cents", "currency", "country", "discount_code",
    "discount_percentage", "method", "provider", "provider_payment_id", "status",
    "credits_taken_back", "created_at", "paid_at", "updated_at",
)  # fmt: skip
CLICK_COLUMNS = (
    "created_at", "network", "ref", "sub1", "sub2", "sub3", "click_id", "path", "lander",
    "language", "user_agent",
)  # fmt: skip
POSTBACK_COLUMNS = (
    "created_at", "network", "event", "amount_cents", "currency", "url", "status", "sent_at",
)  # fmt: skip
MANDATE_COLUMNS = (
    "id", "order_id", "tier", "payment_country", "amount_cents", "reference", "account_holder",
    "street", "house_number", "zip", "city", "country", "phone_e164", "mandate_text", "status",
    "created_at", "signed_at", "signed_ip", "signed_user_agent", "language",
)  # fmt: skip


@dataclass(frozen=True)
class Dataset:
    name: str  # the files' stem: <name>.json and <name>.csv
    tables: tuple[str, ...]  # the tables it reads a member's rows from
    rows: Rows


def plain(value: object) -> object:
    """JSON's kind of value: times and dates as ISO 8601 text."""
    return value.isoformat() if isinstance(value, (datetime, date)) else value


def picked(row: SQLModel, columns: Iterable[str]) -> Row:
    return {column: plain(getattr(row, column)) for column in columns}


def owned(name: str, model: type[SQLModel], *columns: str) -> Dataset:
    """The dataset `name` of a table whose rows name the member in `member_id`: those rows'
    `columns`."""

    def rows(db: Session, member_id: int, _alias: Alias) -> list[Row]:
        found = db.exec(select(model).where(model.member_id == member_id))  # type: ignore[attr-defined]
        return [picked(row, columns) for row in found]

    return Dataset(name, (model.__tablename__,), rows)  # type: ignore[arg-type]


def _account(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    return [picked(db.get(Member, member_id), ACCOUNT_COLUMNS)]


def _profile(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    profile = db.get(Profile, member_id)
    return [picked(profile, PROFILE_COLUMNS)] if profile else []


def _photos(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    photos = db.exec(select(Photo).where(Photo.member_id == member_id).order_by(Photo.id))
    columns = ("id", "position", "status", "created_at")
    return [{**picked(p, columns), "file": photo_path(p.filename)} for p in photos]


def photo_files(db: Session, member_id: int) -> list[str]:
    """The stored originals' names (the archive copies them to `photo_path`)."""
    return list(db.exec(select(Photo.filename).where(Photo.member_id == member_id)))


def photo_path(filename: str) -> str:
    return f"photos/{filename}"


def _conversation_ids(db: Session, member_id: int) -> list[int]:
    mine = or_(Conversation.member_a == member_id, Conversation.member_b == member_id)
    return list(db.exec(select(Conversation.id).where(mine)))


def _conversations(db: Session, member_id: int, alias: Alias) -> list[Row]:
    found = db.exec(
        select(Conversation).where(Conversation.id.in_(_conversation_ids(db, member_id)))
    )  # type: ignore[union-attr]
    return [
        {
            "conversation": c.id,
            "with": alias(c.member_b if c.member_a == member_id else c.member_a),
            "started_by": ME if c.started_by == member_id else alias(c.started_by),
            "created_at": plain(c.created_at),
            "last_message_at": plain(c.last_message_at),
        }
        for c in found
    ]


def _messages(db: Session, member_id: int, alias: Alias) -> list[Row]:
    """Sent and received; a received message moderation removed keeps its place, not its text
    (it is the other member's, and the chat no longer shows it)."""
    query = (
        select(Message)
        .where(Message.conversation_id.in_(_conversation_ids(db, member_id)))  # type: ignore[attr-defined]
        .order_by(Message.conversation_id, Message.id)
    )
    return [
        {
            "conversation": m.conversation_id,
            "from": ME if m.sender_id == member_id else alias(m.sender_id),
            "kind": m.kind,
            "text": m.body if m.sender_id == member_id or m.removed_at is None else "",
            "gift": m.gift,
            "credits": m.credits if m.sender_id == member_id else 0,
            "sent_at": plain(m.created_at),
            "removed_by_moderation_at": plain(m.removed_at),
        }
        for m in db.exec(query)
    ]


def _likes(db: Session, member_id: int, alias: Alias) -> list[Row]:
    query = select(Like).where(or_(Like.liker_id == member_id, Like.liked_id == member_id))
    return [
        {
            "direction": "given" if like.liker_id == member_id else "received",
            "member": alias(like.liked_id if like.liker_id == member_id else like.liker_id),
            "at": plain(like.created_at),
            "automatic": like.automatic,
        }
        for like in db.exec(query)
    ]


def _matches(db: Session, member_id: int, alias: Alias) -> list[Row]:
    query = select(Like).where(Like.liker_id == member_id, Like.matched_at.is_not(None))  # type: ignore[union-attr]
    return [
        {"member": alias(like.liked_id), "since": plain(like.matched_at)} for like in db.exec(query)
    ]


def _swipes(db: Session, member_id: int, alias: Alias) -> list[Row]:
    query = select(Swipe).where(Swipe.member_id == member_id)
    return [
        {"member": alias(s.other_id), "liked": s.liked, "at": plain(s.created_at)}
        for s in db.exec(query)
    ]


def _blocks(db: Session, member_id: int, alias: Alias) -> list[Row]:
    query = select(Block).where(Block.blocker_id == member_id)
    return [{"member": alias(b.blocked_id), "at": plain(b.created_at)} for b in db.exec(query)]


def _decision_outcome(db: Session, decision_id: int | None) -> Row:
    decision = db.get(Decision, decision_id) if decision_id else None
    if decision is None:
        return {"decision": None, "decided_at": None, "reversed_at": None}
    return {
        "decision": decision.measure,
        "decided_at": plain(decision.decided_at),
        "reversed_at": plain(decision.reversed_at),
    }


def _reports(db: Session, member_id: int, alias: Alias) -> list[Row]:
    query = select(Report).where(Report.reporter_id == member_id).order_by(Report.id)
    return [
        {
            "reference": r.reference,
            "category": r.category,
            "content_type": r.content_type,
            "member": alias(r.reported_id),
            "text": r.text,
            "status": r.status,
            "created_at": plain(r.created_at),
            **_decision_outcome(db, r.decision_id),
        }
        for r in db.exec(query)
    ]


DECISION_COLUMNS = (
    "puid", "measure", "content_type", "category", "ground_type", "ground", "facts",
    "automated_detection", "automated_decision", "duration_days", "ends_at", "decided_at",
    "reversed_at",
)  # fmt: skip


def _decisions(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    query = select(Decision).where(Decision.member_id == member_id).order_by(Decision.id)
    return [picked(d, DECISION_COLUMNS) for d in db.exec(query)]


def _appeals(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    query = select(Appeal).where(Appeal.by_member_id == member_id)
    columns = ("id", "decision_id", "text", "status", "answer", "created_at", "decided_at")
    return [picked(a, columns) for a in db.exec(query)]


def _order_ids(db: Session, member_id: int) -> list[int]:
    return list(db.exec(select(Order.id).where(Order.member_id == member_id)))


def _refunds(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    query = select(OrderRefund).where(OrderRefund.order_id.in_(_order_ids(db, member_id)))  # type: ignore[attr-defined]
    columns = ("order_id", "amount_cents", "credits_taken", "status", "requested_by", "created_at")
    return [picked(r, columns) for r in db.exec(query)]


def _mandates(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    query = select(SddMandate).where(SddMandate.member_id == member_id)
    return [{**picked(m, MANDATE_COLUMNS), "iban": masked_iban(m.iban)} for m in db.exec(query)]


def _signup_source(db: Session, member_id: int, alias: Alias) -> list[Row]:
    source = db.get(SignupSource, member_id)
    if source is None:
        return []
    row = picked(source, ("network", "ref", "sub1", "sub2", "sub3", "signup_message"))
    return [{**row, "signed_up_from_profile_of": alias(source.to_member_id)}]


def _postbacks(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    """The conversions reported to the network of the member's click, with the address sent."""
    query = (
        select(Postback)
        .join(TrafficClick, col(TrafficClick.id) == Postback.click_id)
        .where(TrafficClick.member_id == member_id)
        .order_by(col(Postback.id))
    )
    return [picked(p, POSTBACK_COLUMNS) for p in db.exec(query)]


def _tickets(db: Session, member_id: int, _alias: Alias) -> list[Row]:
    """The member's tickets, and those sent from the account's address without logging in
    (erasure takes both: models/tickets.erase_tickets_of)."""
    email = db.get(Member, member_id).email
    sent_unlogged = col(Ticket.member_id).is_(None) & (Ticket.email == email)
    query = (
        select(Ticket, TicketMessage)
        .join(TicketMessage, TicketMessage.ticket_id == Ticket.id)  # type: ignore[arg-type]
        .where(or_(Ticket.member_id == member_id, sent_unlogged))
        .order_by(Ticket.id, TicketMessage.id)
    )
    return [
        {
            "reference": ticket.reference,
            "topic": ticket.topic,
            "status": ticket.status,
            "from": message.author,
            "text": message.body,
            "at": plain(message.created_at),
        }
        for ticket, message in db.exec(query)
    ]


DATASETS: tuple[Dataset, ...] = (
    Dataset("account", ("member",), _account),
    Dataset("profile", ("profile",), _profile),
    Dataset("photos", ("photo",), _photos),
    Dataset("conversations", ("conversation", "chatside"), _conversations),
    Dataset("messages", ("message",), _messages),
    Dataset("likes", ("like",), _likes),
    Dataset("matches", ("like",), _matches),
    Dataset("swipes", ("swipe",), _swipes),
    Dataset("blocks", ("block",), _blocks),
    Dataset("reports", ("report",), _reports),
    Dataset("decisions", ("decision",), _decisions),
    Dataset("appeals", ("appeal",), _appeals),
    owned("credits", CreditEntry, "amount", "reason", "reference", "created_at"),
    owned("orders", Order, *ORDER_COLUMNS),
    Dataset("refunds", ("orderrefund",), _refunds),
    Dataset("mandates", ("sddmandate",), _mandates),
    owned("discount_codes", DiscountCode, "code", "value_percentage", "status", "expires_at"),
    owned("discount_redemptions", DiscountRedemption, "code_id", "order_id", "created_at"),
    owned("login_history", LoginEvent, "at", "address", "device", "place"),
    owned("push_subscriptions", PushSubscription, "endpoint", "created_at"),
    owned("notification_mails", NoticeMail, "topic", "sent_at"),
    owned("consents", Consent, "document", "version", "accepted_at", "address"),
    Dataset("signup_source", ("signupsource",), _signup_source),
    owned("signup_steps", SignupEvent, "kind", "created_at"),
    owned("partner_click", TrafficClick, *CLICK_COLUMNS),
    Dataset("partner_postbacks", ("postback",), _postbacks),
    owned("search_preferences", SearchPreference, "gender", "country", "min_age", "max_age"),
    owned("match_preferences", MatchPreference, "min_age", "max_age", "interests", "questions"),
    Dataset("customer_service", ("ticket", "ticketmessage"), _tickets),
    owned("data_exports", DataExport, "requested_at", "ready_at", "expires_at"),
)
