"""The console's dense building blocks: tables with translated headers, a pager, times and ages
written by the browser in the viewer's language, and facts lists (components/staff_shell.py
frames them)."""

from collections.abc import Callable

import reflex as rx

from components.i18n import intl_format, intl_object, t

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
