"""Listing visible members for grids: one query with their main photos, newest first."""

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, select

from models.member import Member, Photo, Profile


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


def newest_members(
    db: Session, today: date, limit: int, offset: int = 0, exclude_id: int | None = None
) -> list[MemberTile]:
    query = (
        select(Profile, Member.paid_user, Photo.thumb_filename)
        .join(Member, Member.id == Profile.member_id)
        .outerjoin(Photo, Photo.id == Profile.main_photo_id)
        .where(Member.status == "active", Profile.status == "enabled")
        .order_by(Member.signup_date.desc(), Member.id.desc())
        .limit(limit)
        .offset(offset)
    )
    if exclude_id is not None:
        query = query.where(Member.id != exclude_id)
    return [
        MemberTile(
            id=profile.member_id,
            name=profile.name,
            age=age_on(profile.date_of_birth, today),
            city=profile.city or "",
            country=profile.country,
            thumb_filename=thumb,
            premium=paid,
        )
        for profile, paid, thumb in db.exec(query)
    ]
