"""Profile form pieces shared by the signup steps and the settings: who you are and look for,
place, looks, about-me and interests. Each takes the Vars and events of the state it edits."""

import reflex as rx
from reflex.event import EventType

from components.forms import any_select, field_error, native_options, native_select
from components.i18n import region_codes, region_name, t, t_choice, t_label
from components.member_card import countries_by_name, country_name
from models.attribute_labels import (
    FIELD_LABELS,
    INTEREST_LABELS,
    REGION_LABELS,
    VALUE_LABELS,
    value_label,
)
from models.attributes import GENDERS
from models.profile_steps import ABOUT_MAX
from state.place_picker import InterestPicker, PlacePicker
from translations.catalog import N_

ABOUT_PLACEHOLDER = N_("What makes you you? What are you looking for?")
GENDER_CHOICES = {"male": N_("A man"), "female": N_("A woman")}
FORM_IDS = ("country-select", "region-select")  # test ids of the place selects
SEARCH_IDS = ("search-country", "search-region")
SEEKING_CHOICES = {"female": N_("Women"), "male": N_("Men"), "both": N_("Both")}


def _label(text: rx.Var[str]) -> rx.Component:
    return rx.el.span(text, class_name="field-label")


def choice(
    label: str, selected: rx.Var[bool], on_click: EventType, testid: str, look: str = "choice"
) -> rx.Component:
    """A pressed-or-not button; `look` "chip" for the small rounded kind."""
    return rx.el.button(
        t(label),
        type="button",
        class_name=look,
        data_selected=selected,
        aria_pressed=selected,
        on_click=on_click,
        data_testid=testid,
    )


def _choice_row(field: str, labels: dict[str, str], current: rx.Var[str], choose) -> rx.Component:
    return rx.el.div(
        *(
            choice(label, current == value, choose(field, value), f"{field}-{value}")
            for value, label in labels.items()
        ),
        class_name="choice-row",
    )


def who_fields(
    gender: rx.Var[str], seeking: rx.Var[str], choose, errors: rx.Var[dict[str, str]]
) -> rx.Component:
    """ "I am" and "Looking for" as choice buttons; `choose(field, value)` picks one."""
    return rx.el.div(
        _label(t("I am")),
        _choice_row("gender", GENDER_CHOICES, gender, choose),
        field_error(errors, "gender"),
        _label(t("Looking for")),
        _choice_row("seeking", SEEKING_CHOICES, seeking, choose),
        field_error(errors, "sexuality"),
        class_name="field",
    )


def _place_select(
    value: rx.Var[str], on_change: EventType, items: rx.Component, any_choice: bool, testid: str
) -> rx.Component:
    """A country or region select; with `any_choice`, "Any" stands for no choice."""
    if any_choice:
        return any_select(items, value, on_change, testid)
    return native_select(items, value, on_change, size="3", testid=testid, placeholder=t("Choose"))


def place_fields(
    picker: type[PlacePicker],
    errors: rx.Var[dict[str, str]] | None = None,
    *,
    any_choice: bool = False,
) -> rx.Component:
    """The one place picker (state/place_picker.py): the site's countries, then the chosen
    country's regions under the name the country uses (province, state, canton...). The
    search offers "Any" for both."""
    field_class = "field search-field" if any_choice else "field"
    country_id, region_id = SEARCH_IDS if any_choice else FORM_IDS
    countries = native_options(countries_by_name(picker.countries), country_name)
    codes = region_codes(picker.country)
    regions = native_options(codes, region_name)
    return rx.fragment(
        rx.el.label(
            _label(t("Country")),
            _place_select(picker.country, picker.pick_country, countries, any_choice, country_id),
            field_error(errors, "country") if errors is not None else rx.fragment(),
            class_name=field_class,
        ),
        rx.cond(
            codes.length() > 0,
            rx.el.label(
                _label(t_choice(REGION_LABELS, picker.region_kind)),
                _place_select(picker.region, picker.pick_region, regions, any_choice, region_id),
                class_name=field_class,
            ),
        ),
    )


def _value_text(field: str, value: str, gender: rx.Var[str]) -> rx.Var[str]:
    """A value's label, in the form for the member's gender where the field has one."""
    labels = {g: value_label(field, value, g) for g in GENDERS}
    if len(set(labels.values())) == 1:
        return t_label(labels[GENDERS[0]])
    return t_choice(labels, gender)


def looks_select(field: str, gender: rx.Var[str], **select_props) -> rx.Component:
    """One appearance field (hair colour, ...) of a member of `gender`; `select_props` make it
    named or controlled."""
    return rx.el.label(
        _label(t(FIELD_LABELS[field])),
        rx.select.root(
            rx.select.trigger(placeholder=t("Choose"), width="100%", data_testid=f"looks-{field}"),
            rx.select.content(
                *(
                    rx.select.item(_value_text(field, v, gender), value=v)
                    for v in VALUE_LABELS[field]
                )
            ),
            size="3",
            **select_props,
        ),
        class_name="field",
    )


def about_field(
    errors: rx.Var[dict[str, str]], counter: rx.Component | None = None, **area_props
) -> rx.Component:
    """The about-me text; `counter` (if any) shows under it."""
    return rx.el.label(
        _label(t("About me")),
        rx.text_area(
            rows="5", max_length=ABOUT_MAX, placeholder=t(ABOUT_PLACEHOLDER), **area_props
        ),
        counter if counter is not None else rx.fragment(),
        field_error(errors, "about"),
        class_name="field",
    )


def interest_chips(picker: type[InterestPicker]) -> rx.Component:
    """The site's interests as chips, each adding or removing itself (state/place_picker.py)."""
    chosen = picker.interests

    def chip(value: rx.Var[str]) -> rx.Component:
        return rx.el.button(
            t_choice(INTEREST_LABELS, value),
            type="button",
            class_name="chip",
            data_selected=chosen.contains(value),
            aria_pressed=chosen.contains(value),
            on_click=picker.toggle_interest(value),
        )

    return rx.el.div(
        _label(t("Interests")),
        rx.el.div(
            rx.foreach(picker.interest_options, chip),
            class_name="chips",
            data_testid="interest-chips",
        ),
        class_name="field",
    )
