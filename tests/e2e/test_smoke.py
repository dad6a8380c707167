"""Every route hydrates in English and Dutch (a screen, or a route that still shows only its
title, counted apart); the 404 page, the language switch, phone width, the entry warning."""

import re
from collections.abc import Callable

import pytest
from page_texts import english_text_in, wrong_plurals
from playwright.sync_api import Page, expect
from server import Server

from app.pages.registry import declared_pages
from models.routes import ROUTES, Route
from translations.catalog import messages
from translations.errors import BACK_TO_HOME, PAGE_NOT_FOUND
from translations.prerender_marks import has_leftovers

NewPage = Callable[..., Page]
pytestmark = pytest.mark.any_site  # browses only: also runs against E2E_URL

LOCALES = ("en", "nl")
PAGE_READY = '[data-testid="page-ready"]'
LANGUAGE_MENU = '[data-testid="language-menu"]'
UNKNOWN_PATH = "/this/does/not/exist"
ENTRY_WARNING = '[data-testid="entry-warning"]'
# What iOS reports for a site started from the home screen; shell.js reads it.
INSTALLED_APP = "Object.defineProperty(navigator, 'standalone', {value: true})"


def open_ready(
    new_page: NewPage,
    url: str,
    locale: str,
    viewport: tuple[int, int] = (1280, 800),
    init_script: str | None = None,
) -> Page:
    """Open url and wait until the app has resolved the locale and run the page's on_load."""
    page = new_page(locale=locale, viewport=viewport)
    if init_script:
        page.add_init_script(init_script)
    page.goto(url)
    page.wait_for_selector(PAGE_READY, state="attached")
    return page


def translated(locale: str, msgid: str) -> str:
    """The catalogue's text for msgid in locale; a missing translation fails the test."""
    if locale == "en":
        return msgid
    text = messages(locale).get(msgid)
    assert text, f"translations/{locale}/LC_MESSAGES/messages.po does not translate {msgid!r}"
    return text


def console_errors(page: Page) -> list[str]:
    return page.console_errors  # type: ignore[attr-defined]


def _with_a_screen(route: Route) -> bool:
    declared = declared_pages().get(route.name)
    return bool(declared and declared.screen)


SCREENS = [route for route in ROUTES if _with_a_screen(route)]
TITLE_ONLY = [route for route in ROUTES if not _with_a_screen(route)]


def _in_each_locale(routes: list[Route]) -> list:
    return [
        pytest.param(route, locale, id=f"{route.name}-{locale}")
        for route in routes
        for locale in LOCALES
    ]


def assert_hydrated(page: Page, locale: str) -> None:
    """In the locale, without console errors, English left on a translated page, a count in a
    form it does not take, or a mark of the prerendered page."""
    expect(page.locator("html")).to_have_attribute("lang", locale)
    assert not console_errors(page), "console errors:\n" + "\n".join(console_errors(page))
    text = page.inner_text("body")
    english = english_text_in(text, locale)
    assert not english, f"untranslated English on the {locale} page: {english}"
    assert wrong_plurals(text, locale) == []
    assert not has_leftovers(text)


@pytest.mark.parametrize(("route", "locale"), _in_each_locale(SCREENS))
def test_screen_renders(site: Server, new_page: NewPage, route: Route, locale: str) -> None:
    assert_hydrated(open_ready(new_page, site.url + route.sample, locale), locale)


@pytest.mark.parametrize(("route", "locale"), _in_each_locale(TITLE_ONLY))
def test_route_without_its_screen_yet_shows_its_title(
    site: Server, new_page: NewPage, route: Route, locale: str
) -> None:
    page = open_ready(new_page, site.url + route.sample, locale)

    assert_hydrated(page, locale)
    if route.login_required:  # a visitor gets the log-in prompt first
        expect(page).to_have_url(re.compile(r"/login\?next="))
    else:
        expect(page.locator(f'[data-testid="page-{route.name}"]')).to_be_attached()


@pytest.mark.parametrize("locale", LOCALES)
def test_unknown_path_shows_not_found(site: Server, new_page: NewPage, locale: str) -> None:
    page = open_ready(new_page, site.url + UNKNOWN_PATH, locale)

    expect(page.get_by_text(translated(locale, PAGE_NOT_FOUND))).to_be_visible()
    home_link = page.locator('a[href="/"]', has_text=translated(locale, BACK_TO_HOME))
    expect(home_link).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", locale)


def test_language_switch_without_reload(site: Server, new_page: NewPage) -> None:
    page = open_ready(new_page, site.url + "/", "en")
    page.evaluate("window.__marker = 1")

    page.click(LANGUAGE_MENU)
    page.click('[data-testid="language-de"]')

    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.wait_for_function("document.cookie.includes('i18n_redirected=de')")
    assert page.evaluate("window.__marker") == 1
    cookies = {cookie["name"]: cookie["value"] for cookie in page.context.cookies()}
    assert cookies.get("i18n_redirected") == "de"
    assert not console_errors(page), "console errors:\n" + "\n".join(console_errors(page))


def test_landing_fits_phone_width(site: Server, new_page: NewPage) -> None:
    page = open_ready(new_page, site.url + "/", "en", viewport=(375, 812))

    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_entry_warning_on_the_web_but_never_in_the_installed_app(
    site: Server, new_page: NewPage
) -> None:
    web = open_ready(new_page, site.url + "/", "nl-NL")
    expect(web.locator(ENTRY_WARNING)).to_be_visible()

    app = open_ready(new_page, site.url + "/", "nl-NL", init_script=INSTALLED_APP)
    expect(app.locator("html")).to_have_attribute("data-app", "installed")
    expect(app.locator(ENTRY_WARNING)).to_have_count(0)
