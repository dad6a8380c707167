"""The matchfinder: what a member looks for (age range, place, interests), kept per member, and
the members ranked by the two-sided match (models/match_score.py).

One statement per page: the newest CANDIDATES members who pass both sides' hard rules (each
seeks the other's sex, the viewer's age range and place, listed to the viewer) come with their
own wishes (left join); they are scored and ranked here."""

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import JSON, Column, ColumnElement, Select, and_, or_
from sqlmodel import Field, Session, SQLModel

from models.directory import TILE_WIDTH, MemberTile, age_on, tile_select, to_tile
from models.match_score import (
    ANYWHERE,
    PLACES,
    REGION,
    Person,
    Wishes,
    default_wishes,
    percent_of,
    satisfaction,
    shared_interests,
)
from models.member import Profile, utcnow
from models.search import MAX_AGE, age_range, sought_genders, years_before
from models.visibility import listed_profiles_to

CANDIDATES = 300  # newest members past the hard rules that a page ranks
INTERESTS_MAX = 5
FITS_THEM = 0.8  # their satisfaction from which "you fit what they look for" is a reason


class MatchPreference(SQLModel, table=True):
    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    min_age: int
    max_age: int
    place: str = Field(max_length=10)
    interests: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    updated_at: datetime = Field(default_factory=utcnow)


@dataclass(frozen=True)
class Match:
    member: MemberTile
    percent: int
    shared: list[str]  # interests the viewer likes or looks for that the member has
    same_region: bool
    same_country: bool
    fits_them: bool  # the viewer meets most of what the other looks for


def clean_wishes(raw: dict, interests: list[str], min_age: int) -> Wishes:
    """Wishes from the browser, made safe: ages in range and in order, known values only."""
    low, high = age_range(raw, min_age)
    place = raw.get("place") if raw.get("place") in PLACES else ANYWHERE
    chosen = raw.get("interests") if isinstance(raw.get("interests"), list) else []
    known = [interest for interest in interests if interest in chosen][:INTERESTS_MAX]
    return Wishes(low, high, place, tuple(known))


def person_of(profile: Profile, today: date) -> Person:
    return Person(
        age_on(profile.date_of_birth, today),
        profile.country,
        profile.region,
        tuple(profile.interests or ()),
    )


WISH_COLUMNS = (
    MatchPreference.min_age,
    MatchPreference.max_age,
    MatchPreference.place,
    MatchPreference.interests,
)


def _wishes_of(row: MatchPreference) -> Wishes:
    return Wishes(row.min_age, row.max_age, row.place, tuple(row.interests or ()))


def saved_wishes(db: Session, member_id: int) -> Wishes | None:
    row = db.get(MatchPreference, member_id)
    return _wishes_of(row) if row is not None else None


def save_wishes(db: Session, member_id: int, wishes: Wishes) -> None:
    row = db.get(MatchPreference, member_id) or MatchPreference(
        member_id=member_id, min_age=wishes.min_age, max_age=wishes.max_age, place=wishes.place
    )
    row.min_age, row.max_age, row.place = wishes.min_age, wishes.max_age, wishes.place
    row.interests, row.updated_at = list(wishes.interests), utcnow()
    db.add(row)
    db.flush()


def _born_between(wishes: Wishes, today: date) -> ColumnElement[bool]:
    """SQL: aged min_age to max_age today."""
    return and_(
        Profile.date_of_birth <= years_before(today, wishes.min_age),
        Profile.date_of_birth > years_before(today, wishes.max_age + 1),
    )


def _seeks(profile_gender: str) -> ColumnElement[bool]:
    """SQL: the candidate looks for someone of `profile_gender`."""
    return or_(
        Profile.sexuality == "bi",
        and_(Profile.sexuality.in_(("gay", "lesbian")), Profile.gender == profile_gender),
        and_(Profile.sexuality == "hetero", Profile.gender != profile_gender),
    )


def matches_select(viewer: Profile, wishes: Wishes, today: date) -> Select:
    """The newest CANDIDATES who pass both sides' hard rules, with their own wishes."""
    query = (
        tile_select(Profile.region, Profile.interests, *WISH_COLUMNS)
        .outerjoin(MatchPreference, MatchPreference.member_id == Profile.member_id)
        .where(
            listed_profiles_to(viewer.member_id),  # the search's indexes serve this
            Profile.member_id != viewer.member_id,
            Profile.gender.in_(sought_genders(viewer.gender, viewer.sexuality)),
            _seeks(viewer.gender),
            _born_between(wishes, today),
        )
    )
    if wishes.place != ANYWHERE:
        query = query.where(Profile.country == viewer.country)
    if wishes.place == REGION and viewer.region:
        query = query.where(Profile.region == viewer.region)
    return query.order_by(Profile.signup_date.desc(), Profile.member_id.desc()).limit(CANDIDATES)


def ranked_matches(
    db: Session, viewer: Profile, wishes: Wishes, today: date, limit: int, site_min_age: int
) -> list[Match]:
    """The best `limit` matches among the newest CANDIDATES who pass the hard rules."""
    me = person_of(viewer, today)
    rows = db.exec(matches_select(viewer, wishes, today))
    matches = [_scored(row, me, wishes, today, site_min_age) for row in rows]
    matches.sort(key=lambda match: (-match.percent, -match.member.id))
    return matches[:limit]


def _scored(row, me: Person, wishes: Wishes, today: date, site_min_age: int) -> Match:
    tile = to_tile(row, today)
    region, interests, min_age, max_age, place, wished = row[TILE_WIDTH:]
    them = Person(tile.age, tile.country, region, tuple(interests or ()))
    theirs = (
        Wishes(min_age, max_age, place, tuple(wished or ()))
        if place is not None
        else default_wishes(them, site_min_age, MAX_AGE)
    )
    same_country = me.country == them.country
    served = satisfaction(theirs, them, me)  # how well the viewer serves them
    return Match(
        member=tile,
        percent=percent_of(satisfaction(wishes, me, them), served),
        shared=shared_interests(me, wishes, them),
        same_region=same_country and me.region is not None and me.region == them.region,
        same_country=same_country,
        fits_them=served >= FITS_THEM,
    )
