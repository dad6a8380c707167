"""What support reads (docs/support.md): members found by e-mail, name, id, order number or
the last four digits of an IBAN, and one account: its facts, live sessions, recent log-ins,
the credits ledger with each entry's reason (paged), orders, refunds, chargebacks, mandates
(masked), notices sent, and how many reports and decisions concern it. Nothing here writes.
Every list is bounded."""

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, col, select

from actions.moderation_reads import iso
from actions.paging import Page, page_of
from models.audit import AuditEntry
from models.auth_session import AuthSession
from models.credits import SUPPORT_REFERENCE, CreditEntry
from models.deletion import GRACE_PERIOD
from models.direct_debit import SddMandate, masked_iban
from models.login_history import LoginEvent
from models.member import Member, MemberStatus, Profile, utcnow
from models.moderation import Decision, Report
from models.notice_mails import NoticeMail
from models.orders import Order, OrderRefund, OrderStatus, order_number
from models.support_form import Search, SearchKey
from services.database import db_session

FOUND_LIMIT = 20
LEDGER_PAGE = 20
LEDGER_PAGES = 500  # 10,000 lines back at most
LIST_LIMIT = 20  # orders, refunds, mandates, notices, sessions, log-ins: the latest


@dataclass(frozen=True)
class Account:
    member: dict
    sessions: list[dict]
    logins: list[dict]
    orders: list[dict]
    refunds: list[dict]
    mandates: list[dict]
    notices: list[dict]
    reports: int
    decisions: int


