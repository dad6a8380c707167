"""/staff/discounts (admins, docs/admin.md): a new discount code, then the codes newest first with
how often each was used, and disabling one with a reason."""

import reflex as rx

from app.pages.registry import page
from app.pages.staff_console import staff_load
from components.forms import field_error, form_error, native_select_class, post_form, submit_button
from components.i18n import local_date, money, t, t_choice
from components.member_card import country_name
from components.staff_shell import staff_shell
from components.staff_tables import card, paged_table
from models.discount_codes import (
    ACTIVE,
    DISABLED,
    EXPIRED,
    ONCE_PER_USER,
    REUSABLE,
    TIME_BONUS_CODE,
    USED,
)
from models.discount_form import CODE_LENGTH, GENERATED_PREFIX, MAX_PERCENTAGE, MEMBER_INPUT
from models.payment_methods import METHOD_LABELS
from models.staff_reason import REASON_LIMIT
from state.staff_discounts import StaffDiscountsState as S
from translations.catalog import N_

NEW_CODE = N_("New discount code")
CODE = N_("Code")
CODE_HINT = N_("Leave empty for a generated code ({prefix}-…).")
PERCENTAGE = N_("Discount (%)")
COUNTRY = N_("Country")
CURRENCY = N_("Currency")
ANY = N_("Any")
MINIMUM = N_("Minimum order value")
VALIDITY = N_("Validity")
LAST_DAY = N_("Last day (empty: no end)")
LAST_DAY_HEADER = N_("Last day")
METHODS = N_("Payment methods (none ticked: all)")
MEMBER = N_("For one member (e-mail address or number; empty: everyone)")
REASON = N_("Reason")
CREATE = N_("Create code")
CREATED = N_("Code {code} created.")
CODES = N_("Codes")
USES = N_("Uses")
FOR = N_("For")
EVERYONE = N_("Everyone")
STATUS = N_("Status")
LIMITS = N_("Limits")
DISABLE = N_("Disable")
DISABLE_CODE = N_("Disable code")
CANCEL = N_("Cancel")
NO_CODES = N_("No codes yet.")
VALIDITY_LABELS = {ONCE_PER_USER: N_("Once per member"), REUSABLE: N_("Reusable")}
STATUS_LABELS = {
    ACTIVE: N_("Active"),
    USED: N_("Used"),
    EXPIRED: N_("Expired"),
    DISABLED: N_("Disabled"),
}
ACTIONS = N_("Actions")
HEADERS = (CODE, PERCENTAGE, FOR, LIMITS, VALIDITY, LAST_DAY_HEADER, USES, STATUS, ACTIONS)


def _field(label: str, control: rx.Component, name: str) -> rx.Component:
    return rx.el.label(t(label), control, field_error(S.errors, name))


def _input(name: str, **props) -> rx.Component:
    return rx.el.input(name=name, class_name="setting-input", **props)


def _select(name: str, values: rx.Var[list[str]], named) -> rx.Component:
    return rx.el.select(
        rx.el.option(t(ANY), value=""),
        rx.foreach(values, lambda v: rx.el.option(named(v), value=v)),
        name=name,
        class_name=native_select_class("2"),
    )


def _validity() -> rx.Component:
    return rx.el.select(
        *(rx.el.option(t(label), value=v) for v, label in VALIDITY_LABELS.items()),
        name="validity",
        class_name=native_select_class("2"),
    )


def _methods() -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(t(METHODS)),
        *(
            rx.el.label(
                rx.el.input(type="checkbox", name=f"method.{m}"),
                t_choice(METHOD_LABELS, rx.Var.create(m)),
                class_name="setting-check",
            )
            for m in METHOD_LABELS
        ),
        class_name="setting-group",
    )


def _reason_input(**props) -> rx.Component:
    return rx.el.textarea(name="reason", rows=2, max_length=REASON_LIMIT, **props)


