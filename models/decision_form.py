"""The console's decision and appeal forms as the browser sent them, checked and bounded: a
measure, its duration for a suspension, the ground (a rule of conduct's number, or the law
named) and the facts (required: the statement of reasons quotes them)."""

from dataclasses import dataclass

from models.account_errors import AccountError
from models.conduct_rules import conduct_rule
from models.decisions import DAYS_NEEDED
from models.moderation import SUSPENSION_DAYS, GroundType, Measure
from translations.catalog import N_

FACTS_LIMIT = 4000  # Decision.facts
LAW_LIMIT = 200  # Decision.ground
ANSWER_LIMIT = 4000  # Appeal.answer
CHOOSE_MEASURE = N_("Choose a measure.")
CHOOSE_RULE = N_("Choose the rule of our terms that was broken.")
NAME_LAW = N_("Name the law the content breaks.")
WRITE_FACTS = N_("Write the facts the decision rests on.")
WRITE_ANSWER = N_("Write the answer the appellant receives.")
TOO_LONG = N_("This text is too long.")


@dataclass(frozen=True)
class DecisionForm:
    measure: Measure
    days: int | None
    ground_type: GroundType
    ground: str  # a rule's number, or the law
    facts: str


def _text(form: dict, name: str, limit: int, missing: str) -> str:
    text = str(form.get(name) or "")[: limit + 1].strip()
    if not text:
        raise AccountError(missing, name)
    if len(text) > limit:
        raise AccountError(TOO_LONG, name)
    return text


def _choice(value: object, choices: type[Measure] | type[GroundType]) -> str | None:
    text = str(value or "")
    return text if text in {c.value for c in choices} else None


def _days(form: dict, measure: str) -> int | None:
    if measure != Measure.SUSPEND:
        return None
    days = str(form.get("days") or "")
    if not days.isdigit() or int(days) not in SUSPENSION_DAYS:
        raise AccountError(DAYS_NEEDED, "days")
    return int(days)


def _ground(form: dict, ground_type: str) -> str:
    if ground_type == GroundType.LAW:
        return _text(form, "law", LAW_LIMIT, NAME_LAW)
    rule = conduct_rule(str(form.get("rule") or "")[:4])
    if rule is None:
        raise AccountError(CHOOSE_RULE, "rule")
    return str(rule.number)


def decision_form(form: dict) -> DecisionForm:
    """The checked form; AccountError (field, msgid) for the first field that is wrong."""
    measure = _choice(form.get("measure"), Measure)
    if measure is None:
        raise AccountError(CHOOSE_MEASURE, "measure")
    ground_type = _choice(form.get("ground_type"), GroundType) or GroundType.TERMS
    return DecisionForm(
        measure=Measure(measure),
        days=_days(form, measure),
        ground_type=GroundType(ground_type),
        ground=_ground(form, ground_type),
        facts=_text(form, "facts", FACTS_LIMIT, WRITE_FACTS),
    )


def appeal_answer(form: dict) -> tuple[bool, str]:
    """(reverse, answer) of the appeal form."""
    return str(form.get("outcome") or "") == "reverse", _text(
        form, "answer", ANSWER_LIMIT, WRITE_ANSWER
    )
