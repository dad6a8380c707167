"""/staff/payments: support's payments queue (docs/payments-queue.md). Refunds the provider has
not answered (those unanswered for a week flagged and first), orders stuck open, chargebacks;
each row's button asks the provider now and applies its answer as the webhook does."""

import reflex as rx

from actions.payment_checks import FetchOutcome
from actions.payment_queue import QueueKind
from app.pages.registry import page
from app.pages.staff_console import staff_load
from components.bundles import method_label
from components.i18n import money, number, t, t_choice
from components.staff_shell import staff_shell
from components.staff_tables import age, member_link, paged_table, when
from models.order_labels import ORDER_STATUS_LABELS, REFUND_STATUS_LABELS
from state.staff_payments import StaffPaymentsState as S
from translations.catalog import N_

INTRO = N_(
    "Refunds the payment provider has not answered, orders whose payment is stuck, and "
    "chargebacks. Asking the provider fetches the payment's state now and applies it as the "
    "provider's notification would; a change is written to the audit log."
)
KIND_LABELS = {
    QueueKind.REFUNDS: N_("Refunds without an answer"),
    QueueKind.ORDERS: N_("Orders stuck open"),
    QueueKind.CHARGEBACKS: N_("Chargebacks"),
}
EMPTY_LABELS = {
    QueueKind.REFUNDS: N_("Every refund has been answered by the provider."),
    QueueKind.ORDERS: N_("No orders are stuck."),
    QueueKind.CHARGEBACKS: N_("No chargebacks."),
}
REQUESTED_BY_LABELS = {
    "member": N_("by the member"),
    "support": N_("by support"),
    "provider": N_("at the provider"),
}
OUTCOME_LABELS = {
    FetchOutcome.CHANGED: N_("The provider's answer was applied."),
    FetchOutcome.UNCHANGED: N_("The provider reports no change."),
    FetchOutcome.UNREACHABLE: N_("The provider did not answer. Try again later."),
    FetchOutcome.REFUSED: N_("The provider does not know this payment."),
    FetchOutcome.NO_PAYMENT: N_("No payment was created at the provider."),
}
ATTENTION = N_("Unanswered for a week")
NO_ANSWER = N_("No answer to the request")
NEVER_ASKED = N_("not yet")
ASK = N_("Ask the provider")
ORDER, MEMBER, AMOUNT, METHOD = N_("Order"), N_("Member"), N_("Amount"), N_("Method")
STATUS, REFUND, REQUESTED = N_("Status"), N_("Refund"), N_("Requested")
LAST_ASKED = N_("Last asked")
ORDERED, CHARGED_BACK, TAKEN_BACK = N_("Ordered"), N_("Charged back"), N_("Credits taken back")
REFUND_HEADERS = (ORDER, MEMBER, REFUND, STATUS, REQUESTED, LAST_ASKED)
ORDER_HEADERS = (ORDER, MEMBER, AMOUNT, METHOD, STATUS, ORDERED)
CHARGEBACK_HEADERS = (ORDER, MEMBER, AMOUNT, METHOD, TAKEN_BACK, CHARGED_BACK)


def _tabs() -> rx.Component:
    return rx.el.div(
        *(
            rx.button(
                t(label),
                size="1",
                variant=rx.cond(S.kind == kind.value, "solid", "soft"),
                on_click=S.show(kind.value),
                aria_pressed=rx.cond(S.kind == kind.value, "true", "false"),
                data_testid=f"queue-{kind.value}",
            )
            for kind, label in KIND_LABELS.items()
        ),
        class_name="staff-filters",
        role="group",
    )


def _moment(iso: rx.Var) -> rx.Component:
    return rx.el.span(age(iso), title=when(iso))


def _order(row: rx.Var[dict], *marks: rx.Component) -> rx.Component:
    """The order number, any mark, and the button that asks the provider (first, so that it
    shows without scrolling the table at 375 px)."""
    return rx.el.td(rx.el.strong(row["number"]), *marks, _ask(row), class_name="nowrap")


def _member(row: rx.Var[dict]) -> rx.Component:
    """The buyer, linked to their account in support's tools."""
    return rx.el.td(
        member_link(row["member_id"], row["name"], "staff-support-member"),
        rx.el.div(row["email"], class_name="muted"),
    )


def _amount(row: rx.Var[dict], cents: str = "amount_cents") -> rx.Component:
    return rx.el.td(money(row[cents], row["currency"]), class_name="nowrap")


def _ask(row: rx.Var[dict]) -> rx.Component:
    return rx.cond(
        row["asks_provider"],
        rx.el.div(
            rx.button(
                t(ASK),
                size="1",
                variant="soft",
                on_click=S.ask_provider(row["order_id"].to(int)),
                data_testid="ask-provider",
            )
        ),
    )


def _refund_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        _order(
            row,
            rx.cond(
                row["attention"],
                rx.el.div(rx.el.span(t(ATTENTION), class_name="staff-mark")),
            ),
        ),
        _member(row),
        _amount(row, "refund_cents"),
        rx.el.td(
            t_choice(REFUND_STATUS_LABELS, row["refund_status"].to(str)),
            rx.cond(~row["answered"].to(bool), rx.el.div(t(NO_ANSWER), class_name="muted")),
        ),
        rx.el.td(
            _moment(row["created_at"]),
            rx.el.div(
                t_choice(REQUESTED_BY_LABELS, row["requested_by"].to(str)), class_name="muted"
            ),
        ),
        rx.el.td(rx.cond(row["checked_at"] != "", _moment(row["checked_at"]), t(NEVER_ASKED))),
    )


def _order_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        _order(row),
        _member(row),
        _amount(row),
        rx.el.td(method_label(row["method"].to(str))),
        rx.el.td(t_choice(ORDER_STATUS_LABELS, row["status"].to(str))),
        rx.el.td(_moment(row["ordered_at"])),
    )


def _chargeback_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        _order(row),
        _member(row),
        _amount(row),
        rx.el.td(method_label(row["method"].to(str))),
        rx.el.td(number(row["credits_taken_back"].to(int))),
        rx.el.td(_moment(row["updated_at"])),
    )


def _list(headers: tuple[str, ...], row, testid: str) -> rx.Component:
    return rx.fragment(*paged_table(S, headers, row, testid, t_choice(EMPTY_LABELS, S.kind)))


def _table() -> rx.Component:
    """The list chosen, with the line saying it is empty and the pager."""
    return rx.match(
        S.kind,
        (QueueKind.ORDERS.value, _list(ORDER_HEADERS, _order_row, "stuck-orders")),
        (QueueKind.CHARGEBACKS.value, _list(CHARGEBACK_HEADERS, _chargeback_row, "chargebacks")),
        _list(REFUND_HEADERS, _refund_row, "unanswered-refunds"),
    )


def _outcome() -> rx.Component:
    return rx.cond(
        S.outcome != "",
        rx.el.p(
            rx.el.strong(S.asked_number),
            ": ",
            t_choice(OUTCOME_LABELS, S.outcome),
            role="status",
            data_testid="ask-outcome",
            data_outcome=S.outcome,
        ),
    )


@page("staff-payments", on_load=staff_load(S.load))
def staff_payments_page() -> rx.Component:
    return staff_shell(
        "staff-payments",
        rx.el.div(
            rx.el.p(t(INTRO), class_name="muted"),
            _tabs(),
            _outcome(),
            _table(),
            class_name="form-stack",
        ),
    )
