"""What a payment's status does to its order: the one action the webhook and the result page
share, so they can never disagree. Whatever arrives in whatever order, twice or late, an order
moves only forward and is granted its credits exactly once, in the same transaction as the
premium flag, the discount redemption and the end of the welcome countdown."""

import logging
from dataclasses import dataclass

from sqlmodel import Session

from actions.conversions import note_order
from actions.effects import handles
from actions.live import BadgesChanged
from actions.mail import mailed
from actions.runner import Done
from models.credits import charge_credits, grant_credits
from models.direct_debit import order_mandate
from models.discount_codes import redeem, release
from models.member import Member, Profile, utcnow
from models.orders import (
    BY_PROVIDER,
    UNSETTLED,
    Order,
    OrderRefund,
    OrderStatus,
    may_move,
    order_by_payment,
    refund_by_provider_id,
    refund_credits,
    refund_may_move,
    refunded_cents,
    reserve_refund,
    unlinked_refund,
    unused_credits,
)
from models.payment_methods import DIRECT_DEBIT
from models.time_bonus import clear_time_bonus
from services.database import transaction
from services.metrics import PAYMENTS
from services.payments.types import PaymentStatus, ProviderPayment, ProviderRefund, RefundStatus
from services.receipt_mail import receipt_mail
from services.site_settings import current_settings

log = logging.getLogger(__name__)

_ORDER_STATUS = {
    PaymentStatus.OPEN: OrderStatus.OPEN,
    PaymentStatus.PENDING: OrderStatus.PENDING,
    PaymentStatus.AUTHORIZED: OrderStatus.PENDING,
    PaymentStatus.PAID: OrderStatus.PAID,
    PaymentStatus.FAILED: OrderStatus.FAILED,
    PaymentStatus.CANCELED: OrderStatus.CANCELED,
    PaymentStatus.EXPIRED: OrderStatus.EXPIRED,
}
_FAILED = frozenset({OrderStatus.FAILED, OrderStatus.CANCELED, OrderStatus.EXPIRED})
_REFUND_UNDONE = frozenset({RefundStatus.FAILED, RefundStatus.CANCELED})


@dataclass(frozen=True)
class PaymentSettled:
    """An order's status changed: the member's open result pages show it."""

    member_id: int
    order_id: int
    status: str = ""  # the order's status after the change (counted: services/metrics.py)


def apply_payment(payment: ProviderPayment, refunds: tuple[ProviderRefund, ...] = ()) -> Done[bool]:
    """Bring the order of `payment` up to what the provider says; True when anything changed.
    A payment whose amount or currency differs from its order's is refused and logged."""
    with transaction() as db:
        return apply_in(db, payment, refunds)


def apply_in(
    db: Session, payment: ProviderPayment, refunds: tuple[ProviderRefund, ...] = ()
) -> Done[bool]:
    """`apply_payment` inside the caller's transaction (a staff fetch audits in the same one)."""
    return _apply(db, order_by_payment(db, payment.id, lock=True), payment, refunds)


def attach_payment(order_id: int, payment: ProviderPayment) -> Done[bool]:
    """The provider created the order's payment: remember it, and its status."""
    with transaction() as db:
        order = db.get(Order, order_id, with_for_update=True)
        if order is not None and order.provider_payment_id is None:
            order.provider_payment_id, order.checkout_url = payment.id, payment.checkout_url
        return _apply(db, order, payment, ())


def _apply(
    db: Session, order: Order | None, payment: ProviderPayment, refunds: tuple[ProviderRefund, ...]
) -> Done[bool]:
    if order is None or order.provider_payment_id != payment.id:
        return Done(False)
    if not _amount_matches(order, payment):
        return Done(False)
    effects: list[object] = []
    before = order.status
    changed = _move(db, order, _target_status(order, payment), effects)
    changed |= _follow_refunds(db, order, refunds, effects)  # after the move granted credits
    if changed and _returned_debit(order, before, payment.failure_reason):
        _block_direct_debit(db, order.member_id, payment.failure_reason or order.status)
    if changed:
        order.updated_at = utcnow()
        effects += [_settled(order), BadgesChanged(order.member_id)]
    db.add(order)
    return Done(changed, tuple(effects))


