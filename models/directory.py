"""Member tiles for grids and lists: one query per page with each member's main photo."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import Select
from sqlmodel import Session, select

from models.member import Member, Photo, Profile
from models.visibility import listed_to


@dataclass(frozen=True)
class MemberTile:
    id: int
    name: str
    age: int
    city: str
    country: str
    thumb_filename: str | None
    premium: bool


def age_on(born: date, today: date) -> int:
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


TILE_COLUMNS = (
    Profile.member_id,
    Profile.name,
    Profile.date_of_birth,
    Profile.city,
    Profile.country,
    Member.paid_user,
    Photo.thumb_filename,
)
TILE_WIDTH = len(TILE_COLUMNS)  # a row's columns after these are the caller's extra ones


def tile_select(*extra_columns) -> Select:
    """The columns of a member tile (plus `extra_columns`): only what a card shows, so a
    page of rows is cheap to fetch and to turn into tiles."""
    return (
        select(*TILE_COLUMNS, *extra_columns)
        .join(Member, Member.id == Profile.member_id)
        .outerjoin(Photo, Photo.id == Profile.main_photo_id)
    )


def to_tile(row: Sequence, today: date) -> MemberTile:
    """The tile of a `tile_select` row."""
    member_id, name, born, city, country, premium, thumb = row[:TILE_WIDTH]
    return MemberTile(
        id=member_id,
        name=name,
        age=age_on(born, today),
        city=city or "",
        country=country,
        thumb_filename=thumb,
        premium=premium,
    )


def newest_members(
    db: Session,
    today: date,
    limit: int,
    offset: int = 0,
    viewer_id: int | None = None,
    genders: Sequence[str] = (),
) -> list[MemberTile]:
    """The newest members with a main photo listed to the viewer; only of `genders` when it
    names any."""
    query = tile_select().where(listed_to(viewer_id), Profile.main_photo_id.is_not(None))
    if genders:
        query = query.where(Profile.gender.in_(genders))
    query = query.order_by(Member.signup_date.desc(), Member.id.desc()).limit(limit).offset(offset)
    return [to_tile(row, today) for row in db.exec(query)]


def member_tile(db: Session, member_id: int, today: date) -> MemberTile | None:
    row = db.exec(tile_select().where(Profile.member_id == member_id)).first()
    return to_tile(row, today) if row is not None else None
