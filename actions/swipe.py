"""The swipe game: the next members to decide on, a right swipe (a like, 4 a day for members
who are not premium, counted in the member's own calendar day), a left swipe (a pass,
unlimited) and taking the last pass back."""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from actions.likes import LikeOutcome, like_effects, like_within
from actions.runner import Done
from actions.viewer import Viewer
from models.directory import MemberTile, member_tile
from models.likes import CannotLike
from models.member import Member, utcnow
from models.swipes import (
    SWIPE_LIKES_PER_DAY,
    SwipeLimitReached,
    day_of,
    likes_on,
    record_swipe,
    swipe_stack,
    time_zone_of,
    undo_last_pass,
)
from models.visibility import can_contact
from services.database import db_session, transaction

STACK_SIZE = 5  # cards a tab holds: the one on top and the next ones, their photos preloaded


@dataclass(frozen=True)
class SwipeAllowance:
    likes_left: int | None  # None: premium, no daily limit
    resets_at: datetime  # the member's next midnight, in UTC


@dataclass(frozen=True)
class SwipeResult:
    outcome: LikeOutcome | None  # a like's outcome; None for a pass or a refused like
    limit_reached: bool
    allowance: SwipeAllowance


def _limit(viewer: Viewer) -> int | None:
    return None if viewer.paid_user else SWIPE_LIKES_PER_DAY


def _allowance(db: Session, viewer: Viewer, now: datetime) -> SwipeAllowance:
    """The likes the viewer has left in their day at `now`, and when the next day begins."""
    limit, day = _limit(viewer), day_of(db, viewer.member_id, now)
    left = None if limit is None else max(limit - likes_on(db, viewer.member_id, day), 0)
    return SwipeAllowance(left, day.end)


def remember_time_zone(viewer: Viewer, reported: object) -> Done[SwipeAllowance]:
    """Keep the time zone the browser reported (when it is a real one); the day's allowance."""
    zone = time_zone_of(reported)
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        if member is not None and zone is not None and member.time_zone != zone:
            member.time_zone = zone
            db.add(member)
        return Done(_allowance(db, viewer, utcnow()))


def next_cards(viewer: Viewer, held: list[int], count: int) -> list[MemberTile]:
    """Up to `count` members to swipe on that the tab does not hold yet."""
    with db_session() as db:
        return swipe_stack(db, viewer.member_id, utcnow().date(), count, held)


def swipe(viewer: Viewer, member_id: int, liked: bool) -> Done[SwipeResult]:
    """Store a right (like) or left (pass) swipe on a member the viewer may contact. A like
    past today's limit stores nothing."""
    limit = _limit(viewer) if liked else None
    outcome: LikeOutcome | None = None
    limit_reached = False
    now = utcnow()
    with transaction() as db:
        try:
            with db.begin_nested():
                if not can_contact(db, viewer.member_id, member_id):
                    raise CannotLike(member_id)
                record_swipe(db, viewer.member_id, member_id, liked, limit, now)
                outcome = like_within(db, viewer, member_id) if liked else None
        except SwipeLimitReached:
            limit_reached = True
        except CannotLike:
            pass  # the member is out of reach: nothing stored, no outcome
        allowance = _allowance(db, viewer, now)
    effects = like_effects(viewer, member_id, outcome) if outcome else ()
    return Done(SwipeResult(outcome, limit_reached, allowance), effects=effects)


def undo_pass(viewer: Viewer) -> Done[MemberTile | None]:
    """Take back the last pass: the member it passed, to show on top again."""
    with transaction() as db:
        other_id = undo_last_pass(db, viewer.member_id)
        return Done(member_tile(db, other_id, utcnow().date()) if other_id else None)
