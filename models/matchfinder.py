"""The matchfinder: what a member looks for (age range, place, interests, the few questions),
kept per member, and the members ranked by the two-sided match (models/match_score.py).

One statement per page: the newest CANDIDATES members who pass both sides' hard rules (each
seeks the other's sex, the viewer's age range and place, listed to the viewer) come with their
own wishes (left join); they are scored and ranked here."""

import heapq
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

from sqlalchemy import JSON, Column, ColumnElement, Row, Select, and_, or_
from sqlmodel import Field, Session, SQLModel

from models.directory import TILE_WIDTH, MemberTile, age_on, tile_select, to_tile
from models.match_questions import (
    QuestionWishes,
    agreed_questions,
    answers_of,
    clean_question_wishes,
    stored_question_wishes,
)
from models.match_score import (
    ANYWHERE,
    NOTHING,
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
    questions: dict = Field(default_factory=dict, sa_column=Column(JSON))  # stored_question_wishes
    updated_at: datetime = Field(default_factory=utcnow)


@dataclass(frozen=True)
class Match:
    member: MemberTile
    percent: int
    shared: list[str]  # interests the viewer likes or looks for that the member has
    agreed: list[str]  # questions whose answers suit both (models/match_questions.py)
    same_region: bool
    same_country: bool
    fits_them: bool  # the viewer meets most of what the other looks for


def clean_wishes(raw: dict, interests: list[str], min_age: int) -> Wishes:
    """Wishes from the browser, made safe: ages in range and in order, known values only."""
    low, high = age_range(raw, min_age)
    place = raw.get("place") if raw.get("place") in PLACES else ANYWHERE
    chosen = raw.get("interests") if isinstance(raw.get("interests"), list) else []
    known = [interest for interest in interests if interest in chosen][:INTERESTS_MAX]
    return Wishes(low, high, place, tuple(known), clean_question_wishes(raw.get("questions")))


def person_of(profile: Profile, today: date, questions: QuestionWishes) -> Person:
    """The member as others' wishes see them, with their own answers to the questions."""
    return Person(
        age_on(profile.date_of_birth, today),
        profile.country,
        profile.region,
        tuple(profile.interests or ()),
        answers_of(questions),
    )


WISH_COLUMNS = (
    MatchPreference.min_age,
    MatchPreference.max_age,
    MatchPreference.place,
    MatchPreference.interests,
    MatchPreference.questions,
)


def _wishes_of(row: MatchPreference) -> Wishes:
    questions = clean_question_wishes(row.questions)
    return Wishes(row.min_age, row.max_age, row.place, tuple(row.interests or ()), questions)


def saved_wishes(db: Session, member_id: int) -> Wishes | None:
    row = db.get(MatchPreference, member_id)
    return _wishes_of(row) if row is not None else None


def save_wishes(db: Session, member_id: int, wishes: Wishes) -> None:
    row = db.get(MatchPreference, member_id) or MatchPreference(
        member_id=member_id, min_age=wishes.min_age, max_age=wishes.max_age, place=wishes.place
    )
    row.min_age, row.max_age, row.place = wishes.min_age, wishes.max_age, wishes.place
    row.interests, row.updated_at = list(wishes.interests), utcnow()
    row.questions = stored_question_wishes(wishes.questions)
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


class _Candidate(NamedTuple):
    row: Row
    person: Person
    wishes: Wishes
    percent: int
    served: float  # how well the viewer meets the candidate's wishes


def ranked_matches(
    db: Session, viewer: Profile, wishes: Wishes, today: date, limit: int, site_min_age: int
) -> list[Match]:
    """The best `limit` matches among the newest CANDIDATES who pass the hard rules. Only the
    score is worked out for every candidate; the cards and reasons only for those shown."""
    me = person_of(viewer, today, wishes.questions)
    rows = db.connection().execute(matches_select(viewer, wishes, today)).all()  # no ORM
    candidates = [_candidate(row, me, wishes, today, site_min_age) for row in rows]
    best = heapq.nsmallest(limit, candidates, key=lambda c: (-c.percent, -c.row[0]))
    return [_match(candidate, me, wishes, today) for candidate in best]


def _candidate(row: Row, me: Person, wishes: Wishes, today: date, site_min_age: int) -> _Candidate:
    born, country = row[2], row[4]  # TILE_COLUMNS: date_of_birth, country
    region, interests, min_age, max_age, place, wished, asked = row[TILE_WIDTH:]
    questions = clean_question_wishes(asked) if asked else NOTHING
    answers = answers_of(questions) if questions else NOTHING
    them = Person(age_on(born, today), country, region, tuple(interests or ()), answers)
    theirs = (
        Wishes(min_age, max_age, place, tuple(wished or ()), questions)
        if place is not None
        else default_wishes(them, site_min_age, MAX_AGE)
    )
    served = satisfaction(theirs, them, me)
    percent = percent_of(satisfaction(wishes, me, them), served)
    return _Candidate(row, them, theirs, percent, served)


def _match(candidate: _Candidate, me: Person, wishes: Wishes, today: date) -> Match:
    them = candidate.person
    same_country = me.country == them.country
    return Match(
        member=to_tile(candidate.row, today),
        percent=candidate.percent,
        shared=shared_interests(me, wishes, them),
        agreed=agreed_questions(wishes.questions, candidate.wishes.questions),
        same_region=same_country and me.region is not None and me.region == them.region,
        same_country=same_country,
        fits_them=candidate.served >= FITS_THEM,
    )
