"""Withdrawal within `refund_days`: the unused credits of a purchase leave the balance and the
price actually paid for them, pro rata (CJEU C-641/19), goes back to the original means of
payment through the provider. The credits leave first, in the refund's own transaction, so they
cannot be spent while the provider works; a refund that fails gives them back once."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, select

from actions.audit import audit
from actions.live import BadgesChanged
from actions.payments import PaymentSettled, follow_refund
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from actions.support import refuse_target
from actions.viewer import Viewer
from models.member import Member, utcnow
from models.orders import (
    OPEN_REFUND,
    Order,
    OrderRefund,
    OrderStatus,
    order_of,
    pro_rata_refund,
    reserve_refund,
    unused_credits,
    within_refund_days,
)
from services.database import db_session, transaction
from services.payments.types import Money, ProviderRefund, RefundStatus
from services.site_settings import current_settings
from translations.errors import REFUND_NOT_POSSIBLE

RESUBMIT_WITHIN = timedelta(minutes=50)  # Mollie keeps an idempotency key for an hour
RESUBMIT_BATCH = 50


@dataclass(frozen=True)
class RefundPlan:
    """A refund to ask the provider for; `error` a msgid when there is none to ask."""

    refund_id: int
    order_id: int
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
    if refund_in_progress(db, order.id):
        return 0
    return unused_credits(order, balance)


def refund_in_progress(db: Session, order_id: int) -> bool:
    query = select(OrderRefund.id).where(
        OrderRefund.order_id == order_id,
        OrderRefund.status.in_(OPEN_REFUND),  # type: ignore[attr-defined]
    )
    return db.exec(query).first() is not None


def withdraw_order(viewer: Viewer, order_id: int) -> Done[RefundPlan]:
    """The member withdraws from their own purchase."""
    with transaction() as db:
        order = order_of(db, viewer.member_id, order_id, lock=True)
        return _reserve(db, order, "member")


def withdraw_for_member(
    staff: StaffViewer | None, order_id: int, reason: str = ""
) -> Done[RefundPlan]:
    """Support withdraws a purchase on the member's behalf (same rules, same pro rata), from
    the console (`staff`) or the command line (None); audited with the refund it reserved."""
    with transaction() as db:
        order = db.get(Order, order_id, with_for_update=True)
        if order is not None:
            refuse_target(db, staff, order.member_id)
        done = _reserve(db, order, "support")
        if not done.value.error:
            after = {"refund": done.value.refund_id, "cents": done.value.amount.cents}
            audit(db, staff, "support.withdraw", ("order", order_id), reason, after=after)
        return done


def _reserve(db: Session, order: Order | None, requested_by: str) -> Done[RefundPlan]:
    if order is None:
        return Done(_no_refund())
    member = db.get(Member, order.member_id, with_for_update={"key_share": True})
    credits = refundable_now(db, order, member.credits if member else 0)
    if not credits:
        return Done(_no_refund())
    row = reserve_refund(db, order, credits, pro_rata_refund(order, credits), requested_by)
    plan = RefundPlan(
        row.id,
        order.id,
        order.provider_payment_id,
        Money(row.amount_cents, order.currency),
        f"refund-{row.id}",
    )
    return Done(plan, (BadgesChanged(order.member_id), PaymentSettled(order.member_id, order.id)))


def _no_refund() -> RefundPlan:
    return RefundPlan(0, 0, "", Money(0, ""), "", REFUND_NOT_POSSIBLE)


def unsubmitted_refunds(now: datetime) -> tuple[RefundPlan, ...]:
    """Refunds whose request got no answer from the provider, still inside the window in which
    the provider recognises their idempotency key (so asking again cannot refund twice)."""
    with db_session() as db:
        query = (
            select(OrderRefund, Order)
            .join(Order, Order.id == OrderRefund.order_id)
            .where(
                OrderRefund.provider_refund_id.is_(None),  # type: ignore[union-attr]
                OrderRefund.status == RefundStatus.QUEUED,
                OrderRefund.created_at > now - RESUBMIT_WITHIN,
            )
            .limit(RESUBMIT_BATCH)
        )
        return tuple(
            RefundPlan(
                row.id,
                order.id,
                order.provider_payment_id or "",
                Money(row.amount_cents, order.currency),
                f"refund-{row.id}",
            )
            for row, order in db.exec(query)
        )


def record_refund(refund_id: int, refund: ProviderRefund) -> Done[None]:
    """The provider took the refund: remember its id, and follow its status."""
    with transaction() as db:
        found = _locked(db, refund_id)
        if found is None:
            return Done(None)
        order, row = found
        row.provider_refund_id = refund.id
        db.add(row)
        effects: list[object] = []
        follow_refund(db, order, row, refund.status, effects)
    return Done(None, tuple(effects))


def refund_refused(refund_id: int) -> Done[None]:
    """The provider said no to the refund: it failed, and the member gets the credits back."""
    with transaction() as db:
        found = _locked(db, refund_id)
        effects: list[object] = []
        if found is not None:
            follow_refund(db, *found, RefundStatus.FAILED, effects)
    return Done(None, tuple(effects))


def _locked(db: Session, refund_id: int) -> tuple[Order, OrderRefund] | None:
    """The refund and its order, the order locked first (as the webhook locks it)."""
    row = db.get(OrderRefund, refund_id)
    order = db.get(Order, row.order_id, with_for_update=True) if row else None
    if row is None or order is None:
        return None
    db.refresh(row)
    return order, row
