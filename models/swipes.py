"""The swipe game: each member's decisions (a like or a pass) on the members it shows, the
stack of members still to decide on, and the free members' likes per calendar day in their own
time zone (spec section 9: 4 a day).

The browser reports the zone, so a zone change must not buy likes: the day a like counts in is
kept on the member until it ends (reporting another zone meanwhile changes nothing), and a
next day that would begin before it ended starts where it ended and lasts at least MIN_DAY (24 h),
so no zone makes a day restart, run backwards or shorter than a day. A member who stays in one
zone has their calendar days."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlalchemy import Index, delete, func
from sqlmodel import Field, Session, SQLModel, select

from models.db import advisory_lock
from models.directory import MemberTile, tile_select, to_tile
from models.likes import Like
from models.member import Member, Profile, as_utc, utcnow
from models.search import sought_genders
from models.visibility import listed_to

SWIPE_LIKES_PER_DAY = 4  # spec section 9, for members who are not premium
DEFAULT_TIME_ZONE = "UTC"
# A day that starts after a zone change lasts at least this long, so no zone choice at a day's
# end buys a shorter one. A member who stays in one zone never has such a day: their days are
# the calendar days (23 hours when summer time starts).
MIN_DAY = timedelta(hours=24)
TIME_ZONE_MAX = 64
_TIME_ZONES = frozenset(available_timezones())


class Swipe(SQLModel, table=True):
    __table_args__ = (Index("ix_swipe_member_time", "member_id", "created_at"),)

    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    other_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    liked: bool  # a right swipe (a like); False: a pass
    created_at: datetime = Field(default_factory=utcnow)


class SwipeLimitReached(Exception):
    """A free member has used today's swipe likes."""


@dataclass(frozen=True)
class SwipeDay:
    """The member's calendar day in their time zone, as UTC bounds."""

    start: datetime
    end: datetime


def time_zone_of(name: object) -> str | None:
    """An IANA time zone name the browser reported, when it is one."""
    if not isinstance(name, str) or len(name) > TIME_ZONE_MAX or name not in _TIME_ZONES:
        return None
    return name


def swipe_day(zone: str, now: datetime) -> SwipeDay:
    """Today in `zone` (an unknown zone counts as UTC), from midnight to midnight."""
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo(DEFAULT_TIME_ZONE)
    today: date = now.astimezone(tz).date()
    start = datetime.combine(today, time(), tzinfo=tz)
    end = datetime.combine(today + timedelta(days=1), time(), tzinfo=tz)
    return SwipeDay(start, end)


def member_day(zone: str, now: datetime, last: SwipeDay | None) -> SwipeDay:
    """The day likes count in at `now`: the member's `last` day while it runs; after it, today
    in `zone`, but never starting before `last` ended (it then starts there and ends at the
    first midnight in `zone` at least MIN_DAY later)."""
    if last is not None and last.start <= now < last.end:
        return last
    today = swipe_day(zone, now)
    if last is None or now < last.start or today.start >= last.end:
        return today
    return SwipeDay(last.end, swipe_day(zone, last.end + MIN_DAY).end)


def day_of(db: Session, member_id: int, now: datetime) -> SwipeDay:
    """The member's day at `now` (`member_day`), in the time zone their browser last reported."""
    member = db.get(Member, member_id)
    if member is None:
        return swipe_day(DEFAULT_TIME_ZONE, now)
    return member_day(member.time_zone or DEFAULT_TIME_ZONE, now, _kept_day(member))


def _kept_day(member: Member) -> SwipeDay | None:
    if member.swipe_day_start is None or member.swipe_day_end is None:
        return None
    return SwipeDay(as_utc(member.swipe_day_start), as_utc(member.swipe_day_end))


def _keep_day(db: Session, member_id: int, day: SwipeDay) -> None:
    """The day of the member's like is their day until it ends."""
    member = db.get(Member, member_id)
    if member is not None and _kept_day(member) != day:
        member.swipe_day_start, member.swipe_day_end = day.start, day.end
        db.add(member)


def likes_on(db: Session, member_id: int, day: SwipeDay) -> int:
    """The member's swipe likes within the day."""
    query = select(func.count()).where(
        Swipe.member_id == member_id,
        Swipe.liked.is_(True),
        Swipe.created_at >= day.start,
        Swipe.created_at < day.end,
    )
    return db.exec(query).one()


def record_swipe(
    db: Session, member_id: int, other_id: int, liked: bool, limit: int | None, now: datetime
) -> None:
    """Store the decision made `now`; a like past `limit` for the day (`day_of(now)`) raises
    SwipeLimitReached (the member's lock makes two tabs swiping at once count each other's).
    A like keeps its day on the member."""
    advisory_lock(db, f"swipe:{member_id}")
    if liked:
        day = day_of(db, member_id, now)
        if limit is not None and likes_on(db, member_id, day) >= limit:
            raise SwipeLimitReached(member_id)
        _keep_day(db, member_id, day)
    db.merge(Swipe(member_id=member_id, other_id=other_id, liked=liked, created_at=now))
    db.flush()


def undo_last_pass(db: Session, member_id: int) -> int | None:
    """Take back the member's newest decision when it was a pass; the member it concerned."""
    last = db.exec(
        select(Swipe).where(Swipe.member_id == member_id).order_by(Swipe.created_at.desc())
    ).first()
    if last is None or last.liked:
        return None
    db.exec(delete(Swipe).where(Swipe.member_id == member_id, Swipe.other_id == last.other_id))
    return last.other_id


def swipe_stack(
    db: Session, member_id: int, today: date, limit: int, skip: Sequence[int] = ()
) -> list[MemberTile]:
    """Members to swipe on: listed to the member, of the sex they look for, with a main
    photo, not yet liked or decided on, newest first; `skip` the ones the browser holds."""
    seeker = db.get(Profile, member_id)
    if seeker is None:
        return []
    decided = select(Swipe.other_id).where(Swipe.member_id == member_id)
    liked = select(Like.liked_id).where(Like.liker_id == member_id)
    query = (
        tile_select()
        .where(
            listed_to(member_id),
            Profile.member_id != member_id,
            Profile.main_photo_id.is_not(None),
            Profile.gender.in_(sought_genders(seeker.gender, seeker.sexuality)),
            Profile.member_id.not_in(decided),
            Profile.member_id.not_in(liked),
            Profile.member_id.not_in(list(skip)),
        )
        .order_by(Member.signup_date.desc(), Member.id.desc())
        .limit(limit)
    )
    return [to_tile(row, today) for row in db.exec(query)]
