"""The matchfinder's few questions: per question the member's own answer, the answers they hope
for from the other, and how much that matters (models/match_questions.py)."""

import reflex as rx

from components.i18n import t
from components.profile_fields import choice
from models.match_questions import IMPORTANCE_LABELS, QUESTIONS, Question
from state.matchfinder import MatchfinderState as M
from translations.catalog import N_


def _chips(caption: str, chips: list[rx.Component]) -> rx.Component:
    return rx.el.div(
        rx.el.span(t(caption), class_name="field-hint"),
        rx.el.div(*chips, class_name="chips"),
        class_name="question-row",
    )


def _importance(question: Question) -> rx.Component:
    return rx.el.label(
        rx.el.span(t("How much it matters"), class_name="field-hint"),
        rx.select.root(
            rx.select.trigger(width="100%", data_testid=f"importance-{question.key}"),
            rx.select.content(
                *(
                    rx.select.item(t(label), value=value)
                    for value, label in IMPORTANCE_LABELS.items()
                )
            ),
            value=M.importance[question.key],
            on_change=lambda level: M.set_importance(question.key, level),
            size="2",
        ),
        class_name="question-row question-importance",
    )


def _question(question: Question) -> rx.Component:
    key, answers = question.key, question.answers.items()
    mine = [
        choice(
            label,
            M.answers[key] == value,
            M.set_answer(key, value),
            f"answer-{key}-{value}",
            "chip",
        )
        for value, label in answers
    ]
    hoped = [
        choice(
            label,
            M.accepted[key].contains(value),
            M.toggle_accepted(key, value),
            f"accept-{key}-{value}",
            "chip",
        )
        for value, label in answers
    ]
    return rx.el.fieldset(
        rx.el.legend(t(question.text), class_name="field-label"),
        _chips(N_("My answer"), mine),
        _chips(N_("Answers I hope for"), hoped),
        _importance(question),
        class_name="match-question",
        data_testid=f"question-{key}",
    )


def match_questions() -> rx.Component:
    """The questions, folded away under their heading until the member opens them."""
    return rx.el.details(
        rx.el.summary(t("A few questions"), class_name="field-label"),
        rx.el.p(
            t("Optional. Only questions you both answer count, as much as each of you says."),
            class_name="field-hint",
        ),
        rx.el.div(*(_question(question) for question in QUESTIONS), class_name="match-questions"),
        class_name="match-questions-box",
        data_testid="match-questions",
    )
