"""/premium (members area): what premium gives and the bundles that bring it; /pricing (for
everyone): the bundles and the rules of buying them."""

import reflex as rx

from app.pages.registry import page
from components.bundles import VAT_NOTE, bundle_grid, bundle_link
from components.i18n import t
from components.link_button import link_button
from models.routes import static_page_url, url
from state.credits import CreditsState as S
from state.likes import NEWS_CHECKS
from state.session import SessionState
from state.shell import ShellState
from translations.catalog import N_, Counted, Message, N_plural

BENEFITS = (
    ("images", N_("Every photo sharp"), N_("See all photos of every member, not just a few.")),
    ("messages-square", N_("Chat without limits"), N_("Start as many chats as you like.")),
    ("crown", N_("The gold badge"), N_("Your profile shows the gold premium badge.")),
)
RULES = (
    ("receipt-text", VAT_NOTE),  # "receipt" shows a dollar sign
    ("repeat", N_("You pay once for each bundle you choose: nothing renews by itself.")),
    ("crown", N_("Your first purchase makes you a premium member.")),
    (
        "message-circle",
        N_plural(
            "A message costs {count} credit; unused credits stay on your account.",
            "A message costs {count} credits; unused credits stay on your account.",
        ),
    ),
)
REFUND_RULE = N_plural(
    "Changed your mind? Within {days} day of a purchase you can withdraw from it: we refund "
    "the price of the credits you have not used, pro rata, to the payment method you used.",
    "Changed your mind? Within {days} days of a purchase you can withdraw from it: we refund "
    "the price of the credits you have not used, pro rata, to the payment method you used.",
    "days",
)


def _benefit(icon: str, title: str, text: str) -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.icon(icon, size=22), class_name="step-icon"),
        rx.el.div(rx.el.strong(t(title)), rx.el.p(t(text), class_name="muted")),
        class_name="step",
    )


def _bundles() -> rx.Component:
    return rx.cond(
        S.loaded,
        bundle_grid(S.bundles, bundle_link),
        rx.center(rx.spinner(size="3"), padding="32px"),
    )


def _credits(text: Message) -> dict[str, rx.Var]:
    return {"count": S.message_credits} if isinstance(text, Counted) else {}


def rules() -> rx.Component:
    return rx.el.ul(
        *(rx.el.li(rx.icon(icon, size=18), t(text, **_credits(text))) for icon, text in RULES),
        rx.el.li(rx.icon("undo-2", size=18), t(REFUND_RULE, days=ShellState.refund_days)),
        class_name="pricing-rules",
        data_testid="pricing-rules",
    )


@page("premium", on_load=[S.load_price_list, *NEWS_CHECKS])
def premium_page() -> rx.Component:
    return rx.el.div(
        rx.el.section(
            rx.el.h1(
                rx.cond(
                    SessionState.paid_user,
                    t("You are a premium member"),
                    t("Become a premium member"),
                ),
                class_name="page-title",
            ),
            rx.cond(
                ~SessionState.paid_user,
                rx.el.p(
                    t("Buy any credit bundle once and you are premium: no subscription."),
                    class_name="premium-lead",
                    data_testid="premium-how",
                ),
            ),
            rx.el.div(*(_benefit(*benefit) for benefit in BENEFITS), class_name="steps"),
            class_name="premium-hero",
        ),
        rx.el.h2(t("Choose your bundle"), class_name="section-title"),
        _bundles(),
        rules(),
        class_name="container premium-page",
        data_testid="page-premium",
    )


@page("pricing", on_load=[S.load_price_list])
def pricing_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Pricing"), class_name="page-title"),
        rx.el.p(
            t("Credits pay for messages and gifts. Choose the bundle that suits you."),
            class_name="premium-lead",
        ),
        _bundles(),
        rules(),
        rx.el.p(
            rx.link(t("Right of withdrawal"), href=static_page_url("return-policy")),
            " · ",
            rx.link(t("Terms and conditions"), href=static_page_url("terms")),
            class_name="muted small pricing-links",
        ),
        rx.cond(
            ~SessionState.logged_in,
            link_button(t("Sign up for free"), href=url("signup"), size="3"),
        ),
        class_name="container premium-page",
        data_testid="page-pricing",
    )
