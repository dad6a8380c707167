"""What the postback log (/staff/postbacks) reads: the conversions reported to the traffic
networks, newest first, all or of one status, one bounded page (actions/paging.py) at a time,
with the member each click belongs to; nothing here writes."""

from collections.abc import Sequence
from typing import Any

from sqlmodel import col, select

from actions.moderation_reads import iso
from actions.paging import Page, page_of
from models.postback import Postback, PostbackStatus
from models.traffic import TrafficClick
from services.database import db_session

STATUSES = tuple(PostbackStatus)


def postbacks_page(status: str, page: int) -> Page:
    """Page `page` of the postbacks of `status` ("" all of them), the newest first."""
    statement = (
        select(Postback, TrafficClick.member_id)
        .join(TrafficClick, col(TrafficClick.id) == Postback.click_id)
        .order_by(col(Postback.created_at).desc(), col(Postback.id).desc())
    )
    if status in STATUSES:
        statement = statement.where(Postback.status == status)
    with db_session() as db:
        return page_of(db, statement, page, _rows)


def _rows(found: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": postback.id,
            "member_id": member_id or 0,
            "network": postback.network,
            "event": postback.event,
            "status": postback.status,
            "attempts": postback.attempts,
            "status_code": postback.last_status_code or 0,
            "error": postback.last_error,
            "amount_cents": postback.amount_cents or 0,
            "currency": postback.currency,
            "created_at": iso(postback.created_at),
            "sent_at": iso(postback.sent_at),
            "next_at": iso(postback.next_attempt_at),
        }
        for postback, member_id in found
    ]