def _settled(order: Order) -> PaymentSettled:
    return PaymentSettled(order.member_id, order.id, str(order.status))


@handles(PaymentSettled)
async def _count_payment(settled: PaymentSettled) -> None:
    PAYMENTS.labels(settled.status).inc()


def _returned_debit(order: Order, before: str, bank_reason: str | None) -> bool:
    """A direct debit the bank sent back: failed after it was pending or with the bank's
    reason code (even when we never saw it pending), or charged back."""
    if order.method != DIRECT_DEBIT:
        return False
    returned = before == OrderStatus.PENDING or bank_reason is not None
    failed = order.status == OrderStatus.FAILED and returned
    return failed or order.status == OrderStatus.CHARGED_BACK


def _block_direct_debit(db: Session, member_id: int, reason: str) -> None:
    """No more direct debit for the member (other methods still work) until support lifts it."""
    member = db.get(Member, member_id)
    if member is not None and member.sdd_blocked_at is None:
        member.sdd_blocked_at, member.sdd_block_reason = utcnow(), reason[:20]
        db.add(member)


def _amount_matches(order: Order, payment: ProviderPayment) -> bool:
    if (payment.amount.cents, payment.amount.currency) == (order.amount_cents, order.currency):
        return True
    log.error("payment %s: amount %s differs from order %s", payment.id, payment.amount, order.id)
    return False


def _target_status(order: Order, payment: ProviderPayment) -> OrderStatus:
    if payment.amount_charged_back is not None and payment.amount_charged_back.cents > 0:
        return OrderStatus.CHARGED_BACK
    if payment.status == PaymentStatus.PAID and order.status == OrderStatus.REFUNDED:
        return OrderStatus.REFUNDED
    return _ORDER_STATUS[payment.status]


def _move(db: Session, order: Order, target: OrderStatus, effects: list[object]) -> bool:
    if target == OrderStatus.CHARGED_BACK and order.status in UNSETTLED:
        _move(db, order, OrderStatus.PAID, effects)  # paid, then charged back, before we heard
    if target == order.status or not may_move(order.status, target):
        return False
    if target == OrderStatus.PAID and not _fulfil(db, order, effects):
        return False  # a concurrent webhook fulfilled it first (SQLite takes no row lock)
    if target == OrderStatus.CHARGED_BACK:
        _claw_back(db, order)
    if target in _FAILED:
        release(db, order.id)  # the discount this order held is free again
    order.status = target
    note_order(db, order)
    return True


def _fulfil(db: Session, order: Order, effects: list[object]) -> bool:
    """Credits, premium, the discount and the end of the countdown: together, once. False
    when the order's credits were already granted."""
    member = db.get(Member, order.member_id, with_for_update={"key_share": True})
    assert member is not None
    if not grant_credits(db, member, order.credits, "purchase", reference=f"order:{order.id}"):
        return False
    db.refresh(member)
    member.paid_user = True
    clear_time_bonus(member)
    db.add(member)
    held = order.discount_code_id is None or redeem(
        db, order.discount_code_id, order.member_id, order.id, paid=True
    )  # held since the order was placed: paid, it is used
    if not held:
        log.error("order %s paid with code %s held by another order", order.id, order.discount_code)
    order.paid_at = utcnow()
    profile = db.get(Profile, order.member_id)
    mandate = order_mandate(db, order.id) if order.method == DIRECT_DEBIT else None
    name = profile.name if profile else ""
    reference = mandate.reference if mandate else None
    mail = receipt_mail(order, member, name, current_settings(), reference)
    effects.append(mailed(db, mail))
    return True


