"""The visitor's interface language: resolved once per tab, switched in place. Until the
server has resolved it, the page shows the language the server's HTML named (`text_locale`)."""

import json

import reflex as rx
from reflex_base.vars.base import VarData

from actions.language import save_language
from actions.runner import act
from state.document_values import REACT_HOOK_IMPORTS, document_value, read_once
from state.session import SessionState, current_viewer
from translations.locales import (
    DEFAULT_LOCALE,
    LOCALE_COOKIE,
    LOCALE_COOKIE_MAX_AGE,
    resolve_locale,
    supported,
)

# The locale the server wrote into <html data-locale> when the cookie, a ?lang= link or the
# browser's Accept-Language named it (app/document_head.py); kept on window after the first
# read. Reflex's prerender, which has no document, paints the frame with its texts as marks
# that the server fills in that locale (translations/prerender_marks.py), so the browser's
# first render, in the same locale, matches the HTML. With no locale named the browser shows
# the spinner until the server resolved one.
_DOCUMENT_LOCALE = document_value(
    "documentLocale",
    read_once(
        "documentLocale",
        json.dumps(DEFAULT_LOCALE),
        "document.documentElement.dataset.locale || ''",
    ),
).to(str)
# False while React hydrates the prerendered page (the server snapshot), true from then on.
_HYDRATED_HOOK = "const hydrated = useSyncExternalStore(() => () => {}, () => true, () => false);"
_HYDRATED = rx.Var(
    "hydrated", _var_data=VarData(hooks={_HYDRATED_HOOK: None}, imports=REACT_HOOK_IMPORTS)
).to(bool)


def set_html_lang(locale: str) -> rx.event.EventSpec:
    return rx.call_script(f"document.documentElement.lang = {json.dumps(locale)}")


class I18nState(rx.State):
    locale: str = DEFAULT_LOCALE
    ready: bool = False
    locale_cookie: str = rx.Cookie(
        "", name=LOCALE_COOKIE, max_age=LOCALE_COOKIE_MAX_AGE, same_site="lax", path="/"
    )
    _chosen: str = ""  # a language picked on the page in this tab; it wins at log-in

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
        self.locale = self.locale_cookie = self._chosen = locale
        if (await self.get_state(SessionState)).logged_in and (
            viewer := await current_viewer(self)
        ):
            await act(save_language, viewer, locale)
        return set_html_lang(locale)


def locale_known() -> rx.Var[bool]:
    """The page may paint: the server resolved the locale, or the document already named it."""
    return I18nState.ready | _DOCUMENT_LOCALE.bool()


def hydrated() -> rx.Var[bool]:
    """React has taken over the prerendered page: what the server could not write into it (a
    sentence split around links) may render now."""
    return _HYDRATED


def text_locale() -> rx.Var[str]:
    """The locale texts are looked up in: the resolved one, until then the document's (else
    en). The server wrote the prerendered page's texts in it, so the first render matches."""
    return rx.cond(
        I18nState.ready,
        I18nState.locale,
        rx.cond(_DOCUMENT_LOCALE, _DOCUMENT_LOCALE, DEFAULT_LOCALE),
    ).to(str)


def shown_locale() -> rx.Var[str]:
    """The locale of everything else (dates, numbers, country names): en, the prerender's, while
    React takes over the prerendered page, which has them in en; then `text_locale()`."""
    return rx.cond(_HYDRATED, text_locale(), DEFAULT_LOCALE).to(str)
