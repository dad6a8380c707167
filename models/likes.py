"""Likes between members: given, received (new until the liker's profile is opened), automatic,
and matches: two members who like each other. A match is told to both at once, so a like that
made one is kept: it ends only with a block (`drop_like`), which is a deliberate act."""

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import ColumnElement, Index, Select, and_, case, exists, func, or_, update
from sqlalchemy.orm import aliased
from sqlmodel import Field, Session, SQLModel, select

from models.db import advisory_lock
from models.directory import TILE_WIDTH, MemberTile, tile_select, to_tile
from models.email_tokens import EmailToken, Purpose
from models.member import Member, MemberStatus, Profile, utcnow
from models.search import sought_genders
from models.upsert import insert_into
from models.visibility import can_contact, shown_to

AUTO_LIKE_GRACE = timedelta(minutes=30)  # after confirming the address, before the first
AUTO_LIKE_GAPS = (timedelta(hours=5), timedelta(hours=14), timedelta(hours=24))  # then daily
AUTO_LIKE_AGE_SPREAD = timedelta(days=3653)  # about ten years either side of the member's age
AUTO_LIKE_CANDIDATES = 50


class Like(SQLModel, table=True):
    __table_args__ = (Index("ix_like_received", "liked_id", "is_new", "created_at"),)

    liker_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    liked_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)
    is_new: bool = True  # until the liked member opens the liker's profile
    announced: bool = False  # the new-like modal has shown it
    automatic: bool = False
    matched_at: datetime | None = None  # both like each other since (set on both rows)
    match_announced: bool = False  # the liker of this row has seen "It's a match!"


@dataclass(frozen=True)
class LikeTile:
    member: MemberTile
    is_new: bool
    liked_at: datetime
    liked: bool  # the list's owner likes this member (always so among the given likes)


class CannotLike(Exception):
    """The member is gone, hidden, blocked or the liker themselves."""


class MatchKept(Exception):
    """The like made a match the other member was told of: only a block ends it."""


def like_member(db: Session, liker_id: int, liked_id: int) -> bool:
    """Like once; True when this call created the like."""
    if not can_contact(db, liker_id, liked_id):
        raise CannotLike(liked_id)
    # One statement, so two likes at once (two tabs, a double tap) neither fail nor double.
    fresh = Like(liker_id=liker_id, liked_id=liked_id)
    created = db.exec(
        insert_into(db, Like)
        .values(fresh.model_dump())
        .on_conflict_do_nothing(index_elements=["liker_id", "liked_id"])
        .returning(Like.liker_id)
    ).first()
    db.flush()
    return created is not None


def _pair(member_a: int, member_b: int) -> ColumnElement[bool]:
    """Both likes between two members, either way round."""
    return or_(
        and_(Like.liker_id == member_a, Like.liked_id == member_b),
        and_(Like.liker_id == member_b, Like.liked_id == member_a),
    )


def match_if_mutual(db: Session, liker_id: int, liked_id: int, now: datetime) -> bool:
    """After liker likes liked: True when liked likes liker too, and both likes become a match
    (the pair's lock makes two members liking each other at once find each other's like)."""
    advisory_lock(db, f"like:{min(liker_id, liked_id)}:{max(liker_id, liked_id)}")
    pair = _pair(liker_id, liked_id)
    if db.exec(select(func.count()).select_from(Like).where(pair)).one() < 2:
        return False
    # announced: the match modal, not the new-like modal, tells of the like that made it
    db.exec(
        update(Like).where(pair, Like.matched_at.is_(None)).values(matched_at=now, announced=True)
    )
    return True


def drop_like(db: Session, liker_id: int, liked_id: int, *, ending_match: bool = False) -> bool:
    """Remove the like within the caller's transaction; True when there was one. A like that
    made a match raises MatchKept unless `ending_match` (a block); the other side's like then
    stays, no longer a match."""
    like = db.get(Like, (liker_id, liked_id))
    if like is None:
        return False
    if like.matched_at is not None:
        if not ending_match:
            raise MatchKept(liked_id)
        db.exec(
            update(Like)
            .where(Like.liker_id == liked_id, Like.liked_id == liker_id)
            .values(matched_at=None, match_announced=False)
        )
    db.delete(like)
    return True


def likes(db: Session, liker_id: int | None, liked_id: int) -> bool:
    return liker_id is not None and db.get(Like, (liker_id, liked_id)) is not None


