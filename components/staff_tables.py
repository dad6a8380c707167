"""The console's dense building blocks: tables with translated headers, a pager, a list page's
table with its "nothing here" line and pager, links to a row's page and to a member, times and
ages written by the browser in the viewer's language, and facts lists (components/staff_shell.py
frames them)."""

from collections.abc import Callable

import reflex as rx

from components.i18n import intl_format, intl_object, t
from models.routes import route_named
from translations.catalog import N_

NONE_YET = N_("Nothing here yet.")

AGE_JS = (
    "((d) => {{ if (isNaN(d)) return ''; const h = Math.round((d - Date.now()) / 3.6e6); "
    "const f = {rtf}; return Math.abs(h) < 48 ? f.format(h, 'hour') : "
    "f.format(Math.round(h / 24), 'day'); }})(new Date({iso}))"
)


def when(iso: rx.Var) -> rx.Var[str]:
    """A date and time, short."""
    return rx.Var(intl_format(iso.to(str), "dateStyle: 'short', timeStyle: 'short'")).to(str)


def age(iso: rx.Var) -> rx.Var[str]:
    """How long ago: "5 hours ago", "3 days ago", in the viewer's language."""
    rtf = intl_object("RelativeTimeFormat", "numeric: 'auto'")
    return rx.Var(AGE_JS.format(rtf=rtf, iso=iso.to(str))).to(str)


def staff_table(
    headers: tuple[str, ...],
    rows: rx.Var[list[dict]],
    row: Callable[[rx.Var[dict]], rx.Component],
    testid: str,
) -> rx.Component:
    """A table: `headers` are msgids; `row` draws one row's cells (rx.el.td each)."""
    return rx.el.div(
        rx.el.table(
            rx.el.thead(rx.el.tr(*(rx.el.th(t(h), scope="col") for h in headers))),
            rx.el.tbody(rx.foreach(rows, lambda r: rx.el.tr(row(r)))),
            class_name="staff-table",
            data_testid=testid,
        ),
        class_name="staff-table-wrap",
    )


def pager(page: rx.Var[int], has_next: rx.Var[bool], go: Callable) -> rx.Component:
    """Earlier and later pages of a list read PAGE_SIZE rows at a time."""
    return rx.el.div(
        rx.button(
            t("Previous"),
            variant="soft",
            size="1",
            disabled=page <= 1,
            on_click=go(page - 1),
            data_testid="page-previous",
        ),
        rx.el.span(page, class_name="muted"),
        rx.button(
            t("Next"),
            variant="soft",
            size="1",
            disabled=~has_next,
            on_click=go(page + 1),
            data_testid="page-next",
        ),
        class_name="staff-pager",
    )


def row_path(route_name: str, id_: rx.Var) -> rx.Var[str]:
    """/staff/<tool>/{id} for a row's id: the path of the route `route_name` (its "[id]")."""
    return route_named(route_name).path.replace("[id]", "") + id_.to(str)


def empty_line(
    rows: rx.Var[list], loaded: rx.Var[bool] | bool = True, text: str | rx.Var[str] = NONE_YET
) -> rx.Component:
    """The line `text` (a msgid, or a translated Var) where a loaded list has no rows."""
    line = t(text) if isinstance(text, str) else text
    return rx.cond(
        loaded & (rows.length() == 0), rx.el.p(line, class_name="muted", data_testid="empty")
    )


def filter_buttons(
    choices: dict[str, str], chosen: rx.Var[str], choose: Callable, testid: str
) -> rx.Component:
    """One button per choice (value -> msgid), the chosen one pressed."""
    return rx.el.div(
        *(
            rx.button(
                t(label),
                size="1",
                variant=rx.cond(chosen == value, "solid", "soft"),
                on_click=choose(value),
                aria_pressed=rx.cond(chosen == value, "true", "false"),
                data_testid=f"{testid}-{value or 'all'}",
            )
            for value, label in choices.items()
        ),
        class_name="staff-filters",
        role="group",
    )


def paged_table(
    state: type[rx.State],
    headers: tuple[str, ...],
    row: Callable[[rx.Var[dict]], rx.Component],
    testid: str,
    empty: str | rx.Var[str] = NONE_YET,
) -> tuple[rx.Component, ...]:
    """A list page's table of `state.rows`, its "nothing here" line (`empty`) and its
    pager: the state's `rows`, `loaded`, `page`, `has_next` and `go` (state/paged_list.py)."""
    return (
        staff_table(headers, state.rows, row, testid),
        empty_line(state.rows, state.loaded, empty),
        pager(state.page, state.has_next, state.go),
    )


def member_link(id_: rx.Var, name: rx.Var, route_name: str = "staff-members-id") -> rx.Component:
    """A member's name (or "#id" without one) linking to their page in the tool `route_name`;
    "—" where there is no member (id 0)."""
    return rx.cond(
        id_.to(int) > 0,
        rx.link(rx.cond(name != "", name, "#" + id_.to(str)), href=row_path(route_name, id_)),
        "—",
    )


def facts(*pairs: tuple[str, rx.Component | rx.Var]) -> rx.Component:
    """A definition list of (label msgid, value)."""
    return rx.el.dl(
        *(rx.fragment(rx.el.dt(t(label)), rx.el.dd(value)) for label, value in pairs),
        class_name="staff-facts",
    )


def card(title: str, *children: rx.Component, **props) -> rx.Component:
    return rx.el.section(
        rx.heading(t(title), as_="h2", size="4", class_name="staff-card-title"),
        *children,
        class_name="card",
        **props,
    )
