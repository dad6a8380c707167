"""Form building blocks: forms that post, labelled fields with their error, the form-wide error,
the browser's own selects, busy buttons."""

from collections.abc import Callable, Mapping
from enum import StrEnum

import reflex as rx
from reflex.event import EventType

from components.i18n import t, tn
from models.passwords import MIN_LENGTH
from models.search import MAX_AGE
from state.i18n import hydrated
from state.place_picker import ANY
from state.push_opt_in import PUSH_IOS_HOME_SCREEN
from translations.catalog import N_


def field_error(errors: rx.Var[dict[str, str]], key: str) -> rx.Component:
    return rx.cond(
        errors.contains(key),
        rx.el.div(errors[key], class_name="field-error", role="alert", data_testid=f"error-{key}"),
    )


def native_select_class(size: str) -> str:
    """Radix's closed select of `size` for the browser's own select (assets/site.css
    .native-select adds the width and the one chevron)."""
    return f"rt-reset rt-SelectTrigger rt-r-size-{size} rt-variant-surface native-select"


def native_select(
    options: rx.Component,
    value: rx.Var[str],
    on_change: EventType,
    *,
    size: str,
    testid: str,
    placeholder: rx.Var[str] | None = None,
    controlled: bool = True,
    **props,
) -> rx.Component:
    """The browser's own select, looking like Radix's closed select of `size` ("2", "3"). A
    phone opens its native picker, and the page pays for plain options: Radix's select mounts
    a component per item even while closed (a country's 51 states cost the search page a
    long task on load). `placeholder` shows while `value` is "", as no option. Controlled,
    it shows `value`; else `value` is only where it starts and the select keeps the pick."""
    first = (
        (rx.el.option(placeholder, value="", disabled=True, hidden=True),)
        if placeholder is not None
        else ()
    )
    return rx.el.select(
        *first,
        options,
        **({"value": value} if controlled else {"default_value": value}),
        on_change=on_change,
        class_name=native_select_class(size),
        data_testid=testid,
        **props,
    )


def native_options(
    values: rx.Var[list[str]], label: Callable[[rx.Var[str]], rx.Var[str]]
) -> rx.Component:
    """An option per value, named by `label`, for `native_select`. Each is keyed by its value:
    when the names change order (another language's arrive), React moves the options, and the
    chosen one stays chosen; keyed by place, the browser kept showing whichever option came to
    stand where the chosen one had been."""
    return rx.foreach(values, lambda value: rx.el.option(label(value), value=value, key=value))


def choice_field(
    label: str,
    labels: Mapping[StrEnum, str],
    value: rx.Var[str],
    on_change: EventType,
    errors: rx.Var[dict[str, str]],
    *,
    name: str,
    testid: str,
) -> rx.Component:
    """A labelled select of a fixed vocabulary (`labels`: each value's msgid, in their order),
    "Choose" until one is chosen, with its error under it. The form posts the select's own
    pick: shown as the state's `value`, the select would show the old choice until the state
    answered `on_change`, and a quick submit sent that one."""
    options = rx.fragment(*(rx.el.option(t(text), value=key.value) for key, text in labels.items()))
    return rx.el.label(
        rx.el.span(t(label), class_name="field-label"),
        native_select(
            options,
            value,
            on_change,
            size="3",
            testid=testid,
            placeholder=t("Choose"),
            controlled=False,
            name=name,
        ),
        field_error(errors, name),
        class_name="field",
    )


def any_select(
    options: rx.Component, value: rx.Var[str], on_change: EventType, testid: str
) -> rx.Component:
    """A search filter's select: "Any" first, for no choice ("" in the state)."""
    return native_select(
        rx.fragment(rx.el.option(t("Any"), value=ANY), options),
        rx.cond(value == "", ANY, value),
        on_change,
        size="2",
        testid=testid,
    )


def form_error(errors: rx.Var[dict[str, str]]) -> rx.Component:
    return rx.cond(
        errors.contains(""),
        rx.callout(errors[""], icon="triangle-alert", color_scheme="red", data_testid="form-error"),
    )


