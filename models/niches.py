"""Which members each lander niche shows: SQL filters on profile attributes (docs/acquisition.md,
"Niches and landers").

Only what a profile records is selected on: gender (male, female), sexuality (hetero, gay,
lesbian, bi), date of birth and body type (slim, athletic, average, curvy, large). Nothing records
a taste for BDSM or a trans identity, so the bdsm niche selects like the plain one and its wording
claims nothing of the kind, and she- means women looking for men."""

from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, and_, true

from models.lander_slug import PLAIN
from models.member import Profile
from models.search import years_before

WOMEN_FOR_MEN = ("hetero", "bi")  # a woman of these sexualities looks for men
MEN_FOR_MEN = ("gay", "bi")  # and a man of these (models.search.sought_genders)


@dataclass(frozen=True)
class NicheRule:
    gender: str | None = None  # None: any
    sexualities: tuple[str, ...] = ()  # (): any
    min_age: int = 0
    body_types: tuple[str, ...] = ()  # (): any


def _women(**rule) -> NicheRule:
    """Women looking for men: the landers of these niches invite men to write to them."""
    return NicheRule(gender="female", sexualities=WOMEN_FOR_MEN, **rule)


NICHE_RULES = {
    PLAIN: NicheRule(),
    "she": _women(),
    "bdsm": NicheRule(),  # no attribute records it: the plain selection, claiming nothing more
    "bbw": _women(body_types=("large",)),
    "gilf": _women(min_age=60),
    "milf": _women(min_age=40),
    "gay": NicheRule(gender="male", sexualities=MEN_FOR_MEN),
}


def niche_rule(niche: str) -> NicheRule:
    return NICHE_RULES.get(niche, NICHE_RULES[PLAIN])


def niche_filter(niche: str, today: date) -> ColumnElement[bool]:
    """SQL on `profile`: the members the niche shows (any niche unknown: everybody)."""
    rule = niche_rule(niche)
    clauses: list[ColumnElement[bool]] = [true()]
    if rule.gender:
        clauses.append(Profile.gender == rule.gender)
    if rule.sexualities:
        clauses.append(Profile.sexuality.in_(rule.sexualities))
    if rule.min_age:
        clauses.append(Profile.date_of_birth <= years_before(today, rule.min_age))
    if rule.body_types:
        clauses.append(Profile.body_type.in_(rule.body_types))
    return and_(*clauses)


@dataclass(frozen=True)
class NicheFacts:
    """What a profile records that niches select on."""

    gender: str
    sexuality: str
    born: date
    body_type: str | None


# The most particular niche first: a woman of 65 looking for men is gilf before milf and she.
MEMBER_NICHE_ORDER = ("gay", "gilf", "milf", "bbw", "she")


def fits_niche(niche: str, facts: NicheFacts, today: date) -> bool:
    """Whether `niche_filter(niche)` selects a profile of these facts."""
    rule = niche_rule(niche)
    return (
        (rule.gender is None or facts.gender == rule.gender)
        and (not rule.sexualities or facts.sexuality in rule.sexualities)
        and (not rule.min_age or facts.born <= years_before(today, rule.min_age))
        and (not rule.body_types or facts.body_type in rule.body_types)
    )


def member_niche(facts: NicheFacts, today: date) -> str:
    """The most particular niche that selects this member; the plain one when none does."""
    return next((n for n in MEMBER_NICHE_ORDER if fits_niche(n, facts, today)), PLAIN)
