"""/transactions: the member's purchases with withdrawal; /transactions/{id}: one payment's
result (loading, pending, completed, failed or cancelled), updated live."""

import reflex as rx

from app.pages.registry import page
from components.bundles import no_purchase_yet
from components.confirm_dialog import confirm_content
from components.i18n import intl_format, t, t_choice, tn
from models.payment_methods import METHOD_LABELS
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
from translations.errors import PAYMENT_FAILED

STATUS_LABELS = {
    "open": N_("Waiting for payment"),
    "pending": N_("Being processed"),
    "paid": N_("Paid"),
    "failed": N_("Failed"),
    "canceled": N_("Cancelled"),
    "expired": N_("Expired"),
    "refunded": N_("Refunded"),
    "charged_back": N_("Charged back"),
}
REFUND_LABELS = {
    "queued": N_("Refund of {amount} under way"),
    "pending": N_("Refund of {amount} under way"),
    "processing": N_("Refund of {amount} under way"),
    "refunded": N_("{amount} refunded"),
    "failed": N_("The refund failed; the credits are back on your balance"),
    "canceled": N_("The refund failed; the credits are back on your balance"),
}
WITHDRAW_TEXT = N_plural(
    "You get {amount} back for your {credits} unused credit of this purchase. This credit "
    "leaves your balance now.",
    "You get {amount} back for your {credits} unused credits of this purchase. These credits "
    "leave your balance now.",
    "credits",
)
WITHDRAW_RULE = N_plural(
    "Within {days} day of a purchase you can withdraw from it.",
    "Within {days} days of a purchase you can withdraw from it.",
    "days",
)


def _when(iso: rx.Var[str]) -> rx.Var[str]:
    return rx.Var(intl_format(iso, "dateStyle: 'medium', timeStyle: 'short'")).to(str)


def _method_label(method: rx.Var[str]) -> rx.Var[str]:
    label = t_choice(METHOD_LABELS, method)
    return rx.cond(label, label, method)


def _refund_line(row: rx.Var[dict]) -> rx.Component:
    text = t_choice(REFUND_LABELS, row["refund_status"].to(str))
    amount = row["refund_amount"].to(str)
    return rx.cond(
        row["refund_status"] != "",
        rx.el.div(
            rx.icon("undo-2", size=14),
            rx.Var(f"({text} ?? '').replaceAll('{{amount}}', {amount})").to(str),
            class_name="order-refund",
        ),
    )


def _order_row(row: rx.Var[dict]) -> rx.Component:
    return rx.el.article(
        rx.el.div(
            rx.el.strong(tn("{count} credit", "{count} credits", row["credits"].to(int))),
            rx.el.span(row["amount"], class_name="order-amount"),
            class_name="order-top",
        ),
        rx.el.div(
            rx.el.span(_when(row["created_at"].to(str))),
            rx.el.span(_method_label(row["method"].to(str))),
            rx.el.span(
                t_choice(STATUS_LABELS, row["status"].to(str)),
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
                amount=row["refund_amount"].to(str),
                credits=row["refund_credits"].to(int),
            ),
            N_("Withdraw"),
            S.withdraw,
            "withdraw-confirm",
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
        rx.el.div(rx.el.dt(t("Amount")), rx.el.dd(order["amount"])),
        rx.el.div(rx.el.dt(t("Payment method")), rx.el.dd(_method_label(order["method"].to(str)))),
        class_name="result-facts",
    )


def _pending() -> rx.Component:
    return rx.fragment(
        rx.el.div(rx.spinner(size="3"), class_name="result-icon", data_tone="pending"),
        rx.el.h1(t("Your payment is being processed"), class_name="result-title"),
        rx.el.p(
            t("This page updates by itself as soon as the payment is confirmed."),
            class_name="muted",
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
            rx.el.p(t_choice(STATUS_LABELS, order["status"].to(str)), class_name="muted"),
        ),
        rx.link(rx.button(t("Search members"), size="3"), href=url("members"), underline="none"),
    )


def _failed() -> rx.Component:
    order = S.order
    tier, method = order["tier"].to(str), order["method"].to(str)
    return rx.fragment(
        _result_icon("circle-x", "danger"),
        rx.el.h1(t(PAYMENT_FAILED), class_name="result-title", data_testid="payment-failed"),
        rx.el.p(
            rx.cond(
                S.phase == CANCELLED,
                t("You cancelled the payment. Nothing was charged."),
                t("The payment did not go through. Nothing was charged."),
            ),
            class_name="muted",
        ),
        rx.el.div(
            rx.link(
                rx.button(t("Try again"), size="3"),
                href=credits_method_url(tier, method),
                underline="none",
                data_testid="retry",
            ),
            rx.cond(
                method != "paypal",
                rx.link(
                    rx.button(t("Pay with PayPal"), size="3", variant="soft"),
                    href=credits_method_url(tier, "paypal"),
                    underline="none",
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
                (FAILED, _failed()),
                (CANCELLED, _failed()),
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
