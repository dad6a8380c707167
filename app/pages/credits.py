"""/credits: choose a bundle, the country paid from, a discount code and a method, then pay at
the provider's checkout; /credits/{tier}/{method?}: the method choice of one bundle;
/credits/repeat-order: the last purchase again in one step."""

import reflex as rx

from actions.checkout import MAX_CODE_LENGTH
from app.pages.registry import page
from components.bundles import (
    COLLECTION_NOTE,
    INSTANT_NOTE,
    VAT_NOTE,
    bundle_choice,
    bundle_grid,
    list_price,
    method_label,
    no_purchase_yet,
    price,
)
from components.forms import post_form
from components.i18n import percent, t, tn
from components.member_card import countries_by_name, country_name
from components.time_bonus import countdown
from models.payment_methods import DIRECT_DEBIT
from models.routes import url
from state.credits import CreditsState as S
from translations.catalog import N_


def _balance() -> rx.Component:
    return rx.el.p(
        rx.icon("coins", size=18),
        tn("Your balance: {count} credit", "Your balance: {count} credits", S.balance),
        class_name="credits-balance",
        data_testid="credits-balance",
    )


def _discount_notice() -> rx.Component:
    """The discount that applies now: the welcome bonus with its countdown, or the code."""
    off = percent(S.discount["percentage"].to(int))
    return rx.cond(
        S.discount.contains("kind"),
        rx.el.div(
            rx.icon("badge-percent", size=22),
            rx.cond(
                S.discount["kind"] == "time_bonus",
                rx.fragment(
                    rx.el.span(
                        t("Welcome bonus: {percent} off your credits", percent=off),
                        class_name="discount-text",
                    ),
                    rx.el.span(
                        t("Ends in"),
                        countdown(S.discount["deadline_ms"].to(int)),
                        class_name="discount-ends",
                    ),
                ),
                rx.el.span(
                    t(
                        "Code {code}: {percent} off",
                        code=S.discount["code"].to(str),
                        percent=off,
                    ),
                    class_name="discount-text",
                ),
            ),
            class_name="discount-notice",
            data_countdown_scope=True,
            data_testid="discount-notice",
        ),
    )


def _step(number: int, title: str, *children: rx.Component) -> rx.Component:
    return rx.el.section(
        rx.el.h2(
            rx.el.span(str(number), class_name="step-number"), t(title), class_name="step-title"
        ),
        *children,
        class_name="purchase-step",
    )


def _country_select() -> rx.Component:
    return rx.el.label(
        rx.el.span(t("Country you pay from"), class_name="field-label"),
        rx.select.root(
            rx.select.trigger(width="100%", data_testid="payment-country"),
            rx.select.content(
                rx.foreach(
                    countries_by_name(S.countries),
                    lambda c: rx.select.item(country_name(c), value=c),
                )
            ),
            value=S.country,
            on_change=S.choose_country,
            size="3",
        ),
        class_name="field payment-country",
    )


def _method(method: rx.Var[dict]) -> rx.Component:
    selected = S.method == method["id"]
    return rx.el.button(
        rx.cond(
            method["image_url"] != "",
            rx.image(src=method["image_url"], alt="", width="32px", height="24px"),
            rx.icon("credit-card", size=22),
        ),
        rx.el.span(method_label(method["id"].to(str))),
        rx.cond(selected, rx.icon("circle-check", size=18, class_name="method-check")),
        type="button",
        on_click=S.choose_method(method["id"].to(str)),
        class_name="method-choice",
        data_selected=selected,
        aria_pressed=selected,
        data_testid=f"method-{method['id']}",
    )


def _methods() -> rx.Component:
    return rx.cond(
        ~S.methods_loaded,
        rx.center(rx.spinner(size="3"), padding="16px"),
        rx.cond(
            S.methods.length() > 0,
            rx.el.div(rx.foreach(S.methods, _method), class_name="method-grid"),
            rx.el.div(
                rx.callout(
                    t("No payment method is available right now. Please try again later."),
                    icon="triangle-alert",
                    color_scheme="amber",
                ),
                rx.button(t("Try again"), variant="soft", on_click=S.choose_tier(S.tier)),
                class_name="no-methods",
                data_testid="no-methods",
            ),
        ),
    )


def _code_form() -> rx.Component:
    applied = rx.el.div(
        rx.icon("ticket-percent", size=18),
        rx.el.span(S.code, class_name="code-applied-text"),
        rx.button(
            t("Remove"),
            variant="ghost",
            size="1",
            on_click=S.remove_code,
            data_testid="code-remove",
        ),
        class_name="code-applied",
        data_testid="code-applied",
    )
    entry = post_form(
        rx.el.div(
            rx.input(
                name="code",
                placeholder=t("Discount code"),
                aria_label=t("Discount code"),
                max_length=MAX_CODE_LENGTH,
                auto_complete="off",
                size="3",
                class_name="code-input",
                data_testid="code-input",
            ),
            rx.button(
                t("Apply"), type="submit", size="3", variant="soft", data_testid="code-apply"
            ),
            class_name="code-row",
        ),
        rx.cond(
            S.code_error != "",
            rx.el.div(
                S.code_error, class_name="field-error", role="alert", data_testid="code-error"
            ),
        ),
        on_submit=S.apply_code,
        reset_on_submit=False,
    )
    return rx.el.details(
        rx.el.summary(t("Do you have a discount code?")),
        rx.cond(S.code != "", applied, entry),
        class_name="code-box",
        open=(S.code != "") | (S.code_error != ""),  # a refused code stays in sight
    )


