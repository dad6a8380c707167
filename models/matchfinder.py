"""The matchfinder: what a member looks for (age range, place, interests, the few questions),
kept per member, and the members ranked by the two-sided match (models/match_score.py).

One statement per page: the newest CANDIDATES members who pass both sides' hard rules (each
seeks the other's sex, the viewer's age range and place, listed to the viewer) are scored from
both sides with their own wishes (left join) by the database, which returns the best of them;
only the cards and the reasons are made here."""

from dataclasses import dataclass
from datetime import date, datetime
from functools import cache

from sqlalchemy import (
    JSON,
    BindParameter,
    Column,
    ColumnElement,
    Date,
    Integer,
    Label,
    Row,
    Select,
    String,
    and_,
    bindparam,
    or_,
    select,
)
from sqlalchemy.sql.base import ReadOnlyColumnCollection
from sqlalchemy.sql.expression import Subquery
from sqlalchemy.types import TypeEngine
from sqlmodel import Field, Session, SQLModel

from models.directory import TILE_WIDTH, MemberTile, age_on, tile_select, to_tile
from models.match_questions import (
    agreed_questions,
    clean_question_wishes,
    stored_question_wishes,
)
from models.match_score import (
    ANYWHERE,
    COUNTRY,
    PLACES,
    REGION,
    Parts,
    Person,
    PersonSql,
    Wishes,
    WishesSql,
    default_wishes_sql,
    percent_of,
    satisfaction,
    satisfaction_parts,
    shared_interests,
)
from models.member import Profile, utcnow
from models.search import MAX_AGE, age_range, sought_genders, years_before
from models.sql_functions import parsed_json, years_between
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


