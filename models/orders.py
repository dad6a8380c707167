"""Orders: one purchase of a credit bundle, its price frozen at creation, and its refunds.

Status only moves forward: open -> pending -> paid -> refunded or charged_back, and open or
pending -> failed, canceled or expired. A later webhook can never undo an earlier outcome.
"""

import uuid
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import Index, func
from sqlmodel import Field, Session, SQLModel, select

from models.credits import charge_credits
from models.member import utcnow


class OrderStatus(StrEnum):
    OPEN = "open"
    PENDING = "pending"
    PAID = "paid"
    FAILED = "failed"
    CANCELED = "canceled"
    EXPIRED = "expired"
    REFUNDED = "refunded"  # withdrawn: the unused credits were refunded
    CHARGED_BACK = "charged_back"


_NEXT: dict[OrderStatus, frozenset[OrderStatus]] = {
    OrderStatus.OPEN: frozenset(
        {
            OrderStatus.PENDING,
            OrderStatus.PAID,
            OrderStatus.FAILED,
            OrderStatus.CANCELED,
            OrderStatus.EXPIRED,
        }
    ),
    OrderStatus.PENDING: frozenset(
        {OrderStatus.PAID, OrderStatus.FAILED, OrderStatus.CANCELED, OrderStatus.EXPIRED}
    ),
    OrderStatus.PAID: frozenset({OrderStatus.REFUNDED, OrderStatus.CHARGED_BACK}),
    OrderStatus.REFUNDED: frozenset({OrderStatus.CHARGED_BACK}),
}

ORDER_NUMBER_PREFIX = "A-"
UNSETTLED = frozenset({OrderStatus.OPEN, OrderStatus.PENDING})


def order_number(order_id: int) -> str:
    """How members and support name an order: A-000123."""
    return f"{ORDER_NUMBER_PREFIX}{order_id:06d}"


def may_move(current: str, new: str) -> bool:
    """Whether an order in `current` may go to `new` (never back, never sideways)."""
    return OrderStatus(new) in _NEXT.get(OrderStatus(current), frozenset())


class Order(SQLModel, table=True):
    """A purchase: what was bought, for how much, how, and where it stands. Amounts in cents."""

    __table_args__ = (
        Index("ix_order_member_created", "member_id", "created_at"),
        Index("ix_order_status_created", "status", "created_at"),  # the payments queue
    )
    __tablename__ = "creditorder"

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id")
    tier: str = Field(max_length=4)
    credits: int
    list_cents: int  # the bundle's price before any discount
    amount_cents: int  # what the member pays, VAT included
    currency: str = Field(max_length=3)
    country: str = Field(max_length=2)
    discount_code_id: int | None = Field(default=None, foreign_key="discountcode.id")
    discount_code: str | None = Field(default=None, max_length=40)
    discount_percentage: int = 0
    method: str = Field(max_length=20)
    locale: str = Field(default="en", max_length=5)
    provider: str = Field(max_length=10)
    provider_payment_id: str | None = Field(default=None, max_length=40, unique=True)
    checkout_url: str | None = Field(default=None, max_length=500)
    status: str = Field(default=OrderStatus.OPEN, max_length=12)
    idempotency_key: str = Field(
        default_factory=lambda: uuid.uuid4().hex, max_length=40, unique=True
    )
    credits_taken_back: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    paid_at: datetime | None = None
    updated_at: datetime = Field(default_factory=utcnow)


