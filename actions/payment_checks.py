"""The payments queue's "ask the provider now": one order's payment and refunds fetched through
the payments adapter and applied by the action the webhook uses (`apply_in`), with an audit row
in the same transaction when it changed anything. The order's open refunds remember when they
were asked about."""

import logging
from enum import StrEnum
from typing import Any

from sqlmodel import Session, select

from actions.audit import audit
from actions.payment_flow import fetch_payment, is_refusal
from actions.payments import apply_in
from actions.refunds import refund_in_progress
from actions.runner import Done, act, read
from actions.staff_viewer import StaffViewer
from models.member import utcnow
from models.orders import OPEN_REFUND, Order, OrderRefund, order_by_payment
from services.database import db_session, transaction
from services.payments.types import ProviderError, ProviderPayment, ProviderRefund

log = logging.getLogger(__name__)

FETCH_ACTION = "payment.fetch"
FETCH_REASON = "asked the payment provider from the payments queue"


class FetchOutcome(StrEnum):
    CHANGED = "changed"  # the provider's answer moved the order or a refund on
    UNCHANGED = "unchanged"
    UNREACHABLE = "unreachable"  # no answer: ask again later
    REFUSED = "refused"  # the provider does not know the payment
    NO_PAYMENT = "no_payment"  # the provider never created one for the order


async def fetch_provider_state(staff: StaffViewer, order_id: int) -> FetchOutcome:
    """Ask the provider about the order now and apply what it says."""
    target = await read(order_payment, order_id)
    if target is None:
        return FetchOutcome.NO_PAYMENT
    try:
        payment, refunds = await fetch_payment(*target)
    except ProviderError as error:
        log.warning("order %s: payment not fetched for staff: %s", order_id, error)
        return FetchOutcome.REFUSED if is_refusal(error) else FetchOutcome.UNREACHABLE
    changed = await act(apply_fetched, staff, payment, refunds)
    return FetchOutcome.CHANGED if changed else FetchOutcome.UNCHANGED


def order_payment(order_id: int) -> tuple[str, bool] | None:
    """The order's payment id at the provider and whether one of its refunds is open."""
    with db_session() as db:
        order = db.get(Order, order_id)
        if order is None or order.provider_payment_id is None:
            return None
        return order.provider_payment_id, refund_in_progress(db, order.id)


def apply_fetched(
    staff: StaffViewer, payment: ProviderPayment, refunds: tuple[ProviderRefund, ...]
) -> Done[bool]:
    """What the webhook does with the provider's answer, audited when it changed something."""
    with transaction() as db:
        order = order_by_payment(db, payment.id, lock=True)
        if order is None:
            return Done(False)
        before = _standing(db, order)
        done = apply_in(db, payment, refunds)
        after = _standing(db, order)
        _mark_checked(db, order.id)
        changed = done.value or after != before  # a refund linked to the provider's own
        if changed:
            audit(db, staff, FETCH_ACTION, ("order", order.id), FETCH_REASON, before, after)
        return Done(changed, done.effects)


def _refunds_of(db: Session, order_id: int) -> list[OrderRefund]:
    return list(db.exec(select(OrderRefund).where(OrderRefund.order_id == order_id)))


def _standing(db: Session, order: Order) -> dict[str, Any]:
    """The order's status, credits taken back and each refund's status and provider id, for
    the audit row."""
    refunds = _refunds_of(db, order.id)
    return {
        "status": order.status,
        "credits_taken_back": order.credits_taken_back,
        "refunds": {str(row.id): row.status for row in refunds},
        "refund_ids": {str(row.id): row.provider_refund_id or "" for row in refunds},
    }


def _mark_checked(db: Session, order_id: int) -> None:
    now = utcnow()
    for row in _refunds_of(db, order_id):
        if row.status in OPEN_REFUND:
            row.checked_at = now
            db.add(row)
