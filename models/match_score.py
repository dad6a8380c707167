"""The matchfinder's score: how well two members fit, counted from both sides, worked out by
the database for every candidate so that a page of matches is one statement.

Each side's satisfaction is the weighted share of its wishes the other meets: the age range
(weight 3; outside it the share falls by a tenth per year), the place (weight 2: the same
region, or the same country), shared interests (weight 2, the share of the side's wished
interests the other has) and the few questions the other answered (models/match_questions.py:
each as much as the side says it matters). A member who stated no wishes is taken to want
someone about their own age (AGE_SPREAD years either side), in their own country, with their
own interests. The match is the geometric mean of both satisfactions, as OkCupid describes it:
it is the same seen from either side, and it is low when either side is poorly served.

One `satisfaction_parts` serves both sides: the viewer's wishes and person go in as bound
parameters, the candidate's as columns. Interests and questions are JSON as the tables keep
them (a list of interests; `stored_question_wishes`, whose "answer"s are the member's own).
That JSON is trusted as written, cleaned: a question's importance is "none" exactly when no
answer is hoped for, so the importance alone gives its weight."""

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from sqlalchemy import ColumnElement, and_, case, func, or_, select

from models.match_questions import IMPORTANCE, NOT_ANSWERED, QUESTION_KEYS, QuestionWishes
from models.sql_functions import json_contains, json_items

AGE_SPREAD = 10
AGE_WEIGHT, PLACE_WEIGHT, INTEREST_WEIGHT = 3.0, 2.0, 2.0
REGION, COUNTRY, ANYWHERE = "region", "country", "anywhere"
PLACES = (REGION, COUNTRY, ANYWHERE)
NOTHING: Mapping = MappingProxyType({})  # no questions, no answers


class Wishes(NamedTuple):
    min_age: int
    max_age: int
    place: str  # REGION, COUNTRY or ANYWHERE
    interests: tuple[str, ...]
    questions: QuestionWishes = NOTHING


class Person(NamedTuple):
    age: int
    country: str
    region: str | None
    interests: tuple[str, ...]


def default_wishes(person: Person, min_age: int, max_age: int) -> Wishes:
    """What a member who stated nothing is taken to look for."""
    return Wishes(
        max(min_age, person.age - AGE_SPREAD),
        min(max_age, person.age + AGE_SPREAD),
        COUNTRY,
        person.interests,
    )


def shared_interests(me: Person, wishes: Wishes, theirs: Sequence[str]) -> list[str]:
    """What `me` likes (their profile's interests and those they look for) that the other
    likes too (`theirs`), in `me`'s order."""
    mine = dict.fromkeys((*wishes.interests, *me.interests))
    return [interest for interest in mine if interest in theirs]


def percent_of(one_side: float, other_side: float) -> int:
    """The match in percent: the geometric mean of both sides' satisfactions."""
    return round(100 * math.sqrt(one_side * other_side))


class WishesSql(NamedTuple):
    """Wishes as SQL: bound parameters or columns."""

    min_age: ColumnElement[int]
    max_age: ColumnElement[int]
    place: ColumnElement[str]
    interests: ColumnElement  # a JSON list
    questions: ColumnElement  # JSON as stored_question_wishes makes it (NULL: none)


class PersonSql(NamedTuple):
    age: ColumnElement[int]
    country: ColumnElement[str]
    region: ColumnElement[str | None]
    interests: ColumnElement  # a JSON list
    answers: ColumnElement  # JSON as stored_question_wishes makes it (NULL: none)


class Parts(NamedTuple):
    """One side's satisfaction in the parts a statement works out once per candidate."""

    met: ColumnElement[float]  # the weight met of the age, the place and the questions
    weights: ColumnElement[float]  # the weight they count for
    interests: ColumnElement[float | None]  # the share of wished interests met; NULL: none


def default_wishes_sql(
    person: PersonSql, stated: WishesSql, min_age: ColumnElement[int], max_age: ColumnElement[int]
) -> WishesSql:
    """`stated` (columns of an outer-joined row), or `default_wishes` where there is no row."""
    none = stated.place.is_(None)
    youngest, oldest = person.age - AGE_SPREAD, person.age + AGE_SPREAD
    return WishesSql(
        case((none, case((youngest > min_age, youngest), else_=min_age)), else_=stated.min_age),
        case((none, case((oldest < max_age, oldest), else_=max_age)), else_=stated.max_age),
        func.coalesce(stated.place, COUNTRY),
        case((none, person.interests), else_=stated.interests),
        stated.questions,
    )


def _age_share(wishes: WishesSql, age: ColumnElement[int]) -> ColumnElement[float]:
    too_young, too_old = wishes.min_age - age, age - wishes.max_age
    distance = case((too_young > 0, too_young), (too_old > 0, too_old), else_=0)
    return case((distance >= AGE_SPREAD, 0.0), else_=1.0 - distance / float(AGE_SPREAD))


def _place_met(wishes: WishesSql, me: PersonSql, other: PersonSql) -> ColumnElement[float]:
    return case(
        (or_(wishes.place == ANYWHERE, me.country != other.country), 0.0),
        (wishes.place != REGION, PLACE_WEIGHT),
        (me.region == other.region, PLACE_WEIGHT),  # NULL regions are not the same region
        else_=PLACE_WEIGHT / 2,
    )


def _interests_share(wished: ColumnElement, theirs: ColumnElement) -> ColumnElement[float]:
    item = json_items(wished)
    held = case((json_contains(theirs, item), 1.0), else_=0.0)
    return select(func.avg(held)).scalar_subquery()  # NULL: nothing wished


def _questions(wishes: WishesSql, other: PersonSql) -> tuple[ColumnElement, ColumnElement]:
    """(weight met, weight asked) of the questions the other answered."""
    met = asked = 0.0
    for key in QUESTION_KEYS:
        importance = wishes.questions[(key, "importance")].as_string()
        weights = {name: value for name, value in IMPORTANCE.items() if value}
        weight = case(weights, value=importance, else_=0.0)
        answer = other.answers[(key, "answer")].as_string()
        answered = answer != NOT_ANSWERED  # NULL when unanswered or no row: not counted
        accepted = json_contains(wishes.questions[(key, "accepted")], answer)
        asked += case((answered, weight), else_=0.0)
        met += case((and_(answered, accepted), weight), else_=0.0)
    return met, asked


def satisfaction_parts(wishes: WishesSql, me: PersonSql, other: PersonSql) -> Parts:
    """How much of `me`'s wishes `other` meets, in parts for `satisfaction`."""
    questions_met, questions_asked = _questions(wishes, other)
    place_weight = case((wishes.place == ANYWHERE, 0.0), else_=PLACE_WEIGHT)
    return Parts(
        AGE_WEIGHT * _age_share(wishes, other.age) + _place_met(wishes, me, other) + questions_met,
        AGE_WEIGHT + place_weight + questions_asked,
        _interests_share(wishes.interests, other.interests),
    )


def satisfaction(parts: Parts) -> ColumnElement[float]:
    """The satisfaction from 0 to 1: interests count only when some were wished for."""
    with_interests = (parts.met + INTEREST_WEIGHT * parts.interests) / (
        parts.weights + INTEREST_WEIGHT
    )
    return func.coalesce(with_interests, parts.met / parts.weights)
