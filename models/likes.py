"""Likes between members: given, received (new until the liker's profile is opened), automatic."""

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import ColumnElement, Index, Select, and_, exists, func, update
from sqlalchemy.orm import aliased
from sqlmodel import Field, Session, SQLModel, select

from models.directory import TILE_WIDTH, MemberTile, tile_select, to_tile
from models.member import Member, MemberStatus, Profile, utcnow
from models.search import sought_genders
from models.upsert import insert_into
from models.visibility import can_contact, shown_to

AUTO_LIKE_INTERVAL = timedelta(hours=24)
AUTO_LIKE_CANDIDATES = 50


class Like(SQLModel, table=True):
    __table_args__ = (Index("ix_like_received", "liked_id", "is_new", "created_at"),)

    liker_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    liked_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)
    is_new: bool = True  # until the liked member opens the liker's profile
    announced: bool = False  # the new-like modal has shown it
    automatic: bool = False


@dataclass(frozen=True)
class LikeTile:
    member: MemberTile
    is_new: bool
    liked_at: datetime
    liked: bool  # the list's owner likes this member (always so among the given likes)


class CannotLike(Exception):
    """The member is gone, hidden, blocked or the liker themselves."""


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


def drop_like(db: Session, liker_id: int, liked_id: int) -> bool:
    """Remove the like within the caller's transaction; True when there was one."""
    like = db.get(Like, (liker_id, liked_id))
    if like is not None:
        db.delete(like)
    return like is not None


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


def _recent_auto_like(member_id: int, now: datetime) -> ColumnElement[bool]:
    return exists().where(
        Like.liked_id == member_id,
        Like.automatic.is_(True),
        Like.created_at > now - AUTO_LIKE_INTERVAL,
    )


def _seeker(db: Session, member_id: int, now: datetime) -> tuple[str, str] | None:
    """The member's gender and sexuality when an automatic like may come now: an active member
    with a profile and no automatic like within the interval."""
    query = (
        select(Profile.gender, Profile.sexuality)
        .join(Member, Member.id == Profile.member_id)
        .where(
            Profile.member_id == member_id,
            Member.status == MemberStatus.ACTIVE,
            ~_recent_auto_like(member_id, now),
        )
    )
    return db.exec(query).first()


def auto_like(db: Session, member_id: int, now: datetime, rng: random.Random) -> MemberTile | None:
    """A like from a demo profile the member may fancy, at most one per interval. Only for active
    members: a new member confirms their address first, which the activation reminder asks."""
    seeker = _seeker(db, member_id, now)
    if seeker is None:
        return None
    already = select(Like.liker_id).where(Like.liked_id == member_id)
    query = (
        tile_select()
        .where(
            shown_to(member_id),
            Member.is_demo.is_(True),
            Member.invisible.is_(False),
            Profile.main_photo_id.is_not(None),
            Profile.gender.in_(sought_genders(*seeker)),
            Profile.member_id.not_in(already),
        )
        .order_by(Member.signup_date.desc())
        .limit(AUTO_LIKE_CANDIDATES)
    )
    rows = db.exec(query).all()
    if not rows:
        return None
    liker = to_tile(rng.choice(rows), now.date())
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
    active = exists().where(
        Member.id == member_id,
        Member.status == MemberStatus.ACTIVE,
        Profile.member_id == Member.id,
    )
    return tuple(db.exec(select(waiting, and_(active, ~_recent_auto_like(member_id, now)))).one())


def announcement(
    db: Session, member_id: int, now: datetime, rng: random.Random
) -> Announcement | None:
    """The newest like not yet announced, otherwise a fresh automatic like (at most one per
    interval); both the modal and GET /api/auto-like.php show what this returns."""
    waiting, auto_due = _announcement_due(db, member_id, now)
    tile = unannounced_like(db, member_id, now.date()) if waiting else None
    if tile is not None:
        return Announcement(tile, automatic=False)
    tile = auto_like(db, member_id, now, rng) if auto_due else None
    return Announcement(tile, automatic=True) if tile is not None else None
