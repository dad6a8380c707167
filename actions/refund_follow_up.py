"""The hourly follow-up of refunds the provider has not settled: those open for more than a day
are asked about again (what the webhook does, `sync_payment`), and those still open a week
after the request are flagged (`attention_at`) so that they lead support's payments queue
(/staff/payments) instead of waiting unseen. An hourly periodic job (services/jobs.py): one
round per hour across every worker and instance, and a refund asked about within RECHECK_AFTER
is not asked again, so that a round just after finds it done."""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_
from sqlmodel import col, select

from actions.payment_flow import sync_payment
from actions.runner import Done, act, read
from models.member import as_utc, utcnow
from models.orders import OPEN_REFUND, Order, OrderRefund
from services.database import db_session, transaction
from services.jobs import periodic

log = logging.getLogger(__name__)

FOLLOW_AFTER = timedelta(days=1)
ATTENTION_AFTER = timedelta(days=7)
FOLLOW_BATCH = 50  # an hour's share; the least recently asked go first
RECHECK_AFTER = timedelta(minutes=30)  # well inside the hour between rounds


@dataclass(frozen=True)
class FollowUp:
    refund_id: int
    payment_id: str


def refunds_to_follow(now: datetime) -> tuple[FollowUp, ...]:
    """Open refunds requested more than FOLLOW_AFTER ago and not asked about within
    RECHECK_AFTER, the never or longest ago asked first."""
    query = (
        select(OrderRefund.id, Order.provider_payment_id)
        .join(Order, col(Order.id) == OrderRefund.order_id)
        .where(
            col(OrderRefund.status).in_(OPEN_REFUND),
            OrderRefund.created_at < now - FOLLOW_AFTER,
            col(Order.provider_payment_id).is_not(None),
            or_(
                col(OrderRefund.checked_at).is_(None),
                col(OrderRefund.checked_at) < now - RECHECK_AFTER,
            ),
        )
        .order_by(col(OrderRefund.checked_at).is_not(None), OrderRefund.checked_at, OrderRefund.id)
        .limit(FOLLOW_BATCH)
    )
    with db_session() as db:
        return tuple(FollowUp(refund_id, payment_id) for refund_id, payment_id in db.exec(query))


def mark_followed(refund_id: int, now: datetime) -> Done[bool]:
    """The refund was asked about at `now`; True when it is flagged for support just now (still
    open ATTENTION_AFTER after its request)."""
    with transaction() as db:
        row = db.get(OrderRefund, refund_id)
        if row is None:
            return Done(False)
        db.get(Order, row.order_id, with_for_update=True)  # the webhook's lock order
        db.refresh(row)
        row.checked_at = now
        overdue = now - as_utc(row.created_at) >= ATTENTION_AFTER
        flag = row.status in OPEN_REFUND and overdue and row.attention_at is None
        if flag:
            row.attention_at = now
        db.add(row)
        return Done(flag)


async def follow_up_refunds(now: datetime) -> int:
    """Ask the provider about the refunds due; the count newly flagged for support."""
    flagged = 0
    for due in await read(refunds_to_follow, now):
        await sync_payment(due.payment_id)  # unanswered: asked again next hour
        if await act(mark_followed, due.refund_id, now):
            flagged += 1
            log.warning(
                "refund %s unanswered for %s: flagged for support", due.refund_id, ATTENTION_AFTER
            )
    return flagged


@periodic("follow_up_refunds", cron="17 * * * *")
async def follow_up_refunds_hourly() -> None:
    await follow_up_refunds(utcnow())