def _buy_error() -> rx.Component:
    return rx.cond(
        S.error != "",
        rx.callout(S.error, icon="triangle-alert", color_scheme="red", data_testid="buy-error"),
    )


def _price(chosen: rx.Var[dict]) -> tuple[rx.Component, rx.Component]:
    """What the chosen bundle costs; the list price struck through before it when discounted."""
    return (
        rx.cond(chosen["discounted"], rx.el.s(list_price(chosen), class_name="bundle-old-price")),
        rx.el.strong(price(chosen)),
    )


def _summary() -> rx.Component:
    chosen = S.chosen
    return rx.el.div(
        _buy_error(),
        rx.el.div(
            rx.el.span(tn("{count} credit", "{count} credits", chosen["credits"].to(int))),
            rx.el.span(*_price(chosen), class_name="summary-price"),
            class_name="summary-line",
        ),
        rx.button(
            rx.icon("lock", size=16),
            rx.cond(
                S.method == DIRECT_DEBIT,
                t("Continue"),
                t("Pay {price}", price=price(chosen)),
            ),
            size="4",
            width="100%",
            loading=S.busy,
            disabled=(S.method == "") | ~chosen.contains("tier"),
            on_click=S.buy,
            data_testid="buy-button",
        ),
        rx.el.p(t(VAT_NOTE), class_name="muted small"),
        rx.el.p(
            rx.icon("zap", size=14),
            rx.cond(S.method == DIRECT_DEBIT, t(COLLECTION_NOTE), t(INSTANT_NOTE)),
            class_name="muted small instant-note",
        ),
        class_name="card purchase-summary",
    )


def _purchase(title: str, bundles: rx.Component, testid: str) -> rx.Component:
    return rx.el.div(
        rx.el.h1(t(title), class_name="page-title"),
        _balance(),
        _discount_notice(),
        rx.cond(
            S.loaded,
            rx.el.div(
                rx.el.div(
                    _step(1, N_("Choose your bundle"), bundles),
                    _step(2, N_("Choose how to pay"), _country_select(), _methods()),
                    _code_form(),
                    class_name="purchase-main",
                ),
                _summary(),
                class_name="purchase-layout",
            ),
            rx.center(rx.spinner(size="3"), padding="48px"),
        ),
        rx.link(
            rx.icon("receipt-text", size=18),
            t("Your purchases"),
            rx.icon("chevron-right", size=18),
            href=url("transactions"),
            class_name="purchases-link",
        ),
        class_name="container credits-page",
        data_testid=testid,
    )


def _all_bundles() -> rx.Component:
    return bundle_grid(S.bundles, lambda b: bundle_choice(b, S.tier, S.choose_tier))


def _one_bundle() -> rx.Component:
    return rx.fragment(
        rx.el.div(
            rx.cond(
                S.chosen.contains("tier"),
                bundle_choice(S.chosen, S.tier, S.choose_tier),
            ),
            class_name="bundle-single",
        ),
        rx.link(t("Choose another bundle"), href=url("credits"), class_name="change-bundle"),
    )


@page("credits", on_load=[S.load_page])
def credits_page() -> rx.Component:
    return _purchase(N_("Buy credits"), _all_bundles(), "page-credits")


@page("credits-id-paymentmethod", on_load=[S.load_choice])
def credits_method_page() -> rx.Component:
    return _purchase(N_("Payment"), _one_bundle(), "page-credits-method")


def _repeat_card() -> rx.Component:
    chosen = S.chosen
    return rx.el.div(
        rx.icon("repeat", size=28, class_name="repeat-icon"),
        rx.el.h2(t("Buy the same again?"), class_name="repeat-title"),
        rx.el.dl(
            rx.el.div(
                rx.el.dt(t("Bundle")),
                rx.el.dd(tn("{count} credit", "{count} credits", chosen["credits"].to(int))),
            ),
            rx.el.div(rx.el.dt(t("Payment method")), rx.el.dd(method_label(S.last_method))),
            rx.el.div(
                rx.el.dt(t("Price")),
                rx.el.dd(*_price(chosen)),
            ),
            class_name="repeat-facts",
        ),
        _buy_error(),
        rx.button(
            t("Pay {price}", price=price(chosen)),
            size="4",
            width="100%",
            loading=S.busy,
            on_click=S.repeat,
            data_testid="repeat-button",
        ),
        rx.link(t("Choose another bundle"), href=url("credits"), class_name="change-bundle"),
        class_name="card repeat-card",
        data_testid="repeat-card",
    )


@page("credits-repeat-order", on_load=[S.load_repeat])
def repeat_order_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Repeat order"), class_name="page-title"),
        rx.cond(
            S.loaded,
            rx.cond(
                S.chosen.contains("tier"),
                _repeat_card(),
                no_purchase_yet("repeat-card", "repeat-none"),
            ),
            rx.center(rx.spinner(size="3"), padding="48px"),
        ),
        class_name="container credits-page",
        data_testid="page-credits-repeat-order",
    )
