"""/staff/postbacks: the conversions reported to the traffic networks (docs/acquisition.md,
"Conversions"), newest first: network, event, status, attempts, the network's answer and the
times; filtered by status."""

import reflex as rx

from actions.postback_reads import STATUSES
from app.pages.registry import page
from app.pages.staff_console import staff_load
from components.i18n import money, t, t_choice
from components.staff_shell import staff_shell
from components.staff_tables import age, filter_buttons, member_link, paged_table, when
from models.postback import ConversionEvent, PostbackStatus
from state.staff_postbacks import StaffPostbacksState as S
from translations.catalog import N_

INTRO = N_(
    "The conversions reported to the traffic networks: the signup, the confirmed address, the "
    "first purchase and its refund or chargeback, each once per click. One the network does not "
    "accept is tried again at growing intervals for most of a day, and fails after the sixth "
    "attempt."
)
ALL = N_("All")
STATUS_LABELS = {
    PostbackStatus.PENDING.value: N_("Waiting to be sent"),
    PostbackStatus.SENT.value: N_("Sent"),
    PostbackStatus.FAILED.value: N_("Failed"),
}
EVENT_LABELS = {
    ConversionEvent.LEAD.value: N_("Signup"),
    ConversionEvent.CONFIRMED.value: N_("Confirmed address"),
    ConversionEvent.SALE.value: N_("First purchase"),
    ConversionEvent.REVERSAL.value: N_("Reversal"),
}
NETWORK, EVENT, STATUS, ATTEMPTS = N_("Network"), N_("Event"), N_("Status"), N_("Attempts")
ANSWER, NOTED, SENT_OR_NEXT = N_("Answer"), N_("Noted"), N_("Sent or next attempt")
MEMBER = N_("Member")
NO_ANSWER = N_("No answer")
HEADERS = (NETWORK, EVENT, STATUS, ATTEMPTS, ANSWER, NOTED, SENT_OR_NEXT, MEMBER)
EMPTY = N_("No postbacks.")


def _filters() -> rx.Component:
    choices = {"": ALL, **{status.value: STATUS_LABELS[status.value] for status in STATUSES}}
    return filter_buttons(choices, S.chosen, S.show, "postbacks")


def _moment(iso: rx.Var) -> rx.Component:
    return rx.cond(iso != "", rx.el.span(age(iso), title=when(iso)), "—")


def _answer(row: rx.Var[dict]) -> rx.Component:
    """The network's HTTP status, or why there was none."""
    return rx.el.td(
        rx.cond(row["status_code"].to(int) > 0, row["status_code"].to(str), t(NO_ANSWER)),
        rx.cond(row["error"] != "", rx.el.div(row["error"], class_name="muted")),
    )


def _row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.el.strong(row["network"])),
        rx.el.td(
            t_choice(EVENT_LABELS, row["event"].to(str)),
            rx.cond(
                row["currency"] != "",
                rx.el.div(money(row["amount_cents"], row["currency"]), class_name="muted"),
            ),
        ),
        rx.el.td(t_choice(STATUS_LABELS, row["status"].to(str))),
        rx.el.td(row["attempts"].to(str)),
        _answer(row),
        rx.el.td(_moment(row["created_at"])),
        rx.el.td(
            rx.cond(
                row["status"] == PostbackStatus.PENDING.value,
                _moment(row["next_at"]),
                _moment(row["sent_at"]),
            )
        ),
        rx.el.td(member_link(row["member_id"], "", "staff-support-member")),
    )


@page("staff-postbacks", on_load=staff_load(S.load))
def staff_postbacks_page() -> rx.Component:
    return staff_shell(
        "staff-postbacks",
        rx.el.div(
            rx.el.p(t(INTRO), class_name="muted"),
            _filters(),
            *paged_table(S, HEADERS, _row, "postbacks", EMPTY),
            class_name="form-stack",
        ),
    )
