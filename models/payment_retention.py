"""The end of the fiscal retention of payment records: orders of erased accounts, with their
refunds, mandates, discount redemptions, ledger lines and sandbox payments, once the Dutch tax
law's 7 years (AWR art. 52) are over.

The 7 years run from the end of the (Dutch) calendar year of the order: an order of 2018 is kept
until 31 December 2025 and deleted from 1 January 2026, i.e. an order goes once it was created
before 1 January, Amsterdam time, of the year 7 years back. A live member keeps their history.
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from sqlmodel import Session, delete, select

from models.credits import CreditEntry
from models.direct_debit import SddMandate, SmsCode
from models.discount_codes import DiscountRedemption
from models.member import Member, MemberStatus
from models.orders import Order, OrderRefund
from models.test_payments import SandboxChargeback, SandboxPayment, SandboxRefund

RETENTION_YEARS = 7
PER_RUN = 1000  # orders per hourly run, so a first run never holds its locks for long
_FISCAL_ZONE = ZoneInfo("Europe/Amsterdam")


def retention_start(now: datetime) -> datetime:
    """Orders created before this (1 January of the year 7 years back, Amsterdam time) are
    past their retention."""
    year = now.astimezone(_FISCAL_ZONE).year - RETENTION_YEARS
    return datetime(year, 1, 1, tzinfo=_FISCAL_ZONE).astimezone(UTC)


def purge_retained_payments(db: Session, now: datetime, limit: int = PER_RUN) -> int:
    """Delete up to `limit` orders of erased accounts past their retention, with every row
    that refers to them, children first. Returns the count of orders deleted; caller commits."""
    query = (
        select(Order.id, Order.provider_payment_id)
        .join(Member, Member.id == Order.member_id)  # type: ignore[arg-type]
        .where(Member.status == MemberStatus.DELETED, Order.created_at < retention_start(now))
        .order_by(Order.id)
        .limit(limit)
    )
    rows = db.exec(query).all()
    if not rows:
        return 0
    order_ids = [order_id for order_id, _ in rows]
    refund_ids = db.exec(select(OrderRefund.id).where(OrderRefund.order_id.in_(order_ids))).all()  # type: ignore[union-attr]
    _delete_ledger_lines(db, order_ids, refund_ids)
    mandates = select(SddMandate.id).where(SddMandate.order_id.in_(order_ids))  # type: ignore[union-attr]
    db.exec(delete(SmsCode).where(SmsCode.mandate_id.in_(mandates)))  # type: ignore[attr-defined]
    db.exec(delete(SddMandate).where(SddMandate.order_id.in_(order_ids)))  # type: ignore[union-attr]
    db.exec(delete(DiscountRedemption).where(DiscountRedemption.order_id.in_(order_ids)))  # type: ignore[attr-defined]
    db.exec(delete(OrderRefund).where(OrderRefund.order_id.in_(order_ids)))  # type: ignore[attr-defined]
    _delete_sandbox_payments(db, [payment for _, payment in rows if payment])
    db.exec(delete(Order).where(Order.id.in_(order_ids)))  # type: ignore[union-attr]
    db.flush()
    return len(order_ids)


def _delete_ledger_lines(db: Session, order_ids: Sequence[int], refund_ids: Sequence[int]) -> None:
    """The lines actions/payments.py and models/orders.py book for an order and its refunds."""
    references = [
        *(f"{kind}:{order_id}" for order_id in order_ids for kind in ("order", "chargeback")),
        *(f"{kind}:{rid}" for rid in refund_ids for kind in ("refund", "refund-undone")),
    ]
    db.exec(delete(CreditEntry).where(CreditEntry.reference.in_(references)))  # type: ignore[union-attr]


def _delete_sandbox_payments(db: Session, payment_ids: Sequence[str]) -> None:
    """The test provider's copies of those payments (none in production)."""
    for table in (SandboxRefund, SandboxChargeback):
        db.exec(delete(table).where(table.payment_id.in_(payment_ids)))  # type: ignore[attr-defined]
    db.exec(delete(SandboxPayment).where(SandboxPayment.id.in_(payment_ids)))  # type: ignore[attr-defined]