def _claw_back(db: Session, order: Order) -> None:
    """A chargeback takes back what is left of the purchase's credits (never below zero)."""
    member = db.get(Member, order.member_id, with_for_update={"key_share": True})
    assert member is not None
    taken = unused_credits(order, member.credits)
    if taken and charge_credits(db, member.id, taken, "chargeback", f"chargeback:{order.id}"):
        order.credits_taken_back += taken


def _follow_refunds(
    db: Session, order: Order, refunds: tuple[ProviderRefund, ...], effects: list[object]
) -> bool:
    """Every refund the provider reports takes its status, forward only: ours (a withdrawal)
    and one made at the provider (its dashboard), which first takes back its credits."""
    changed = False
    for refund in refunds:
        row, new = _refund_row(db, order, refund)
        changed |= new
        if row is not None:
            changed |= follow_refund(db, order, row, refund.status, effects)
    return changed


def _refund_row(
    db: Session, order: Order, refund: ProviderRefund
) -> tuple[OrderRefund | None, bool]:
    """Our row of the provider's refund (True when it was made just now), or None for one
    that never paid anything out and that we never knew."""
    row = refund_by_provider_id(db, refund.id)
    if row is None and (row := unlinked_refund(db, order.id, refund.amount.cents)):
        row.provider_refund_id = refund.id  # ours, whose request's answer never came
    if row is not None or refund.status in _REFUND_UNDONE:
        return row, False
    if refund.amount.currency != order.currency:
        log.error("refund %s: currency differs from order %s", refund.id, order.id)
        return None, False
    return _provider_refund(db, order, refund), True


def _provider_refund(db: Session, order: Order, refund: ProviderRefund) -> OrderRefund:
    """A refund made at the provider takes back the credits it stands for, as a withdrawal
    does: at most what is left of the purchase on the balance, never below zero."""
    member = db.get(Member, order.member_id, with_for_update={"key_share": True})
    balance = member.credits if member else 0
    credits = min(refund_credits(order, refund.amount.cents), unused_credits(order, balance))
    log.info("order %s: refund %s made at the provider takes %s", order.id, refund.id, credits)
    return reserve_refund(db, order, credits, refund.amount.cents, BY_PROVIDER, refund.id)


def follow_refund(
    db: Session, order: Order, row: OrderRefund, status: RefundStatus, effects: list[object]
) -> bool:
    """One refund moves on (never back): refunded ends the order as refunded (one made at the
    provider once the refunds paid out its whole price); failed or canceled gives the member
    back the credits it had taken, unless a chargeback took them meanwhile. False when
    nothing changed."""
    if row.order_id != order.id or not refund_may_move(row.status, status):
        return False
    row.status, row.updated_at = status, utcnow()
    db.add(row)
    db.flush()
    if status == RefundStatus.REFUNDED and _refunds_end(db, order, row):
        _move(db, order, OrderStatus.REFUNDED, effects)
    elif status in _REFUND_UNDONE and order.status != OrderStatus.CHARGED_BACK:
        _give_back(db, order, row)
    effects += [_settled(order), BadgesChanged(order.member_id)]
    return True


def _refunds_end(db: Session, order: Order, row: OrderRefund) -> bool:
    """A withdrawal ends the order; refunds made at the provider once they repaid it all (a
    part refunded leaves it paid: what is left can still be withdrawn)."""
    return row.requested_by != BY_PROVIDER or refunded_cents(db, order.id) >= order.amount_cents


def _give_back(db: Session, order: Order, row: OrderRefund) -> None:
    """The credits a refund that did not happen had taken, back on the balance once."""
    member = db.get(Member, order.member_id)
    assert member is not None
    if grant_credits(db, member, row.credits_taken, "refund undone", f"refund-undone:{row.id}"):
        order.credits_taken_back -= row.credits_taken
        db.add(order)
