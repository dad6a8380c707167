"""What the payments queue (/staff/payments) reads: refunds the provider has not answered,
orders stuck open, and chargebacks. Each list is one bounded page (actions/paging.py) read on an
index by status, and the buyers on it in one more statement; nothing here writes."""

from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import and_, or_
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select, SelectOfScalar

from actions.moderation_reads import iso
from actions.paging import Page, page_of
from models.member import Member, Profile
from models.orders import OPEN_REFUND, Order, OrderRefund, OrderStatus, order_number
from services.database import db_session

# A refund is unanswered when its request got no answer for an hour (the resubmissions gave
# up after 50 minutes) or the provider has not settled it within a day.
NO_ANSWER_AFTER = timedelta(hours=1)
UNSETTLED_AFTER = timedelta(days=1)
# An order is stuck when its payment is still open an hour on (a checkout takes minutes) or
# still pending after a week (a direct debit is collected within a few working days).
OPEN_STUCK_AFTER = timedelta(hours=1)
PENDING_STUCK_AFTER = timedelta(days=7)


class QueueKind(StrEnum):
    REFUNDS = "refunds"
    ORDERS = "orders"
    CHARGEBACKS = "chargebacks"


def payments_page(kind: QueueKind, page: int, now: datetime) -> Page:
    """One page of the queue of `kind`."""
    statement, shape = {
        QueueKind.REFUNDS: (unanswered_refunds(now), _refund_rows),
        QueueKind.ORDERS: (_stuck_orders(now), _order_rows),
        QueueKind.CHARGEBACKS: (_chargebacks(), _order_rows),
    }[kind]
    with db_session() as db:
        return page_of(db, statement, page, lambda found: shape(db, found))


def unanswered_refunds(now: datetime) -> SelectOfScalar | Select:
    """Open refunds without an answer (see NO_ANSWER_AFTER), the flagged ones first, then the
    oldest."""
    no_answer = and_(
        col(OrderRefund.provider_refund_id).is_(None),
        OrderRefund.created_at < now - NO_ANSWER_AFTER,
    )
    return (
        select(OrderRefund, Order)
        .join(Order, col(Order.id) == OrderRefund.order_id)
        .where(
            col(OrderRefund.status).in_(OPEN_REFUND),
            or_(no_answer, OrderRefund.created_at < now - UNSETTLED_AFTER),
        )
        .order_by(col(OrderRefund.attention_at).is_(None), OrderRefund.created_at, OrderRefund.id)
    )


def _stuck_orders(now: datetime) -> SelectOfScalar[Order]:
    stuck = or_(
        and_(Order.status == OrderStatus.OPEN, Order.created_at < now - OPEN_STUCK_AFTER),
        and_(Order.status == OrderStatus.PENDING, Order.created_at < now - PENDING_STUCK_AFTER),
    )
    return select(Order).where(stuck).order_by(Order.created_at, Order.id)


def _chargebacks() -> SelectOfScalar[Order]:
    return (
        select(Order)
        .where(Order.status == OrderStatus.CHARGED_BACK)
        .order_by(col(Order.updated_at).desc(), col(Order.id).desc())
    )


def _refund_rows(db: Session, found: Sequence[Any]) -> list[dict[str, Any]]:
    buyers = _buyers(db, {order.member_id for _, order in found})
    return [
        _order_row(order, buyers)
        | {
            "refund_id": refund.id,
            "refund_cents": refund.amount_cents,
            "refund_status": refund.status,
            "requested_by": refund.requested_by,
            "answered": refund.provider_refund_id is not None,
            "created_at": iso(refund.created_at),
            "checked_at": iso(refund.checked_at),
            "attention": refund.attention_at is not None,
        }
        for refund, order in found
    ]


def _order_rows(db: Session, orders: Sequence[Order]) -> list[dict[str, Any]]:
    buyers = _buyers(db, {order.member_id for order in orders})
    return [_order_row(order, buyers) for order in orders]


def _buyers(db: Session, member_ids: set[int]) -> dict[int, tuple[str, str]]:
    """(name, e-mail) of each buyer on the page, in one statement."""
    if not member_ids:
        return {}
    query = (
        select(Member.id, Member.email, Profile.name)
        .outerjoin(Profile, col(Profile.member_id) == Member.id)
        .where(col(Member.id).in_(member_ids))
    )
    return {member_id: (name or "", email) for member_id, email, name in db.exec(query)}


def _order_row(order: Order, buyers: dict[int, tuple[str, str]]) -> dict[str, Any]:
    name, email = buyers.get(order.member_id, ("", ""))
    return {
        "order_id": order.id,
        "number": order_number(order.id),
        "member_id": order.member_id,
        "name": name,
        "email": email,
        "amount_cents": order.amount_cents,
        "currency": order.currency,
        "method": order.method,
        "status": order.status,
        "ordered_at": iso(order.created_at),
        "updated_at": iso(order.updated_at),
        "credits_taken_back": order.credits_taken_back,
        "asks_provider": order.provider_payment_id is not None,
    }
