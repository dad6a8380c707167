"""The credit bundles p0 to p3 as cards: credits, what they mean in messages, the price (the old
one struck through under a discount) and the price per message; one labelled popular. Prices,
numbers and method names are written in the page's language by the browser."""

from collections.abc import Callable

import reflex as rx

from components.i18n import money, number, percent, t, t_choice, tn, tp
from components.link_button import link_button
from models.payment_methods import METHOD_LABELS
from models.routes import credits_method_url, url
from translations.catalog import N_

Bundle = rx.Var[dict]  # a BundleView of actions/payment_views.py
VAT_NOTE = N_("Prices include VAT. One-time purchase, no subscription.")
INSTANT_NOTE = N_("You receive your credits instantly after payment.")
COLLECTION_NOTE = N_(
    "Your credits arrive as soon as the direct debit has been collected, usually within a few "
    "working days."
)


def price(bundle: Bundle) -> rx.Var[str]:
    """What the bundle costs now, in the page's language."""
    return money(bundle["cents"], bundle["currency"])


def list_price(bundle: Bundle) -> rx.Var[str]:
    """What the bundle costs without the discount, in the page's language."""
    return money(bundle["list_cents"], bundle["currency"])


def method_label(method: rx.Var[str]) -> rx.Var[str]:
    """A payment method's name in the page's language (a brand as it is); an unknown id as it
    is."""
    label = t_choice(METHOD_LABELS, method)
    return rx.cond(label, label, method).to(str)


def _body(bundle: Bundle) -> rx.Component:
    percentage = bundle["percentage"].to(int)
    return rx.fragment(
        rx.cond(
            bundle["popular"],
            rx.el.span(t("Most popular"), class_name="bundle-popular"),
        ),
        rx.el.div(
            rx.el.span(number(bundle["credits"]), class_name="bundle-credits-number"),
            rx.el.span(
                tn("credit", "credits", bundle["credits"].to(int)),
                class_name="bundle-credits-unit",
            ),
            class_name="bundle-credits",
        ),
        rx.el.div(
            tn("{count} message", "{count} messages", bundle["messages"].to(int)),
            class_name="bundle-messages",
        ),
        rx.el.div(
            rx.cond(
                bundle["discounted"],
                rx.el.div(
                    rx.el.s(list_price(bundle), class_name="bundle-old-price"),
                    rx.cond(
                        percentage > 0,
                        rx.el.span(percent(-percentage), class_name="bundle-discount"),
                    ),
                    class_name="bundle-was",
                ),
            ),
            rx.el.span(price(bundle), class_name="bundle-price-now"),
            class_name="bundle-price",
        ),
        rx.el.div(
            t(
                "{price} per message",
                price=money(bundle["per_message_cents"], bundle["currency"]),
            ),
            class_name="bundle-per-message",
        ),
    )


def bundle_choice(
    bundle: Bundle,
    chosen: rx.Var[str],
    on_choose: Callable[[rx.Var[str]], rx.event.EventSpec],
) -> rx.Component:
    """A bundle the member picks on the purchase page."""
    selected = chosen == bundle["tier"]
    return rx.el.button(
        _body(bundle),
        type="button",
        on_click=on_choose(bundle["tier"].to(str)),
        class_name="bundle-card",
        data_popular=bundle["popular"],
        data_selected=selected,
        aria_pressed=selected,
        data_testid=f"bundle-{bundle['tier']}",
    )


def bundle_link(bundle: Bundle) -> rx.Component:
    """A bundle on /premium and /pricing: it leads to the purchase of that bundle."""
    return rx.link(
        _body(bundle),
        rx.el.span(tp("bundle button", "Choose"), class_name="bundle-choose"),
        href=credits_method_url(bundle["tier"].to(str)),
        class_name="bundle-card",
        data_popular=bundle["popular"],
        underline="none",
        data_testid=rx.Var.create("bundle-") + bundle["tier"].to(str),
    )


def no_purchase_yet(card_class: str, testid: str) -> rx.Component:
    """Where a member's earlier purchases would be: none yet, and the way to the first."""
    return rx.el.div(
        rx.icon("receipt-text", size=32, class_name="empty-icon"),
        rx.el.p(t("You haven't bought any credits yet.")),
        link_button(t("Buy credits"), href=url("credits"), size="3"),
        class_name=f"card {card_class}",
        data_testid=testid,
    )


def bundle_grid(
    bundles: rx.Var[list[dict]], card: Callable[[Bundle], rx.Component]
) -> rx.Component:
    return rx.el.div(rx.foreach(bundles, card), class_name="bundle-grid", data_testid="bundles")
