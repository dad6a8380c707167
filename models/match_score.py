"""The matchfinder's score: how well two members fit, counted from both sides.

Each side's satisfaction is the weighted share of its wishes the other meets: the age range
(weight 3; outside it the share falls by a tenth per year), the place (weight 2: the same
region, or the same country), shared interests (weight 2, the share of the side's wished
interests the other has) and the few questions the other answered (models/match_questions.py:
each as much as the side says it matters). A member who stated no wishes is taken to want
someone about their own age (AGE_SPREAD years either side), in their own country, with their
own interests. The match is the geometric mean of both satisfactions, as OkCupid describes it:
it is the same seen from either side, and it is low when either side is poorly served."""

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from models.match_questions import QuestionWishes, questions_met

AGE_SPREAD = 10
AGE_WEIGHT, PLACE_WEIGHT, INTEREST_WEIGHT = 3.0, 2.0, 2.0
REGION, COUNTRY, ANYWHERE = "region", "country", "anywhere"
PLACES = (REGION, COUNTRY, ANYWHERE)
NOTHING: Mapping = MappingProxyType({})  # no questions, no answers


class Wishes(NamedTuple):  # a tuple: hundreds are made for each page of matches
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
    answers: Mapping[str, str] = NOTHING  # to the matchfinder's questions


def default_wishes(person: Person, min_age: int, max_age: int) -> Wishes:
    """What a member who stated nothing is taken to look for."""
    return Wishes(
        max(min_age, person.age - AGE_SPREAD),
        min(max_age, person.age + AGE_SPREAD),
        COUNTRY,
        person.interests,
    )


def _age_share(wishes: Wishes, age: int) -> float:
    distance = max(wishes.min_age - age, age - wishes.max_age, 0)
    return max(0.0, 1.0 - distance / AGE_SPREAD)


def _place_share(wishes: Wishes, me: Person, other: Person) -> float:
    same_country = me.country == other.country
    if wishes.place == REGION:
        same_region = same_country and me.region is not None and me.region == other.region
        return 1.0 if same_region else 0.5 if same_country else 0.0
    return 1.0 if same_country else 0.0


def satisfaction(wishes: Wishes, me: Person, other: Person) -> float:
    """How much of `me`'s wishes `other` meets, from 0 to 1."""
    met, weights = AGE_WEIGHT * _age_share(wishes, other.age), AGE_WEIGHT
    if wishes.place != ANYWHERE:
        met += PLACE_WEIGHT * _place_share(wishes, me, other)
        weights += PLACE_WEIGHT
    if wishes.interests:
        shared = sum(1 for interest in wishes.interests if interest in other.interests)
        met += INTEREST_WEIGHT * shared / len(wishes.interests)
        weights += INTEREST_WEIGHT
    if wishes.questions:
        met_by_answers, asked = questions_met(wishes.questions, other.answers)
        met, weights = met + met_by_answers, weights + asked
    return met / weights


def percent_of(one_side: float, other_side: float) -> int:
    """The match in percent: the geometric mean of both sides' satisfactions."""
    return round(100 * math.sqrt(one_side * other_side))


def match_percent(mine: Wishes, me: Person, theirs: Wishes, them: Person) -> int:
    """The match between two members in percent: the same whichever side asks."""
    return percent_of(satisfaction(mine, me, them), satisfaction(theirs, them, me))


def shared_interests(me: Person, wishes: Wishes, other: Person) -> list[str]:
    """What `me` likes (their profile's interests and those they look for) that `other` likes
    too, in `me`'s order."""
    mine = dict.fromkeys((*wishes.interests, *me.interests))
    return [interest for interest in mine if interest in other.interests]
