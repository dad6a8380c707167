"""Withdrawal within `refund_days`: the unused credits of a purchase leave the balance and the
price actually paid for them, pro rata (CJEU C-641/19), goes back to the original means of
payment through the provider. The credits leave first, in the refund's own transaction, so they
cannot be spent while the provider works; a refund that fails gives them back once."""

from dataclasses import dataclass

from sqlmodel import Session, select

from actions.live import BadgesChanged
from actions.payments import PaymentSettled, give_back
from actions.runner import Done
from actions.viewer import Viewer
from models.credits import charge_credits
from models.member import Member, utcnow
from models.orders import (
    Order,
    OrderRefund,
    OrderStatus,
    may_move,
    order_of,
    pro_rata_refund,
    unused_credits,
    within_refund_days,
)
from services.database import transaction
from services.payments.types import Money, ProviderRefund, RefundStatus
from services.site_settings import current_settings
from translations.errors import REFUND_NOT_POSSIBLE

_OPEN_REFUND = ("queued", "pending", "processing")


@dataclass(frozen=True)
class RefundPlan:
    """A refund to ask the provider for; `error` a msgid when there is none to ask."""

    refund_id: int
    payment_id: str
    amount: Money
    idempotency_key: str
    error: str = ""


def refundable_now(db: Session, order: Order, balance: int) -> int:
    """How many credits of `order` a withdrawal would take back now (0: not refundable)."""
    if order.status != OrderStatus.PAID or order.provider_payment_id is None:
        return 0
    if not within_refund_days(order, current_settings().refund_days, utcnow()):
        return 0
    if _refund_in_progress(db, order.id):
        return 0
    return unused_credits(order, balance)


def _refund_in_progress(db: Session, order_id: int) -> bool:
    query = select(OrderRefund.id).where(
        OrderRefund.order_id == order_id,
        OrderRefund.status.in_(_OPEN_REFUND),  # type: ignore[attr-defined]
    )
    return db.exec(query).first() is not None


def withdraw_order(viewer: Viewer, order_id: int) -> Done[RefundPlan]:
    """The member withdraws from their own purchase."""
    with transaction() as db:
        order = order_of(db, viewer.member_id, order_id)
        return _reserve(db, order, "member")


def withdraw_for_member(order_id: int) -> Done[RefundPlan]:
    """Support withdraws a purchase on the member's behalf (same rules, same pro rata)."""
    with transaction() as db:
        return _reserve(db, db.get(Order, order_id), "support")


def _reserve(db: Session, order: Order | None, requested_by: str) -> Done[RefundPlan]:
    if order is None:
        return Done(_no_refund())
    member = db.get(Member, order.member_id, with_for_update={"key_share": True})
    credits = refundable_now(db, order, member.credits if member else 0)
    reference = f"refund:{order.id}:{order.credits_taken_back}"
    if not credits or not charge_credits(db, order.member_id, credits, "refund", reference):
        return Done(_no_refund())
    order.credits_taken_back += credits
    row = OrderRefund(
        order_id=order.id,
        amount_cents=pro_rata_refund(order, credits),
        credits_taken=credits,
        requested_by=requested_by,
    )
    db.add_all([order, row])
    db.flush()
    plan = RefundPlan(
        row.id,
        order.provider_payment_id,
        Money(row.amount_cents, order.currency),
        f"refund-{row.id}",
    )
    return Done(plan, (BadgesChanged(order.member_id), PaymentSettled(order.member_id, order.id)))


def _no_refund() -> RefundPlan:
    return RefundPlan(0, "", Money(0, ""), "", REFUND_NOT_POSSIBLE)


def record_refund(refund_id: int, refund: ProviderRefund) -> Done[None]:
    """The provider took the refund: remember its id and status."""
    with transaction() as db:
        row = db.get(OrderRefund, refund_id)
        if row is None:
            return Done(None)
        row.provider_refund_id, row.status, row.updated_at = refund.id, refund.status, utcnow()
        db.add(row)
        order = db.get(Order, row.order_id)
        if refund.status == RefundStatus.REFUNDED and may_move(order.status, OrderStatus.REFUNDED):
            order.status = OrderStatus.REFUNDED
            db.add(order)
    return Done(None, (PaymentSettled(order.member_id, order.id),))


def refund_refused(refund_id: int) -> Done[None]:
    """The provider refused the refund: the member gets the credits back."""
    with transaction() as db:
        row = db.get(OrderRefund, refund_id, with_for_update=True)
        if row is None or row.status == RefundStatus.FAILED:
            return Done(None)
        order = db.get(Order, row.order_id)
        row.status = RefundStatus.FAILED
        db.add(row)
        give_back(db, order, row)
    return Done(None, (BadgesChanged(order.member_id), PaymentSettled(order.member_id, order.id)))