def received_likes(
    db: Session, member_id: int, today: date, limit: int, offset: int = 0
) -> list[LikeTile]:
    """Who liked the member: new ones first, then the latest; each says whether the member
    likes them back (in the same statement, so a page costs one query however long)."""
    back = aliased(Like)
    liked_back = exists().where(back.liker_id == member_id, back.liked_id == Like.liker_id)
    query = (
        tile_select(Like.is_new, Like.created_at, liked_back)
        .join(Like, Like.liker_id == Profile.member_id)
        .where(Like.liked_id == member_id, shown_to(member_id))
        .order_by(Like.is_new.desc(), Like.created_at.desc(), Like.liker_id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [LikeTile(to_tile(row, today), *row[TILE_WIDTH:]) for row in db.exec(query)]


def given_likes(
    db: Session, member_id: int, today: date, limit: int, offset: int = 0
) -> list[LikeTile]:
    query = (
        tile_select(Like.created_at)
        .join(Like, Like.liked_id == Profile.member_id)
        .where(Like.liker_id == member_id, shown_to(member_id))
        .order_by(Like.created_at.desc(), Like.liked_id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [LikeTile(to_tile(row, today), False, row[TILE_WIDTH], True) for row in db.exec(query)]


def matches(
    db: Session, member_id: int, today: date, limit: int, offset: int = 0
) -> list[LikeTile]:
    """The members the member matched with, the newest match first."""
    query = (
        tile_select(Like.matched_at)
        .join(Like, Like.liked_id == Profile.member_id)
        .where(Like.liker_id == member_id, Like.matched_at.is_not(None), shown_to(member_id))
        .order_by(Like.matched_at.desc(), Like.liked_id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [LikeTile(to_tile(row, today), False, row[TILE_WIDTH], True) for row in db.exec(query)]


def unannounced_match(db: Session, member_id: int, today: date) -> MemberTile | None:
    """The newest match the member has not been shown yet; showing it marks it."""
    query = (
        tile_select(Like.liked_id)
        .join(Like, Like.liked_id == Profile.member_id)
        .where(
            Like.liker_id == member_id,
            Like.matched_at.is_not(None),
            Like.match_announced.is_(False),
            shown_to(member_id),
        )
        .order_by(Like.matched_at.desc())
        .limit(1)
    )
    row = db.exec(query).first()
    if row is None:
        return None
    db.exec(
        update(Like)
        .where(Like.liker_id == member_id, Like.liked_id == row[TILE_WIDTH])
        .values(match_announced=True)
    )
    return to_tile(row, today)


def _new_from_shown(member_id: int | ColumnElement[int]) -> ColumnElement[bool]:
    return and_(Like.liked_id == member_id, Like.is_new.is_(True), shown_to(member_id))


def new_like_count_query(member_id: int | ColumnElement[int]) -> Select:
    """SQL counting the member's new likes from members still shown."""
    return (
        select(func.count())
        .select_from(Like)
        .join(Member, Member.id == Like.liker_id)
        .join(Profile, Profile.member_id == Like.liker_id)
        .where(_new_from_shown(member_id))
    )


def new_like_count(db: Session, member_id: int) -> int:
    return db.exec(new_like_count_query(member_id)).one()


def mark_seen(db: Session, member_id: int, liker_id: int) -> bool:
    """The member opened the liker's profile: the like is no longer new. True when it was."""
    result = db.exec(
        update(Like)
        .where(Like.liker_id == liker_id, Like.liked_id == member_id, Like.is_new.is_(True))
        .values(is_new=False, announced=True)
    )
    db.flush()
    return result.rowcount > 0


def unannounced_like(db: Session, member_id: int, today: date) -> MemberTile | None:
    """The newest new like the like modal has not shown yet; showing it marks it."""
    query = (
        tile_select(Like.liker_id)
        .join(Like, Like.liker_id == Profile.member_id)
        .where(_new_from_shown(member_id), Like.announced.is_(False))
        .order_by(Like.created_at.desc())
        .limit(1)
    )
    row = db.exec(query).first()
    if row is None:
        return None
    liker_id = row[TILE_WIDTH]
    db.exec(
        update(Like)
        .where(Like.liker_id == liker_id, Like.liked_id == member_id)
        .values(announced=True)
    )
    db.flush()
    return to_tile(row, today)


@dataclass(frozen=True)
class Seeker:
    """What an automatic like for the member depends on."""

    gender: str
    sexuality: str
    date_of_birth: date
    country: str
    active_since: datetime  # when the address was confirmed (the signup when unknown)
    automatic_likes: int
    last_automatic: datetime | None


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _seeker(db: Session, member_id: int) -> Seeker | None:
    """The member's wishes and automatic likes so far, for an active member with a profile."""
    confirmed = (
        select(func.max(EmailToken.used_at))
        .where(EmailToken.member_id == member_id, EmailToken.purpose == Purpose.ACTIVATE.value)
        .scalar_subquery()
    )
    automatic = and_(Like.liked_id == member_id, Like.automatic.is_(True))
    query = select(
        Profile.gender,
        Profile.sexuality,
        Profile.date_of_birth,
        Profile.country,
        func.coalesce(confirmed, Member.signup_date),
        select(func.count()).select_from(Like).where(automatic).scalar_subquery(),
        select(func.max(Like.created_at)).where(automatic).scalar_subquery(),
    ).join(Member, Member.id == Profile.member_id)
    query = query.where(Profile.member_id == member_id, Member.status == MemberStatus.ACTIVE)
    row = db.exec(query).first()
    if row is None:
        return None
    gender, sexuality, born, country, since, count, last = row
    if isinstance(since, str):  # SQLite hands COALESCE back untyped
        since = datetime.fromisoformat(since)
    return Seeker(
        gender, sexuality, born, country, _utc(since), count, _utc(last) if last else None
    )


def auto_like_due(seeker: Seeker) -> datetime:
    """When the next automatic like may come: a new member looks around undisturbed first, then
    the likes come more often in the first days and one a day after that."""
    earliest = seeker.active_since + AUTO_LIKE_GRACE
    if seeker.last_automatic is None:
        return earliest
    gap = AUTO_LIKE_GAPS[min(seeker.automatic_likes, len(AUTO_LIKE_GAPS)) - 1]
    return max(earliest, seeker.last_automatic + gap)


def auto_like(db: Session, member_id: int, now: datetime, rng: random.Random) -> MemberTile | None:
    """A like from a demo profile who fits what the member looks for (gender, about their age,
    their country first), when one is due (`auto_like_due`). Only for active members: a new
    member confirms their address first, which the activation reminder asks."""
    seeker = _seeker(db, member_id)
    if seeker is None or now < auto_like_due(seeker):
        return None
    already = select(Like.liker_id).where(Like.liked_id == member_id)
    query = (
        tile_select()
        .where(
            shown_to(member_id),
            Member.is_demo.is_(True),
            Member.invisible.is_(False),
            Profile.main_photo_id.is_not(None),
            Profile.gender.in_(sought_genders(seeker.gender, seeker.sexuality)),
            Profile.date_of_birth.between(
                seeker.date_of_birth - AUTO_LIKE_AGE_SPREAD,
                seeker.date_of_birth + AUTO_LIKE_AGE_SPREAD,
            ),
            Profile.member_id.not_in(already),
        )
        .order_by(case((Profile.country == seeker.country, 0), else_=1), Member.signup_date.desc())
        .limit(AUTO_LIKE_CANDIDATES)
    )
    tiles = [to_tile(row, now.date()) for row in db.exec(query)]
    if not tiles:
        return None
    liker = rng.choice([tile for tile in tiles if tile.country == seeker.country] or tiles)
    db.add(  # announced: the caller shows it at once
        Like(
            liker_id=liker.id,
            liked_id=member_id,
            automatic=True,
            announced=True,
            created_at=now,
        )
    )
    db.flush()
    return liker


@dataclass(frozen=True)
class Announcement:
    liker: MemberTile
    automatic: bool


def _announcement_due(db: Session, member_id: int, now: datetime) -> tuple[bool, bool]:
    """(a new like may wait to be announced, an automatic like may come): one statement, so a
    page load without either costs no more."""
    waiting = exists().where(
        Like.liked_id == member_id, Like.is_new.is_(True), Like.announced.is_(False)
    )
    # a cheap first sieve; auto_like decides on the schedule
    may_be_due = exists().where(
        Member.id == member_id,
        Member.status == MemberStatus.ACTIVE,
        Member.signup_date <= now - AUTO_LIKE_GRACE,
        Profile.member_id == Member.id,
    )
    recent = exists().where(
        Like.liked_id == member_id,
        Like.automatic.is_(True),
        Like.created_at > now - AUTO_LIKE_GAPS[0],
    )
    return tuple(db.exec(select(waiting, and_(may_be_due, ~recent))).one())


def announcement(
    db: Session, member_id: int, now: datetime, rng: random.Random
) -> Announcement | None:
    """The newest like not yet announced, otherwise a fresh automatic like when one is due;
    both the modal and GET /api/auto-like.php show what this returns."""
    waiting, auto_due = _announcement_due(db, member_id, now)
    tile = unannounced_like(db, member_id, now.date()) if waiting else None
    if tile is not None:
        return Announcement(tile, automatic=False)
    tile = auto_like(db, member_id, now, rng) if auto_due else None
    return Announcement(tile, automatic=True) if tile is not None else None
