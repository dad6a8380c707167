"""The information pages under /pages/{slug}, also reachable as /{slug}."""

from collections.abc import Callable

import reflex as rx

from app.layouts import error_page
from app.pages.registry import page
from components.contact_form import contact_form
from components.footer import contact_link
from components.i18n import t
from components.legal_document import legal_document
from components.statement import statement_view
from models.legal.privacy import PRIVACY
from models.legal.privacy_us import PRIVACY_US
from models.legal.registry import LEGAL_DOCUMENTS
from models.routes import STATIC_PAGES, static_page_title
from state.appeal import AppealState
from state.legal import LegalState
from state.service_contact import ServiceContactState
from state.site_info import site_text
from translations.catalog import N_

BAN_STATEMENT_HINT = N_(
    "We have sent the account's owner a statement of reasons by e-mail, with a link to "
    "contest the decision."
)
US_REGION = rx.State.router.url.query_parameters.to(dict)["region"] == "us"


def _contact_card() -> rx.Component:
    return rx.el.div(
        rx.el.strong(site_text("company")),
        rx.el.div(site_text("address"), ", ", site_text("city")),
        rx.el.div(contact_link("email")),
        rx.el.div(contact_link("phone")),
        class_name="card",
        margin_top="16px",
    )


def _body(slug: str) -> rx.Component:
    if slug == "privacy":  # ?region=us: the US notice the English footer links to
        return rx.cond(US_REGION, legal_document(PRIVACY_US), legal_document(PRIVACY))
    if document := LEGAL_DOCUMENTS.get(slug):
        return legal_document(document)
    bodies: dict[str, rx.Component] = {
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
        "service": rx.fragment(
            rx.el.p(t("Questions? Our customer service team is happy to help.")),
            contact_form(),
            _contact_card(),
        ),
    }  # fmt: skip
    return bodies[slug]


def _title(slug: str) -> rx.Var[str]:
    title = t(static_page_title(slug))
    return rx.cond(US_REGION, PRIVACY_US.title, title) if slug == "privacy" else title


def static_page(slug: str) -> rx.Component:
    return rx.el.article(
        rx.el.h1(_title(slug), class_name="page-title"),
        _body(slug),
        class_name="container static-page",
        max_width="820px",
        data_testid=f"static-{slug}",
    )


@page("token", on_load=[LegalState.load])  # it shows the legal documents too
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


_LOADS = {
    "ban": [AppealState.load],  # the statement a ban page's link names
    "service": [ServiceContactState.load],
    **{slug: [LegalState.load] for slug in LEGAL_DOCUMENTS},  # the facts the texts name
}

for _slug in STATIC_PAGES:
    page(f"pages-{_slug}", on_load=_LOADS.get(_slug, ()))(_static_screen(_slug))