class OrderRefund(SQLModel, table=True):
    """A refund of (part of) an order through the provider. `status` follows the provider's:
    queued, pending, processing, refunded, failed, canceled."""

    __table_args__ = (Index("ix_orderrefund_open", "status", "created_at"),)  # the queue

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="creditorder.id", index=True)
    provider_refund_id: str | None = Field(default=None, max_length=40, unique=True)
    amount_cents: int
    credits_taken: int
    status: str = Field(default="queued", max_length=12)
    # member or support (a withdrawal), provider (made at the provider, e.g. its dashboard)
    requested_by: str = Field(default="member", max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    checked_at: datetime | None = None  # when the provider was last asked about it
    attention_at: datetime | None = None  # unanswered too long: first in support's queue


BY_PROVIDER = "provider"
OPEN_REFUND = ("queued", "pending", "processing")  # services' RefundStatus values
_REFUND_STEP = {"queued": 0, "pending": 1, "processing": 2}  # services' RefundStatus values
_REFUND_FINAL = 3  # refunded, failed, canceled


def refund_may_move(current: str, new: str) -> bool:
    """A refund's status only moves on: queued, pending, processing, then one final status."""
    return _REFUND_STEP.get(new, _REFUND_FINAL) > _REFUND_STEP.get(current, _REFUND_FINAL)


def order_of(db: Session, member_id: int, order_id: int, *, lock: bool = False) -> Order | None:
    """The member's own order, or None (someone else's order is as good as missing)."""
    order = db.get(Order, order_id, with_for_update=lock)
    return order if order is not None and order.member_id == member_id else None


def order_by_payment(db: Session, payment_id: str, *, lock: bool = False) -> Order | None:
    query = select(Order).where(Order.provider_payment_id == payment_id)
    return db.exec(query.with_for_update() if lock else query).first()


def unused_credits(order: Order, balance: int) -> int:
    """The credits of this purchase still unused. Credits a member spends count against their
    other credits first, so up to the whole balance may be this purchase's (the reading most
    favourable to the member); credits already taken back for it are not counted twice."""
    return max(0, min(order.credits - order.credits_taken_back, balance))


def pro_rata_refund(order: Order, credits: int) -> int:
    """What `credits` unused credits of the order are worth: the price actually paid times
    their share of the bundle (CJEU C-641/19), rounded down to the cent."""
    return order.amount_cents * credits // order.credits


def refund_credits(order: Order, cents: int) -> int:
    """The credits a refund of `cents` stands for: the fewest whose pro-rata value covers it
    (the inverse of `pro_rata_refund`), so refunds that add up to the price take all."""
    if order.amount_cents <= 0:
        return order.credits
    return -(-cents * order.credits // order.amount_cents)


def reserve_refund(
    db: Session,
    order: Order,
    credits: int,
    cents: int,
    requested_by: str,
    provider_refund_id: str | None = None,
) -> OrderRefund:
    """A refund of `cents` that takes `credits` off the member's balance now, booked once
    (ledger reference `refund:{id}`), and counted as taken back from the order. The caller
    holds the order's row lock and has checked that the balance covers `credits`."""
    row = OrderRefund(
        order_id=order.id,
        provider_refund_id=provider_refund_id,
        amount_cents=cents,
        credits_taken=credits,
        requested_by=requested_by,
    )
    db.add(row)
    db.flush()
    if not charge_credits(db, order.member_id, credits, "refund", f"refund:{row.id}"):
        raise RuntimeError(f"order {order.id}: the locked balance no longer covers {credits}")
    order.credits_taken_back += credits
    db.add(order)
    return row


def unlinked_refund(db: Session, order_id: int, cents: int) -> OrderRefund | None:
    """A refund of ours for `cents` still open whose request the provider never answered: the
    provider's refund of that amount we do not know yet is this one (one runs at a time)."""
    query = select(OrderRefund).where(
        OrderRefund.order_id == order_id,
        OrderRefund.provider_refund_id.is_(None),  # type: ignore[union-attr]
        OrderRefund.amount_cents == cents,
        OrderRefund.status.in_(OPEN_REFUND),  # type: ignore[attr-defined]
    )
    return db.exec(query).first()


def refunded_cents(db: Session, order_id: int) -> int:
    """What the order's refunds have paid out so far."""
    query = select(func.coalesce(func.sum(OrderRefund.amount_cents), 0)).where(
        OrderRefund.order_id == order_id, OrderRefund.status == "refunded"
    )
    return int(db.exec(query).one())


def within_refund_days(order: Order, refund_days: int, now: datetime) -> bool:
    return order.paid_at is not None and now - order.paid_at <= timedelta(days=refund_days)


def refund_by_provider_id(db: Session, refund_id: str) -> OrderRefund | None:
    return db.exec(select(OrderRefund).where(OrderRefund.provider_refund_id == refund_id)).first()