def _new_code_fields() -> tuple[rx.Component, ...]:
    percentage = _input("percentage", type="number", min=1, max=MAX_PERCENTAGE, required=True)
    return (
        _field(CODE, _input("code", max_length=CODE_LENGTH), "code"),
        rx.el.span(t(CODE_HINT, prefix=GENERATED_PREFIX), class_name="muted"),
        _field(PERCENTAGE, percentage, "percentage"),
        _field(COUNTRY, _select("country", S.countries, country_name), "country"),
        _field(CURRENCY, _select("currency", S.currencies, lambda v: v), "currency"),
        _field(MINIMUM, _input("minimum", type="number", min=0, step="0.01"), "minimum"),
        _field(VALIDITY, _validity(), "validity"),
        _field(LAST_DAY, rx.el.input(name="expires", type="date"), "expires"),
        _methods(),
        _field(MEMBER, _input("member", max_length=MEMBER_INPUT), "member"),
        _field(REASON, _reason_input(), "reason"),
    )


def _new_code() -> rx.Component:
    return post_form(
        rx.el.div(
            rx.el.input(type="hidden", name="form_key", value=S.form_key.to(str)),
            *_new_code_fields(),
            form_error(S.errors),
            submit_button(CREATE, S.busy, data_testid="discount-create"),
            class_name="staff-form",
        ),
        on_submit=S.create,
        key=S.form_key.to(str),
        data_testid="discount-form",
    )


def _limits(row: rx.Var[dict]) -> rx.Component:
    return rx.el.div(
        rx.cond(row["country"] != "", rx.el.div(country_name(row["country"].to(str)))),
        rx.cond(row["currency"] != "", rx.el.div(row["currency"])),
        rx.cond(
            row["minimum"].to(int) > 0,
            rx.el.div(
                "≥ ", money(row["minimum"], rx.cond(row["currency"] != "", row["currency"], "EUR"))
            ),
        ),
        rx.foreach(row["methods"].to(list[str]), lambda m: rx.el.div(t_choice(METHOD_LABELS, m))),
    )


def _disable_form() -> rx.Component:
    """The open reason form of the code being disabled."""
    confirm = rx.button(
        t(DISABLE_CODE),
        type="submit",
        size="1",
        color_scheme="red",
        data_testid="discount-disable-confirm",
    )
    cancel = rx.button(
        t(CANCEL), type="button", size="1", variant="soft", on_click=S.cancel_disable
    )
    return post_form(
        _reason_input(aria_label=t(REASON), placeholder=t(REASON)),
        field_error(S.errors, "reason"),
        rx.el.div(confirm, cancel, class_name="staff-filters"),
        on_submit=S.disable,
    )


def _disable(row: rx.Var[dict]) -> rx.Component:
    code_id = row["id"].to(int)
    ask = rx.button(
        t(DISABLE),
        size="1",
        variant="soft",
        color_scheme="red",
        on_click=S.ask_disable(code_id),
        data_testid="discount-disable",
    )
    return rx.cond(
        (row["status"] == DISABLED) | (row["code"] == TIME_BONUS_CODE),
        "",
        rx.cond(S.disabling == code_id, _disable_form(), ask),
    )


def _row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.el.code(row["code"], class_name="discount-code")),
        rx.el.td(row["percentage"].to(str), " %"),
        rx.el.td(rx.cond(row["member"] != "", row["member"], t(EVERYONE))),
        rx.el.td(_limits(row)),
        rx.el.td(t_choice(VALIDITY_LABELS, row["validity"].to(str))),
        rx.el.td(rx.cond(row["last_day"] != "", local_date(row["last_day"].to(str)), "—")),
        rx.el.td(row["uses"].to(str), data_testid="discount-uses"),
        rx.el.td(t_choice(STATUS_LABELS, row["status"].to(str))),
        rx.el.td(_disable(row)),
    )


@page("staff-discounts", on_load=staff_load(S.load))
def staff_discounts_page() -> rx.Component:
    return staff_shell(
        "staff-discounts",
        rx.el.div(
            card(NEW_CODE, _new_code()),
            rx.cond(
                S.created != "",
                rx.callout(
                    t(CREATED, code=S.created),
                    icon="check",
                    color_scheme="green",
                    data_testid="discount-created",
                ),
            ),
            card(CODES, *paged_table(S, HEADERS, _row, "discount-codes", NO_CODES)),
        ),
    )
