"""The visitor's interface language: resolved once per tab, switched in place."""

import json

import reflex as rx

from actions.language import save_language
from actions.runner import act
from state.session import SessionState, current_viewer
from translations.locales import (
    DEFAULT_LOCALE,
    LOCALE_COOKIE,
    LOCALE_COOKIE_MAX_AGE,
    resolve_locale,
    supported,
)


def set_html_lang(locale: str) -> rx.event.EventSpec:
    return rx.call_script(f"document.documentElement.lang = {json.dumps(locale)}")


class I18nState(rx.State):
    locale: str = DEFAULT_LOCALE
    ready: bool = False
    locale_cookie: str = rx.Cookie(
        "", name=LOCALE_COOKIE, max_age=LOCALE_COOKIE_MAX_AGE, same_site="lax", path="/"
    )

    def _resolve(self, account_language: str | None, domain_language: str) -> rx.event.EventSpec:
        """Pick the locale from cookie, account, browser and domain; remember it in the cookie."""
        if not self.ready:
            self.locale = resolve_locale(
                self.locale_cookie,
                account_language,
                self.router.headers.accept_language,
                domain_language,
            )
            self.ready = True
        if self.locale_cookie != self.locale:
            self.locale_cookie = self.locale
        return set_html_lang(self.locale)

    @rx.event
    async def switch(self, code: str) -> rx.event.EventSpec | None:
        """Change language in place; a logged-in member's choice is saved on the account."""
        locale = supported(code)
        if locale is None:
            return None
        self.locale = self.locale_cookie = locale
        if (await self.get_state(SessionState)).logged_in and (
            viewer := await current_viewer(self)
        ):
            await act(save_language, viewer, locale)
        return set_html_lang(locale)
