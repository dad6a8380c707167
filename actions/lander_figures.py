"""What /staff/landers reads (docs/acquisition.md, "Variants"): per lander and variant, the
visits that came with tracking parameters (clicks, robots left out), the signups they led to,
the signups whose address was confirmed and those who went on to a first purchase, over the
last days asked for; nothing here writes."""

from datetime import timedelta
from typing import Any

from sqlalchemy import case, exists, func, select
from sqlmodel import col

from models.member import Member, MemberStatus, utcnow
from models.orders import Order
from models.traffic import TrafficClick
from services.database import read_connection

PERIODS = (7, 30, 90)  # days the page offers
ROWS_MAX = 200  # landers times variants ever named: bounded all the same
# Statuses only a confirmed address reaches (a member deleted before confirming is not one).
CONFIRMED = (MemberStatus.ACTIVE, MemberStatus.SUSPENDED, MemberStatus.BANNED)
FIGURES = ("visits", "signups", "confirmed", "purchases")


def lander_figures(days: int) -> list[dict[str, Any]]:
    """Each lander and variant's figures for the clicks of the last `days` (one of PERIODS)."""
    since = utcnow() - timedelta(days=days if days in PERIODS else PERIODS[0])
    signed_up = col(TrafficClick.member_id).is_not(None)
    purchased = exists().where(
        Order.member_id == TrafficClick.member_id, col(Order.paid_at).is_not(None)
    )
    statement = (
        select(
            TrafficClick.lander,
            TrafficClick.variant,
            func.count(),
            func.count(TrafficClick.member_id),
            func.count(case((col(Member.status).in_(CONFIRMED), 1))),
            func.count(case((signed_up & purchased, 1))),
        )
        .outerjoin(Member, col(Member.id) == TrafficClick.member_id)
        .where(col(TrafficClick.is_bot).is_(False), TrafficClick.created_at >= since)
        .group_by(TrafficClick.lander, TrafficClick.variant)
        .order_by(TrafficClick.lander, TrafficClick.variant)
        .limit(ROWS_MAX)
    )
    with read_connection() as connection:
        rows = connection.execute(statement).all()
    return [
        {"lander": lander, "variant": variant, **_figures(counts)}
        for lander, variant, *counts in rows
    ]


def _figures(counts: list[int]) -> dict[str, Any]:
    """The counts by name, and each later step's share of the visits (a percentage with one
    decimal; a row has at least one visit)."""
    figures: dict[str, Any] = dict(zip(FIGURES, counts, strict=True))
    for name in FIGURES[1:]:
        figures[f"{name}_share"] = round(100 * figures[name] / figures["visits"], 1)
    return figures
