"""The question a logged-in member answers before going on when a newer version of the terms
and the privacy statement is in force (models/consent.py). It stays open on every members'
page until accepted, except on the two documents themselves, which the member may read first."""

import reflex as rx

from components.gate_dialog import gate_dialog
from components.i18n import local_date, t
from components.navigation import LOGOUT_URL
from models.consent import LEGAL_DOCUMENTS
from models.routes import static_page_url
from state.session import SessionState
from state.shell import ShellState
from state.site_info import site_text
from state.terms_update import TermsUpdateState
from translations.catalog import N_

READ_AND_ACCEPT = N_(
    "We have updated our terms and conditions and our privacy statement (version of {date}). "
    "Please read them and accept them to go on using {site}."
)
READABLE_HERE = [
    *(static_page_url(slug) for slug in LEGAL_DOCUMENTS),
    *(f"/{slug}" for slug in LEGAL_DOCUMENTS),
]


def terms_update() -> rx.Component:
    return gate_dialog(
        t("Our terms have changed"),
        t(READ_AND_ACCEPT, date=local_date(ShellState.terms_date), site=site_text("name")),
        rx.el.a(t("Logout"), href=LOGOUT_URL, data_logout="post", reload_document=True),
        rx.button(
            t("Accept and continue"), on_click=TermsUpdateState.accept, data_testid="accept-terms"
        ),
        extra=rx.el.ul(
            rx.el.li(rx.link(t("Terms and conditions"), href=static_page_url("terms"))),
            rx.el.li(rx.link(t("Privacy statement"), href=static_page_url("privacy"))),
            class_name="static-points",
        ),
        open=SessionState.terms_pending
        & ~rx.Var.create(READABLE_HERE).contains(rx.State.router.url.path),
        testid="terms-update",
    )