def _like(text: str) -> str:
    """A prefix pattern that takes `text` literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}%"


def _found_ids(db: Session, search: Search) -> list[int]:
    text, key = search.text, search.key
    if key == SearchKey.ID:
        return [int(text)]
    if key == SearchKey.ORDER:
        order = db.get(Order, int(text))
        return [order.member_id] if order else []
    if key == SearchKey.IBAN:
        query = select(SddMandate.member_id).where(col(SddMandate.iban).endswith(text))
    elif key == SearchKey.NAME:
        query = select(Profile.member_id).where(
            func.lower(Profile.name).like(_like(text.lower()), escape="\\")
        )
    else:
        query = select(Member.id).where(col(Member.email).like(_like(text.lower()), escape="\\"))
    return list(db.exec(query.distinct().limit(FOUND_LIMIT)).all())


def find_members(search: Search) -> list[dict]:
    """Up to FOUND_LIMIT accounts (erased ones too: their orders stay), by id."""
    with db_session() as db:
        ids = _found_ids(db, search)
        if not ids:
            return []
        rows = db.exec(
            select(Member, Profile.name)
            .outerjoin(Profile, col(Profile.member_id) == col(Member.id))
            .where(col(Member.id).in_(ids))
            .order_by(col(Member.id))
        ).all()
        return [
            {
                "id": member.id,
                "name": name or "",
                "email": member.email,
                "status": member.status,
                "signup_date": iso(member.signup_date),
            }
            for member, name in rows
        ]


def _member_row(db: Session, member: Member) -> dict:
    profile = db.get(Profile, member.id)
    last = db.exec(select(func.max(LoginEvent.at)).where(LoginEvent.member_id == member.id)).one()
    return {
        "id": member.id,
        "name": profile.name if profile else "",
        "email": member.email,
        "status": member.status,
        "language": member.language,
        "signup_date": iso(member.signup_date),
        "last_login": iso(last),
        "credits": member.credits,
        "sdd_blocked": member.sdd_blocked_at is not None,
        "erase_on": (member.deleted_at + GRACE_PERIOD).date().isoformat()
        if member.deleted_at and member.status == MemberStatus.DELETED_PENDING
        else "",
    }


def _sessions(db: Session, member_id: int) -> list[dict]:
    rows = db.exec(
        select(AuthSession)
        .where(
            AuthSession.member_id == member_id,
            AuthSession.expires_at > utcnow(),
            col(AuthSession.handoff_hash).is_(None),
        )
        .order_by(col(AuthSession.created_at).desc())
        .limit(LIST_LIMIT)
    ).all()
    return [
        {"created_at": iso(r.created_at), "device": r.device, "address": r.address,
         "place": r.place}
        for r in rows
    ]  # fmt: skip


def _logins(db: Session, member_id: int) -> list[dict]:
    rows = db.exec(
        select(LoginEvent)
        .where(LoginEvent.member_id == member_id)
        .order_by(col(LoginEvent.at).desc())
        .limit(LIST_LIMIT)
    ).all()
    return [
        {"at": iso(r.at), "device": r.device, "address": r.address, "place": r.place} for r in rows
    ]


def _orders(db: Session, member_id: int) -> list[dict]:
    rows = db.exec(
        select(Order)
        .where(Order.member_id == member_id)
        .order_by(col(Order.created_at).desc())
        .limit(LIST_LIMIT)
    ).all()
    return [
        {
            "id": o.id,
            "number": order_number(o.id),
            "created_at": iso(o.created_at),
            "status": o.status,
            "credits": o.credits,
            "cents": o.amount_cents,
            "currency": o.currency,
            "method": o.method,
            "paid": o.status == OrderStatus.PAID,
        }
        for o in rows
    ]


def _refunds(db: Session, member_id: int) -> list[dict]:
    rows = db.exec(
        select(OrderRefund, Order)
        .join(Order, col(Order.id) == col(OrderRefund.order_id))
        .where(Order.member_id == member_id)
        .order_by(col(OrderRefund.created_at).desc())
        .limit(LIST_LIMIT)
    ).all()
    return [
        {
            "number": order_number(order.id),
            "created_at": iso(refund.created_at),
            "cents": refund.amount_cents,
            "currency": order.currency,
            "credits": refund.credits_taken,
            "status": refund.status,
            "requested_by": refund.requested_by,
        }
        for refund, order in rows
    ]


def _mandates(db: Session, member_id: int) -> list[dict]:
    rows = db.exec(
        select(SddMandate)
        .where(SddMandate.member_id == member_id)
        .order_by(col(SddMandate.created_at).desc())
        .limit(LIST_LIMIT)
    ).all()
    return [
        {"iban": masked_iban(m.iban), "status": m.status, "signed_at": iso(m.signed_at),
         "reference": m.reference or ""}
        for m in rows
    ]  # fmt: skip


def _notices(db: Session, member_id: int) -> list[dict]:
    rows = db.exec(
        select(NoticeMail)
        .where(NoticeMail.member_id == member_id)
        .order_by(col(NoticeMail.sent_at).desc())
        .limit(LIST_LIMIT)
    ).all()
    return [{"topic": n.topic.split(":", 1)[0], "sent_at": iso(n.sent_at)} for n in rows]


def _count(db: Session, query) -> int:
    return int(db.exec(query).one())


def support_account(member_id: int) -> Account | None:
    """The account view; None for an id no account has."""
    with db_session() as db:
        member = db.get(Member, member_id)
        if member is None:
            return None
        return Account(
            _member_row(db, member),
            _sessions(db, member_id),
            _logins(db, member_id),
            _orders(db, member_id),
            _refunds(db, member_id),
            _mandates(db, member_id),
            _notices(db, member_id),
            _count(db, select(func.count()).where(Report.reported_id == member_id)),
            _count(db, select(func.count()).where(Decision.member_id == member_id)),
        )


def _support_notes(db: Session, references: list[str]) -> dict[str, str]:
    """The reasons support gave for its ledger lines, from their audit rows."""
    ids = [int(r[len(SUPPORT_REFERENCE) :]) for r in references]
    if not ids:
        return {}
    rows = db.exec(select(AuditEntry.id, AuditEntry.reason).where(col(AuditEntry.id).in_(ids)))
    return {f"{SUPPORT_REFERENCE}{id_}": reason for id_, reason in rows}


def _ledger_rows(db: Session, entries: Sequence[CreditEntry]) -> list[dict]:
    support = [e.reference for e in entries if (e.reference or "").startswith(SUPPORT_REFERENCE)]
    notes = _support_notes(db, support)
    return [
        {
            "at": iso(e.created_at),
            "amount": e.amount,
            "reason": e.reason,
            "note": notes.get(e.reference or "", ""),
        }
        for e in entries
    ]


def ledger_page(member_id: int, page: int) -> Page:
    """The ledger, the newest first, LEDGER_PAGE lines a page (the page number bounded): each
    line's amount, its reason and, for support's, the reason support gave."""
    with db_session() as db:
        statement = (
            select(CreditEntry)
            .where(CreditEntry.member_id == member_id)
            .order_by(col(CreditEntry.created_at).desc(), col(CreditEntry.id).desc())
        )
        return page_of(
            db, statement, page, lambda found: _ledger_rows(db, found), LEDGER_PAGE, LEDGER_PAGES
        )
