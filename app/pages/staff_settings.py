"""/staff/settings (admins, docs/admin.md): every site setting but the deployment's own, by theme,
with its current value and its default; "Change" opens the setting's editor in place (inputs
by its kind, a reason, its history)."""

import reflex as rx

from app.pages.registry import page
from app.pages.staff_console import staff_load
from components.forms import field_error, form_error, native_select_class, post_form, submit_button
from components.i18n import intl_object, t, t_choice
from components.member_card import country_name
from components.staff_shell import staff_shell
from components.staff_tables import staff_table, when
from models.setting_catalogue import EDITABLE, GROUPS, OPTION_LABELS
from models.setting_fields import CHECKBOX, LABELS, SELECT, TEXTAREA
from models.staff_reason import REASON_LIMIT
from services.site_settings import cache_seconds
from state.staff_settings import StaffSettingsState as S
from translations.catalog import N_

INTRO = N_(
    "A saved change applies at once on this server process and within {seconds} seconds on "
    "every other one (each keeps the settings that long)."
)
CURRENT = N_("Current value")
DEFAULT = N_("Default")
CHANGE = N_("Edit")
CLOSE = N_("Close")
SAVE = N_("Save")
REASON = N_("Reason for the change")
SAVED = N_("Saved.")
HISTORY = N_("History")
NO_CHANGES = N_("No changes yet.")
WHEN, WHO, BEFORE, AFTER = N_("When"), N_("By"), N_("Before"), N_("After")
NOT_SET = "—"

_SETTING_LABELS = {key: editable.label for key, editable in EDITABLE.items()}
_HINTS = {key: editable.hint for key, editable in EDITABLE.items() if editable.hint}
_LANGUAGES = intl_object("DisplayNames", "type: 'language'")


def _named(kind: rx.Var[str], text: rx.Var[str]) -> rx.Var | rx.Component:
    """A label or an option as its kind says (models/setting_fields.py)."""
    return rx.cond(
        text == "",
        NOT_SET,
        rx.match(
            kind,
            ("country", country_name(text)),
            ("language", rx.Var(f"{_LANGUAGES}.of({text})").to(str)),
            ("msgid", t_choice({label: label for label in LABELS}, text)),
            ("option", t_choice(OPTION_LABELS, text) + " (" + text + ")"),
            text,
        ),
    )


def _control(item: rx.Var[dict]) -> rx.Component:
    name = item["name"].to(str)
    return rx.match(
        item["input"],
        (
            CHECKBOX,
            rx.el.input(type="checkbox", name=name, default_checked=item["checked"].to(bool)),
        ),
        (
            SELECT,
            rx.el.select(
                rx.foreach(
                    item["options"].to(list[str]),
                    lambda o: rx.el.option(_named(item["option_kind"].to(str), o), value=o),
                ),
                name=name,
                default_value=item["value"].to(str),
                class_name=native_select_class("2"),
            ),
        ),
        (
            TEXTAREA,
            rx.el.textarea(name=name, default_value=item["value"].to(str), rows=4),
        ),
        rx.el.input(
            type=item["input"].to(str),
            name=name,
            default_value=item["value"].to(str),
            step=item["step"].to(str),
            class_name="rt-reset setting-input",
        ),
    )


def _input(item: rx.Var[dict]) -> rx.Component:
    name = item["name"].to(str)
    return rx.el.label(
        rx.el.span(_named(item["kind"].to(str), item["label"].to(str))),
        _control(item),
        rx.cond(S.errors.contains(name), rx.el.span(S.errors[name], class_name="staff-error")),
        class_name=rx.cond(item["input"] == CHECKBOX, "setting-check", "setting-field"),
        data_testid=rx.Var.create("input-") + name,
    )


def _group(group: rx.Var[dict]) -> rx.Component:
    return rx.el.fieldset(
        rx.cond(
            group["title"] != "",
            rx.el.legend(_named(group["kind"].to(str), group["title"].to(str))),
        ),
        rx.foreach(group["inputs"].to(list[dict]), _input),
        class_name="setting-group",
    )


def _change_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["at"])),
        rx.el.td("#", row["staff_id"].to(str)),
        rx.el.td(rx.el.code(row["old"])),
        rx.el.td(rx.el.code(row["new"])),
    )


def _editor() -> rx.Component:
    return rx.el.div(
        post_form(
            rx.foreach(S.inputs, _group),
            rx.el.label(
                t(REASON),
                rx.el.textarea(name="reason", rows=2, max_length=REASON_LIMIT, required=True),
                field_error(S.errors, "reason"),
            ),
            form_error(S.errors),
            rx.el.div(
                submit_button(SAVE, S.busy, data_testid="setting-save"),
                rx.button(t(CLOSE), type="button", variant="soft", on_click=S.close),
                class_name="staff-filters",
            ),
            on_submit=S.save,
            reset_on_submit=False,
            key=S.key + S.current,  # a fresh form with the stored value after each save
            class_name="staff-form",
            data_testid="setting-form",
        ),
        rx.heading(t(HISTORY), as_="h3", size="3"),
        rx.cond(
            S.changes.length() > 0,
            staff_table((WHEN, WHO, BEFORE, AFTER), S.changes, _change_row, "setting-history"),
            rx.el.p(t(NO_CHANGES), class_name="muted"),
        ),
        class_name="setting-editor",
    )


def _setting(row: rx.Var[dict]) -> rx.Component:
    key = row["key"].to(str)
    hint = t_choice(_HINTS, key)
    return rx.el.div(
        rx.el.div(
            rx.el.div(
                rx.el.span(t_choice(_SETTING_LABELS, key), class_name="setting-label"),
                rx.el.code(key, class_name="setting-key"),
                class_name="setting-name",
            ),
            rx.cond(
                S.key == key,
                rx.cond(S.saved == key, rx.el.span(t(SAVED), class_name="setting-saved")),
                rx.button(t(CHANGE), size="1", variant="soft", on_click=S.open(key)),
            ),
            class_name="setting-head",
        ),
        rx.cond(hint, rx.el.p(hint, class_name="muted")),
        rx.el.dl(
            rx.el.dt(t(CURRENT)),
            rx.el.dd(rx.el.code(row["current"]), data_testid="setting-current"),
            rx.el.dt(t(DEFAULT)),
            rx.el.dd(rx.el.code(row["default"])),
            class_name="staff-facts",
        ),
        rx.cond(S.key == key, _editor()),
        class_name="setting-row",
        data_testid=rx.Var.create("setting-") + key,
    )


def _theme(theme: rx.Var[dict]) -> rx.Component:
    return rx.el.section(
        rx.heading(t_choice({g: g for g in GROUPS}, theme["title"].to(str)), as_="h2", size="4"),
        rx.foreach(theme["rows"].to(list[dict]), _setting),
        class_name="card",
    )


@page("staff-settings", on_load=staff_load(S.load))
def staff_settings_page() -> rx.Component:
    return staff_shell(
        "staff-settings",
        rx.el.div(
            rx.el.p(t(INTRO, seconds=int(cache_seconds())), class_name="muted"),
            rx.foreach(S.themes, _theme),
        ),
    )
