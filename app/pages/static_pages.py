"""The information pages under /pages/{slug}, also reachable as /{slug}."""

from collections.abc import Callable

import reflex as rx

from app.layouts import error_page
from app.pages.registry import page
from components.footer import contact_link
from components.i18n import local_date, t, tn
from components.statement import statement_view
from models.routes import STATIC_PAGES, static_page_title
from state.appeal import AppealState
from state.shell import ShellState
from state.site_info import site_text
from translations.catalog import N_

_SITE = {"site": site_text("name")}
BAN_STATEMENT_HINT = N_(
    "We have sent the account's owner a statement of reasons by e-mail, with a link to "
    "contest the decision."
)
_DELETION = N_(
    "You can delete your account at any time in your settings; after 14 days your data is erased."
)


def _points(*texts: rx.Var[str]) -> rx.Component:
    return rx.el.ul(*(rx.el.li(text) for text in texts), class_name="static-points")


def _contact_card() -> rx.Component:
    return rx.el.div(
        rx.el.strong(site_text("company")),
        rx.el.div(site_text("address"), ", ", site_text("city")),
        rx.el.div(contact_link("email")),
        rx.el.div(contact_link("phone")),
        class_name="card",
        margin_top="16px",
    )


def _faq(question: str, answer: str) -> rx.Component:
    return rx.el.details(rx.el.summary(t(question)), rx.el.p(t(answer)), class_name="card faq")


def _body(slug: str) -> rx.Component:
    days = {"days": ShellState.refund_days}
    bodies: dict[str, rx.Component] = {
        "terms": rx.fragment(
            rx.cond(ShellState.terms_date != "",  # it arrives with the shell's state
                    rx.el.p(t("These terms apply to every use of {site}. Version of {date}.",
                              site=site_text("name"), date=local_date(ShellState.terms_date)))),
            _points(
                t("You must be at least 18 years old to use {site}.", **_SITE),
                t("Credits are one-time purchases; there is no subscription."),
                tn("Unused credits can be refunded within {days} day of purchase.",
                   "Unused credits can be refunded within {days} days of purchase.",
                   ShellState.refund_days, **days),
                t("Treat other members with respect; we remove accounts that break these rules."),
            ),
        ),
        "privacy": rx.fragment(
            rx.el.p(t("We handle your personal data with care and only keep what the site needs.")),
            _points(
                t("Your exact location is never stored or shown; only your city."),
                t("Photos are stripped of hidden data such as GPS location when you upload them."),
                t(_DELETION),
            ),
            rx.el.p(t("US residents: we do not sell or share your personal information. "
                      "You can ask us what we hold about you at any time."), id="opt-out",
                    class_name="english-only"),
        ),
        "cookies": rx.el.p(t("We only use the cookies the site needs: your session, your "
                             "language and whether you saw the age notice.")),
        "ban": rx.cond(
            AppealState.found,
            statement_view(),  # the member's own statement: /pages/ban?statement=<token>
            rx.fragment(
                rx.el.p(t("This account has been blocked because it broke our terms and "
                          "conditions. Contact customer service if you think this is a mistake.")),
                rx.el.p(t(BAN_STATEMENT_HINT)),
                _contact_card(),
            ),
        ),
        "return-policy": rx.el.p(
            tn(
                "You can ask for a refund of unused credits within {days} day of purchase.",
                "You can ask for a refund of unused credits within {days} days of purchase.",
                ShellState.refund_days,
                **days,
            )
        ),
        "service": rx.fragment(
            rx.el.p(t("Questions? Our customer service team is happy to help.")), _contact_card()
        ),
        "faq": rx.fragment(
            _faq(N_("Is signing up free?"),
                 N_("Yes, creating a profile and searching members is free.")),
            _faq(N_("How do credits work?"), N_("Messages and gifts cost credits. You buy credits "
                 "once, without a subscription.")),
            _faq(N_("How do I delete my account?"), _DELETION),
        ),
    }  # fmt: skip
    return bodies[slug]


def static_page(slug: str) -> rx.Component:
    return rx.el.article(
        rx.el.h1(t(static_page_title(slug)), class_name="page-title"),
        _body(slug),
        class_name="container static-page",
        max_width="820px",
        data_testid=f"static-{slug}",
    )


@page("token")
def token_page() -> rx.Component:
    """/{token}: an information page by its short name, otherwise not found."""
    return rx.match(
        rx.State.token,
        *((slug, static_page(slug)) for slug in STATIC_PAGES),
        error_page(404),
    )


def _static_screen(slug: str) -> Callable[[], rx.Component]:
    def screen() -> rx.Component:
        return static_page(slug)

    return screen


_LOADS = {"ban": [AppealState.load]}  # the statement a ban page's link names

for _slug in STATIC_PAGES:
    page(f"pages-{_slug}", on_load=_LOADS.get(_slug, ()))(_static_screen(_slug))
