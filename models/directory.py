"""Member tiles for grids and lists: one query per page with each member's main photo."""

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


def tile_select(*extra_columns) -> Select:
    """Profile, premium flag and main thumbnail (plus `extra_columns`) of members."""
    return (
        select(Profile, Member.paid_user, Photo.thumb_filename, *extra_columns)
        .join(Member, Member.id == Profile.member_id)
        .outerjoin(Photo, Photo.id == Profile.main_photo_id)
    )


def to_tile(profile: Profile, premium: bool, thumb: str | None, today: date) -> MemberTile:
    return MemberTile(
        id=profile.member_id,
        name=profile.name,
        age=age_on(profile.date_of_birth, today),
        city=profile.city or "",
        country=profile.country,
        thumb_filename=thumb,
        premium=premium,
    )


def newest_members(
    db: Session, today: date, limit: int, offset: int = 0, viewer_id: int | None = None
) -> list[MemberTile]:
    query = (
        tile_select()
        .where(listed_to(viewer_id))
        .order_by(Member.signup_date.desc(), Member.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [to_tile(*row, today) for row in db.exec(query)]
