"""/staff/landers: how each lander and variant converts (docs/acquisition.md, "Variants"):
visits with tracking parameters, signups, confirmed signups and first purchases, each step
also as a share of the visits, over the last 7, 30 or 90 days."""

import reflex as rx

from app.pages.registry import page
from app.pages.staff_console import staff_load
from components.i18n import number, percent, t
from components.staff_shell import staff_shell
from components.staff_tables import empty_line, filter_buttons, staff_table
from state.staff_landers import StaffLandersState as S
from translations.catalog import N_

INTRO = N_(
    "Visits are page views that came with a partner's tracking parameters, robots left out; each "
    "later figure counts those visits' accounts. A visitor keeps the variant they were given."
)
LAST_DAYS = {
    "7": N_("Last 7 days"),
    "30": N_("Last 30 days"),
    "90": N_("Last 90 days"),
}
LANDER, VARIANT, VISITS = N_("Lander"), N_("Variant"), N_("Visits")
SIGNUPS, CONFIRMED, PURCHASES = N_("Signups"), N_("Confirmed address"), N_("First purchase")
HEADERS = (LANDER, VARIANT, VISITS, SIGNUPS, CONFIRMED, PURCHASES)
NO_VARIANT = N_("No variant")
EMPTY = N_("No visits with tracking parameters in this period.")


def _step(row: rx.Var[dict], name: str) -> rx.Component:
    """A count and its share of the visits."""
    return rx.el.td(
        number(row[name]),
        rx.el.div(percent(row[f"{name}_share"], decimals=1), class_name="muted"),
    )


def _row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.el.strong(row["lander"])),
        rx.el.td(rx.cond(row["variant"] != "", row["variant"], t(NO_VARIANT))),
        rx.el.td(number(row["visits"])),
        _step(row, "signups"),
        _step(row, "confirmed"),
        _step(row, "purchases"),
    )


@page("staff-landers", on_load=staff_load(S.load))
def staff_landers_page() -> rx.Component:
    return staff_shell(
        "staff-landers",
        rx.el.div(
            rx.el.p(t(INTRO), class_name="muted"),
            filter_buttons(LAST_DAYS, S.days, S.show, "landers-days"),
            staff_table(HEADERS, S.rows, _row, "lander-figures"),
            empty_line(S.rows, S.loaded, EMPTY),
            class_name="form-stack",
        ),
    )
