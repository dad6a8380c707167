"""/transactions: the member's purchases with withdrawal; /transactions/{id}: one payment's
result (loading, pending, completed, failed or cancelled), updated live."""

import reflex as rx

from app.pages.registry import page
from components.bundles import method_label, no_purchase_yet
from components.confirm_dialog import confirm_content
from components.i18n import filled_in, intl_format, money, t, t_choice, tn, tp
from components.link_button import link_button
from models.order_labels import ORDER_STATUS_LABELS, REFUND_LABELS
from models.payment_methods import DIRECT_DEBIT
from models.routes import credits_method_url, transaction_url, url
from state.shell import ShellState
from state.transactions import (
    CANCELLED,
    COMPLETED,
    FAILED,
    LOADING,
    MISSING,
    PENDING,
)
from state.transactions import (
    TransactionsState as S,
)
from translations.catalog import N_, N_plural
from translations.errors import PAYMENT_CANCELLED, PAYMENT_FAILED

WITHDRAW_TEXT = N_plural(
    "You get {amount} back for your {credits} unused credit of this purchase. This credit "
    "leaves your balance now.",
    "You get {amount} back for your {credits} unused credits of this purchase. These credits "
    "leave your balance now.",
    "credits",
)
# What the result page says of an order that did not go through, by phase: its heading and line.
UNSUCCESSFUL = {
    FAILED: (PAYMENT_FAILED, N_("The payment did not go through. Nothing was charged.")),
    CANCELLED: (PAYMENT_CANCELLED, N_("You cancelled the payment. Nothing was charged.")),
}
# A direct debit waits for its collection: Mollie reports it paid a working day after the debit
# date (`details.dueDate`, in the pre-notification mail), the test provider `collection_days`
# after signing; the credits come then (docs/direct-debit.md).
DEBIT_PENDING_NOTE = N_(
    "A direct debit takes a few working days: we e-mail you the date the amount will be "
    "collected, and your credits arrive once it has been collected. This page updates by itself."
)
WITHDRAW_RULE = N_plural(
    "Within {days} day of a purchase you can withdraw from it.",
    "Within {days} days of a purchase you can withdraw from it.",
    "days",
)


def _when(iso: rx.Var[str]) -> rx.Var[str]:
    return rx.Var(intl_format(iso, "dateStyle: 'medium', timeStyle: 'short'")).to(str)


def _refund_line(row: rx.Var[dict]) -> rx.Component:
    text = t_choice(REFUND_LABELS, row["refund_status"].to(str))
    amount = money(row["refund_cents"], row["currency"])
    return rx.cond(
        row["refund_status"] != "",
        rx.el.div(
            rx.icon("undo-2", size=14),
            filled_in(rx.Var(f"({text} ?? '')"), {"amount": amount}),
            class_name="order-refund",
        ),
    )


def _order_row(row: rx.Var[dict]) -> rx.Component:
    return rx.el.article(
        rx.el.div(
            rx.el.strong(tn("{count} credit", "{count} credits", row["credits"].to(int))),
            rx.el.span(money(row["amount_cents"], row["currency"]), class_name="order-amount"),
            class_name="order-top",
        ),
        rx.el.div(
            rx.el.span(_when(row["created_at"].to(str))),
            rx.el.span(method_label(row["method"].to(str))),
            rx.el.span(
                t_choice(ORDER_STATUS_LABELS, row["status"].to(str)),
                class_name="order-status",
                data_phase=row["phase"],
            ),
            class_name="order-meta",
        ),
        _refund_line(row),
        rx.el.div(
            rx.link(t("Details"), href=transaction_url(row["id"]), class_name="order-details"),
            rx.cond(
                row["refundable"],
                rx.button(
                    t("Withdraw"),
                    size="2",
                    variant="soft",
                    color_scheme="red",
                    on_click=S.ask_withdraw(row["id"].to(int)),
                    data_testid=f"withdraw-{row['id']}",
                ),
            ),
            class_name="order-actions",
        ),
        class_name="card order-row",
        data_testid=f"order-{row['id']}",
    )


def _withdraw_dialog() -> rx.Component:
    row = S.confirming
    return rx.alert_dialog.root(
        confirm_content(
            t("Withdraw from this purchase?"),
            t(
                WITHDRAW_TEXT,
                amount=money(row["refund_cents"], row["currency"]),
                credits=row["refund_credits"].to(int),
            ),
            N_("Withdraw"),
            S.withdraw,
            "withdraw-confirm",
            dismiss=tp("withdraw dialog", "Go back"),  # "Cancel" reads like withdrawing in fi
        ),
        open=S.confirm_id != 0,
        on_open_change=S.confirm_changed,
    )


