"""The ground and facts of a moderation decision, as a console form's fields: ground type, rule
of conduct or law, and facts; models/decision_form.py checks what they send."""

import reflex as rx

from components.forms import field_error, native_select_class
from components.i18n import t
from models.conduct_rules import CONDUCT_RULES
from models.decision_form import FACTS_LIMIT, LAW_LIMIT
from models.moderation import GroundType
from models.moderation_labels import GROUND_TYPE_LABELS
from translations.catalog import N_


def choice_field(
    label: str, name: str, options: rx.Component, errors: rx.Var[dict[str, str]]
) -> rx.Component:
    """A labelled native select named `name` (the form key and the error key)."""
    return rx.el.label(
        rx.el.span(t(label), class_name="field-label"),
        rx.el.select(options, name=name, id=f"field-{name}", class_name=native_select_class("2")),
        field_error(errors, name),
    )


def ground_fields(errors: rx.Var[dict[str, str]]) -> rx.Component:
    ground_types = rx.fragment(
        *(rx.el.option(t(GROUND_TYPE_LABELS[g]), value=g) for g in GroundType)
    )
    rules = rx.fragment(
        rx.el.option("—", value=""),
        *(rx.el.option(f"{r.number}. ", t(r.title), value=str(r.number)) for r in CONDUCT_RULES),
    )
    return rx.fragment(
        choice_field(N_("Ground"), "ground_type", ground_types, errors),
        choice_field(N_("Rule of our terms"), "rule", rules, errors),
        rx.el.label(
            rx.el.span(t(N_("The law broken (for illegal content)")), class_name="field-label"),
            rx.input(name="law", max_length=LAW_LIMIT),
            field_error(errors, "law"),
        ),
        rx.el.label(
            rx.el.span(t(N_("Facts and circumstances")), class_name="field-label"),
            rx.text_area(name="facts", rows="4", max_length=FACTS_LIMIT, required=True),
            field_error(errors, "facts"),
        ),
    )