def text_field(
    label: str,
    name: str,
    errors: rx.Var[dict[str, str]],
    hint: rx.Var[str] | rx.Component | None = None,
    **input_props,
) -> rx.Component:
    """A labelled input; `name` is the form key and the error key."""
    return rx.el.label(
        rx.el.span(t(label), class_name="field-label"),
        rx.input(name=name, id=f"field-{name}", size="3", **input_props),
        rx.el.span(hint, class_name="field-hint") if hint is not None else rx.fragment(),
        field_error(errors, name),
        class_name="field",
    )


def text_area_field(
    label: str,
    name: str,
    errors: rx.Var[dict[str, str]],
    *,
    rows: int,
    max_length: int,
    required: bool = False,
    hint: rx.Var[str] | None = None,
    error_key: str | None = None,
    testid: str | None = None,
) -> rx.Component:
    """A labelled text area with its hint and error under it; `name` is the form key and the
    error key unless `error_key` names the one the server reports."""
    return rx.el.label(
        rx.el.span(t(label), class_name="field-label"),
        rx.text_area(
            name=name,
            rows=str(rows),
            max_length=max_length,
            required=required,
            **({"data_testid": testid} if testid else {}),
        ),
        rx.el.span(hint, class_name="field-hint") if hint is not None else rx.fragment(),
        field_error(errors, error_key or name),
        class_name="field",
    )


def post_form(*children: rx.Component, **props) -> rx.Component:
    """A form of the app. Sent before the app runs (a page shows its forms first), it posts:
    a form without a method is sent as a GET, its fields, a password too, in the address, the
    history and the server's log. The server answers that post with the page again
    (app/early_form_posts.py)."""
    return rx.el.form(*children, method="post", **props)


def submit_button(label: str, busy: rx.Var[bool], **props) -> rx.Component:
    """The form's button; it waits for the app, which sends the form (Enter does not send a
    form whose button is disabled)."""
    return rx.button(t(label), type="submit", size="3", loading=busy, disabled=~hydrated(), **props)


def notice(text: rx.Var[str], icon: str = "mail-check", **props) -> rx.Component:
    return rx.callout(text, icon=icon, color_scheme="green", **props)


def ios_push_note(**props) -> rx.Component:
    """Why an iPhone or iPad gets no notifications yet, and how to get them."""
    return rx.callout(t(PUSH_IOS_HOME_SCREEN), icon="smartphone", color_scheme="blue", **props)


def auth_card(title: rx.Var[str], *children: rx.Component, testid: str) -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.el.h1(title, class_name="page-title"), *children, class_name="card auth-card"),
        class_name="container",
        data_testid=testid,
    )


COMMON_PASSWORDS_REFUSED = N_("Very common passwords are not accepted.")


def password_hint() -> rx.Component:
    """What the password rules of models/passwords.py accept, under every new password."""
    return rx.fragment(
        tn("At least {count} character.", "At least {count} characters.", MIN_LENGTH),
        " ",
        t(COMMON_PASSWORDS_REFUSED),
    )


def new_password_fields(errors: rx.Var[dict[str, str]], name: str = "password") -> rx.Component:
    return rx.fragment(
        text_field(
            N_("New password"),
            name,
            errors,
            type="password",
            auto_complete="new-password",
            required=True,
            hint=password_hint(),
        ),
        text_field(
            N_("Repeat new password"),
            "repeat",
            errors,
            type="password",
            auto_complete="new-password",
            required=True,
        ),
    )


def labelled(label: rx.Var[str], control: rx.Component) -> rx.Component:
    """A control under its label, as the search filters lay them out."""
    return rx.el.label(
        rx.el.span(label, class_name="field-label"), control, class_name="field search-field"
    )


def _age_input(name: str, value: rx.Var[int], label: str, testid: str) -> rx.Component:
    return rx.input(
        name=name,
        type="number",
        min=18,
        max=MAX_AGE,
        default_value=value.to(str),
        key=value.to(str),
        aria_label=t(label),
        data_testid=f"{testid}-{name}",
        size="2",
    )


def age_range(low: rx.Var[int], high: rx.Var[int], testid: str) -> rx.Component:
    """ "Age" with a from and a to field, named min_age and max_age in the form."""
    return labelled(
        t("Age"),
        rx.flex(
            _age_input("min_age", low, N_("Minimum age"), testid),
            rx.el.span("–"),
            _age_input("max_age", high, N_("Maximum age"), testid),
            align="center",
            spacing="2",
        ),
    )