def _list() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Your purchases"), class_name="page-title"),
        rx.el.p(t(WITHDRAW_RULE, days=ShellState.refund_days), class_name="muted"),
        rx.cond(
            ~S.loaded,
            rx.center(rx.spinner(size="3"), padding="48px"),
            rx.cond(
                S.orders.length() > 0,
                rx.el.div(rx.foreach(S.orders, _order_row), class_name="order-list"),
                no_purchase_yet("orders-empty", "orders-empty"),
            ),
        ),
        _withdraw_dialog(),
        class_name="container transactions-page",
        data_testid="page-transactions",
    )


def _result_icon(icon: str, tone: str) -> rx.Component:
    return rx.el.div(rx.icon(icon, size=34), class_name="result-icon", data_tone=tone)


def _details() -> rx.Component:
    order = S.order
    return rx.el.dl(
        rx.el.div(rx.el.dt(t("Order number")), rx.el.dd(order["number"])),
        rx.el.div(
            rx.el.dt(t("Bundle")),
            rx.el.dd(tn("{count} credit", "{count} credits", order["credits"].to(int))),
        ),
        rx.el.div(rx.el.dt(t("Amount")), rx.el.dd(money(order["amount_cents"], order["currency"]))),
        rx.el.div(rx.el.dt(t("Payment method")), rx.el.dd(method_label(order["method"].to(str)))),
        class_name="result-facts",
    )


def _pending() -> rx.Component:
    return rx.fragment(
        rx.el.div(rx.spinner(size="3"), class_name="result-icon", data_tone="pending"),
        rx.el.h1(t("Your payment is being processed"), class_name="result-title"),
        rx.el.p(
            rx.cond(
                S.order["method"] == DIRECT_DEBIT,
                t(DEBIT_PENDING_NOTE),
                t("This page updates by itself as soon as the payment is confirmed."),
            ),
            class_name="muted",
            data_testid="pending-note",
        ),
        rx.cond(
            S.gave_up,
            rx.button(
                t("Check again"), variant="soft", on_click=S.check_again, data_testid="check-again"
            ),
        ),
    )


def _completed() -> rx.Component:
    order = S.order
    return rx.fragment(
        _result_icon("circle-check", "success"),
        rx.el.h1(t("Payment successful"), class_name="result-title"),
        rx.el.p(
            tn(
                "{count} credit has been added to your account.",
                "{count} credits have been added to your account.",
                order["credits"].to(int),
            )
        ),
        rx.el.p(
            tn(
                "Your balance: {count} credit",
                "Your balance: {count} credits",
                order["balance"].to(int),
            ),
            class_name="result-balance",
            data_testid="result-balance",
        ),
        rx.cond(
            order["status"] != "paid",
            rx.el.p(t_choice(ORDER_STATUS_LABELS, order["status"].to(str)), class_name="muted"),
        ),
        link_button(t("Search members"), href=url("members"), size="3"),
    )


def _unsuccessful(phase: str) -> rx.Component:
    """A failed or cancelled payment: its own heading, nothing charged, and a retry."""
    title, line = UNSUCCESSFUL[phase]
    order = S.order
    tier, method = order["tier"].to(str), order["method"].to(str)
    return rx.fragment(
        _result_icon("circle-x", "danger"),
        rx.el.h1(t(title), class_name="result-title", data_testid=f"payment-{phase}"),
        rx.el.p(t(line), class_name="muted"),
        rx.el.div(
            link_button(
                t("Try again"), href=credits_method_url(tier, method), size="3", data_testid="retry"
            ),
            rx.cond(
                method != "paypal",
                link_button(
                    t("Pay with PayPal"),
                    href=credits_method_url(tier, "paypal"),
                    size="3",
                    variant="soft",
                    data_testid="retry-paypal",
                ),
            ),
            class_name="result-actions",
        ),
    )


def _missing() -> rx.Component:
    return rx.fragment(
        _result_icon("search-x", "muted"),
        rx.el.h1(t("We could not find this payment."), class_name="result-title"),
    )


def _result() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.match(
                S.phase,
                (LOADING, rx.center(rx.spinner(size="3"), padding="32px")),
                (PENDING, _pending()),
                (COMPLETED, _completed()),
                (FAILED, _unsuccessful(FAILED)),
                (CANCELLED, _unsuccessful(CANCELLED)),
                (MISSING, _missing()),
            ),
            rx.cond(S.order.contains("id"), _details()),
            rx.link(t("Your purchases"), href=url("transactions"), class_name="purchases-link"),
            class_name="card result-card",
            data_phase=S.phase,
            data_testid="payment-result",
        ),
        class_name="container transactions-page",
        data_testid="page-transactions-id",
    )


@page("transactions", "transactions-id", on_load=[S.load_page])
def transactions_page() -> rx.Component:
    return rx.cond(S.is_list, _list(), _result())
