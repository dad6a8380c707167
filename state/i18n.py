"""The visitor's interface language: resolved once per tab, switched in place. Until the
server has resolved it, the page shows the language the server's HTML named (`text_locale`)."""

import dataclasses
import json

import reflex as rx
from reflex_base.vars.base import VarData

from actions.language import save_language
from actions.runner import act
from actions.viewer import Viewer
from state.document_values import REACT_HOOK_IMPORTS, document_value, read_once
from state.session import SessionState, current_viewer
from translations.locales import (
    DEFAULT_LOCALE,
    LOCALE_COOKIE,
    LOCALE_COOKIE_MAX_AGE,
    cookie_locale,
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
        """Pick the locale from cookie, account, browser and domain; remember it in the cookie.
        The tab's state outlives a reload, so a page load follows the browser's cookie as it
        is now (another tab or a `?lang=` link may have changed it) over the tab's old locale,
        and a pick in this tab the cookie has replaced since no longer counts at log-in."""
        cookie = self._cookie_locale()
        if not self.ready or supported(cookie):
            self.locale = resolve_locale(
                cookie,
                account_language,
                self.router.headers.accept_language,
                domain_language,
            )
            self.ready = True
        if self._chosen != self.locale:
            self._chosen = ""
        if self.locale_cookie != self.locale:
            self.locale_cookie = self.locale
        return set_html_lang(self.locale)

    def _cookie_locale(self) -> str:
        """The locale cookie as the browser's hydrate delivered it, else as the websocket's
        request carried it: a state Reflex rebuilt on an ordinary event (Redis lost the tab's
        state) is hydrated without the browser's cookies, and the account's or the browser's
        language must not replace the one the visitor chose."""
        return self.locale_cookie or cookie_locale(self.router.headers.cookie)

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


async def in_page_language(state: rx.State, viewer: Viewer) -> Viewer:
    """`viewer` speaking the page's language, not the account's: what an action writes for
    this page or from it (an amount in an error, the order the member buys here with its
    receipt and the provider's checkout page) follows the page."""
    return dataclasses.replace(viewer, language=(await state.get_state(I18nState)).locale)


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
    """The page's language for what the server could not write into the prerendered page: en,
    the prerender's, while React takes over the prerendered page; then `text_locale()`."""
    return rx.cond(_HYDRATED, text_locale(), DEFAULT_LOCALE).to(str)


# Browser code `(language) => locale`: the first of the browser's languages that is `language`,
# with the region it names (en-GB, de-AT), else `language` itself; worked out once per language.
_REGIONAL = (
    "((l) => (globalThis.__regional ??= {})[l] ??= ((globalThis.navigator?.languages ?? [])"
    ".find((r) => r.toLowerCase().split('-')[0] === l) ?? l))"
)


def format_locale() -> rx.Var[str]:
    """The one locale dates, times, numbers, amounts and country names are written in: the
    page's language in the visitor's region where the browser names one (an en-GB browser on
    the English page gets British dates), else the page's language; en, the prerender's, while
    React takes over the prerendered page."""
    return rx.Var(
        f"({_HYDRATED} ? {_REGIONAL}({text_locale()}) : {json.dumps(DEFAULT_LOCALE)})"
    ).to(str)