def person_of(profile: Profile, today: date) -> Person:
    """The member as others' wishes see them."""
    return Person(
        age_on(profile.date_of_birth, today),
        profile.country,
        profile.region,
        tuple(profile.interests or ()),
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


def _shape(wishes: Wishes, viewer: Profile) -> str:
    """Which place the statement keeps to: all its text depends on."""
    if wishes.place == REGION and viewer.region:
        return REGION
    return ANYWHERE if wishes.place == ANYWHERE else COUNTRY


def _value(name: str, kind: TypeEngine | type[TypeEngine] = Integer) -> BindParameter:
    return bindparam(name, type_=kind)


def _hard_rules(shape: str) -> ColumnElement[bool]:
    """Both sides' hard rules: each seeks the other's sex, the viewer's ages and place, listed
    to the viewer."""
    rules = [
        listed_profiles_to(_value("viewer_id")),  # the search's indexes serve this
        Profile.gender.in_(bindparam("genders", expanding=True)),
        _seeks(_value("viewer_gender", String)),
        Profile.date_of_birth <= _value("youngest_birthday", Date),
        Profile.date_of_birth > _value("oldest_birthday", Date),
    ]
    if shape != ANYWHERE:
        rules.append(Profile.country == _value("country", String))
    if shape == REGION:
        rules.append(Profile.region == _value("region", String))
    return and_(*rules)


def _seeks(profile_gender: ColumnElement[str]) -> ColumnElement[bool]:
    """SQL: the candidate looks for someone of `profile_gender`."""
    return or_(
        Profile.sexuality == "bi",
        and_(Profile.sexuality.in_(("gay", "lesbian")), Profile.gender == profile_gender),
        and_(Profile.sexuality == "hetero", Profile.gender != profile_gender),
    )


VIEWER = PersonSql(
    _value("viewer_age"),
    _value("country", String),
    _value("region", String),
    _value("viewer_interests", JSON),
    _value("viewer_questions", JSON),
)
VIEWER_WISHES = WishesSql(
    _value("min_age"),
    _value("max_age"),
    _value("place", String),
    _value("wished_interests", JSON),
    _value("viewer_questions", JSON),
)


def _candidates(shape: str) -> Subquery:
    """The newest CANDIDATES past the hard rules with what the score reads, their JSON parsed
    once: the score looks into it many times."""
    return (
        tile_select(
            Profile.region,
            parsed_json(Profile.interests).label("interests"),
            parsed_json(MatchPreference.questions).label("questions"),
            years_between(Profile.date_of_birth, _value("today", Date)).label("age"),
            MatchPreference.min_age,
            MatchPreference.max_age,
            MatchPreference.place,
            parsed_json(MatchPreference.interests).label("wished_interests"),
        )
        .outerjoin(MatchPreference, MatchPreference.member_id == Profile.member_id)
        .where(_hard_rules(shape))
        .order_by(Profile.signup_date.desc(), Profile.member_id.desc())
        .limit(CANDIDATES)
        .subquery()
    )


def _candidate(columns: ReadOnlyColumnCollection) -> tuple[PersonSql, WishesSql]:
    """A candidate of `_candidates` as the score sees them, and what they look for."""
    person = PersonSql(
        columns.age, columns.country, columns.region, columns.interests, columns.questions
    )
    stated = WishesSql(
        columns.min_age,
        columns.max_age,
        columns.place,
        columns.wished_interests,
        columns.questions,
    )
    return person, default_wishes_sql(
        person, stated, _value("site_min_age"), _value("site_max_age")
    )


def _labelled(parts: Parts, side: str) -> list[Label]:
    return [part.label(f"{side}_{name}") for name, part in zip(Parts._fields, parts, strict=True)]


def _side(columns: ReadOnlyColumnCollection, side: str) -> ColumnElement[float]:
    return satisfaction(Parts(*(columns[f"{side}_{name}"] for name in Parts._fields)))


SHOWN = TILE_WIDTH + 3  # the tile, the region, the interests and the questions


@cache
def _statement(shape: str) -> Select:
    """The candidates, each side's satisfaction worked out once per candidate, ranked by the
    match: built once per shape, the values bound on each run."""
    candidates = _candidates(shape)
    person, wishes = _candidate(candidates.c)
    scored = (
        select(
            *list(candidates.c)[:SHOWN],
            *_labelled(satisfaction_parts(VIEWER_WISHES, VIEWER, person), "mine"),
            *_labelled(satisfaction_parts(wishes, person, VIEWER), "theirs"),
        )
        # Takes them all; a subquery with a LIMIT stays whole, so PostgreSQL does not copy
        # each part into both the ranking and the columns below, working it out twice.
        .limit(CANDIDATES)
        .subquery()
    )
    mine, theirs = _side(scored.c, "mine"), _side(scored.c, "theirs")
    return (
        select(*list(scored.c)[:SHOWN], mine, theirs)
        .order_by((mine * theirs).desc(), scored.c.member_id.desc())
        .limit(_value("limit"))
    )


def _values(
    viewer: Profile, me: Person, wishes: Wishes, today: date, limit: int, site_min_age: int
) -> dict:
    return {
        "viewer_id": viewer.member_id,
        "genders": sought_genders(viewer.gender, viewer.sexuality),
        "viewer_gender": viewer.gender,
        "youngest_birthday": years_before(today, wishes.min_age),
        "oldest_birthday": years_before(today, wishes.max_age + 1),
        "country": viewer.country,
        "region": viewer.region,
        "viewer_age": me.age,
        "viewer_interests": list(me.interests),
        "viewer_questions": stored_question_wishes(wishes.questions),
        "min_age": wishes.min_age,
        "max_age": wishes.max_age,
        "place": wishes.place,
        "wished_interests": list(wishes.interests),
        "today": today,
        "site_min_age": site_min_age,
        "site_max_age": MAX_AGE,
        "limit": limit,
    }


def _search(
    viewer: Profile, me: Person, wishes: Wishes, today: date, limit: int, site_min_age: int
) -> tuple[Select, dict]:
    """The statement for these wishes and the values it runs with."""
    values = _values(viewer, me, wishes, today, limit, site_min_age)
    return _statement(_shape(wishes, viewer)), values


def matches_select(
    viewer: Profile, wishes: Wishes, today: date, limit: int, site_min_age: int
) -> Select:
    """The statement `ranked_matches` runs, its values bound (bench/matchfinder.py times it
    raw too)."""
    statement, values = _search(
        viewer, person_of(viewer, today), wishes, today, limit, site_min_age
    )
    return statement.params(values)


def ranked_matches(
    db: Session, viewer: Profile, wishes: Wishes, today: date, limit: int, site_min_age: int
) -> list[Match]:
    """The best `limit` matches among the newest CANDIDATES who pass the hard rules."""
    me = person_of(viewer, today)
    statement, values = _search(viewer, me, wishes, today, limit, site_min_age)
    rows = db.connection().execute(statement, values).all()  # no ORM: plain rows
    return [_match(row, me, wishes, today) for row in rows]


def _match(row: Row, me: Person, wishes: Wishes, today: date) -> Match:
    region, interests, questions, mine, theirs = row[TILE_WIDTH:]
    tile = to_tile(row, today)
    same_country = me.country == tile.country
    return Match(
        member=tile,
        percent=percent_of(mine, theirs),
        shared=shared_interests(me, wishes, interests or ()),
        agreed=agreed_questions(wishes.questions, clean_question_wishes(questions)),
        same_region=same_country and me.region is not None and me.region == region,
        same_country=same_country,
        fits_them=theirs >= FITS_THEM,
    )
