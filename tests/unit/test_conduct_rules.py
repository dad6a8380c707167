"""The numbered rules of conduct a decision cites, the console's labels of every moderation
value, and the decision form's accepted values."""

import pytest

from models.conduct_rules import CONDUCT_RULES, conduct_rule
from models.decision_form import appeal_answer, decision_form
from models.moderation import (
    AppealStatus,
    CaseStatus,
    ContentType,
    GroundType,
    Measure,
    ReportCategory,
    ReportSource,
)
from models.moderation_labels import (
    APPEAL_STATUS_LABELS,
    CASE_STATUS_LABELS,
    CATEGORY_LABELS,
    CONTENT_LABELS,
    GROUND_TYPE_LABELS,
    MEASURE_LABELS,
    SOURCE_LABELS,
)
from translations.catalog import gettext


def test_rules_are_numbered_from_one_without_gaps_and_translated():
    assert [rule.number for rule in CONDUCT_RULES] == list(range(1, len(CONDUCT_RULES) + 1))
    assert conduct_rule(" 3 ") is CONDUCT_RULES[2] and conduct_rule("0") is None
    for rule in CONDUCT_RULES:
        assert gettext("de", rule.title) != rule.title


@pytest.mark.parametrize(
    ("labels", "vocabulary"),
    [
        (CATEGORY_LABELS, ReportCategory),
        (CONTENT_LABELS, ContentType),
        (SOURCE_LABELS, ReportSource),
        (MEASURE_LABELS, Measure),
        (GROUND_TYPE_LABELS, GroundType),
        (CASE_STATUS_LABELS, CaseStatus),
        (APPEAL_STATUS_LABELS, AppealStatus),
    ],
)
def test_every_value_has_a_label(labels: dict, vocabulary) -> None:
    assert set(labels) == {value.value for value in vocabulary}


def test_the_decision_form_keeps_what_the_decision_needs():
    suspend = decision_form({"measure": "suspend", "days": "7", "rule": "5", "facts": " Rude "})
    assert (suspend.measure, suspend.days, suspend.ground, suspend.facts) == (
        "suspend",
        7,
        "5",
        "Rude",
    )
    law = decision_form(
        {"measure": "ban", "ground_type": "law", "law": "§ 184b StGB", "facts": "x"}
    )
    assert (law.ground_type, law.ground, law.days) == ("law", "§ 184b StGB", None)
    assert appeal_answer({"outcome": "reverse", "answer": "Sorry"}) == (True, "Sorry")
    assert appeal_answer({"outcome": "anything", "answer": "No"}) == (False, "No")
