"""The welcome time bonus (spec sections 4 and 9): TIMEBONUS25, 25 % off during a new member's
first WINDOW seconds.

The deadline is always signup + WINDOW, so starting again (at the next log-in) can neither reset
nor extend it. The server holds it in `Member.time_bonus_until` while it runs and is the only
judge at checkout; the browser merely redraws the countdown from it. It is used up by paying
(the member is then `paid_user`) or by an order that redeemed TIMEBONUS25.
"""

from datetime import datetime, timedelta

from sqlmodel import Session

from models.discount_codes import TIME_BONUS_CODE, find_code, has_redeemed, time_bonus_deadline
from models.member import Member, as_utc

WINDOW = 14_400  # seconds from signup


def deadline_for(member: Member) -> datetime:
    return as_utc(member.signup_date) + timedelta(seconds=WINDOW)


def start_time_bonus(db: Session, member: Member, now: datetime) -> datetime | None:
    """Start or keep the countdown of a logged-in member who may still have it; its deadline,
    or None (and nothing held) when the member is paid, has used it, or the window is over."""
    deadline = deadline_for(member)
    if member.paid_user or now >= deadline or _used(db, member):
        clear_time_bonus(member)
        return None
    if member.time_bonus_until is None or as_utc(member.time_bonus_until) != deadline:
        member.time_bonus_until = deadline
    return deadline


def clear_time_bonus(member: Member) -> None:
    """At zero, on log-out and on payment."""
    if member.time_bonus_until is not None:
        member.time_bonus_until = None


def active_time_bonus(member: Member, now: datetime) -> datetime | None:
    """The deadline while the countdown runs; once past (or paid) it is cleared and None."""
    deadline = time_bonus_deadline(member, now)
    if deadline is None:
        clear_time_bonus(member)
    return deadline


def _used(db: Session, member: Member) -> bool:
    code = find_code(db, TIME_BONUS_CODE)
    return code is not None and has_redeemed(db, code.id, member.id)
