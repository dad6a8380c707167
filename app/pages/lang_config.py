"""/lang-config: the interface language as a page of its own, for the link in mails and the
installed app. A choice changes the page in place, is kept in the locale cookie and, for a
member, saved to the account (I18nState.switch)."""

import reflex as rx

from app.pages.registry import page
from components.forms import auth_card
from components.i18n import t
from components.link_button import link_button
from models.routes import url
from state.i18n import I18nState
from translations.catalog import N_
from translations.locales import LANGUAGE_NAMES, LOCALES

CHOICE_HINT = N_("The site, our e-mails and notifications will be in the language you choose.")


def _choice(code: str) -> rx.Component:
    chosen = I18nState.locale == code
    return rx.el.li(
        rx.el.button(
            rx.el.span(LANGUAGE_NAMES[code], lang=code),
            rx.cond(chosen, rx.icon("check", size=18, aria_hidden="true")),
            type="button",
            on_click=I18nState.switch(code),
            aria_pressed=chosen,
            class_name=rx.cond(chosen, "language-choice chosen", "language-choice"),
            data_testid=f"lang-config-{code}",
        )
    )


@page("lang-config")
def lang_config() -> rx.Component:
    return auth_card(
        t("Language"),
        rx.el.p(t(CHOICE_HINT)),
        rx.el.ul(*(_choice(code) for code in LOCALES), class_name="language-choices"),
        link_button(t("Back to the home page"), href=url("index"), variant="soft"),
        testid="lang-config",
    )
