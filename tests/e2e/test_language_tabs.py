"""Two tabs of one browser (issue 28): after a member picks English in the second, reloading
the first, still in Finnish, shows English and leaves the browser's cookie at English, so a new
tab opens in English too."""

from journeys import (
    NewMember,
    NewPage,
    eventually,
    logged_in_page,
    member_row,
    open_page,
    wait_ready,
)
from playwright.sync_api import BrowserContext, Page, expect
from server import Server
from sqlalchemy import Engine

from translations.locales import LOCALE_COOKIE


def _cookie(context: BrowserContext) -> str | None:
    return next((c["value"] for c in context.cookies() if c["name"] == LOCALE_COOKIE), None)


def _shows(page: Page, locale: str) -> None:
    expect(page.get_by_test_id("language-menu")).to_contain_text(locale.upper())
    expect(page.locator("html")).to_have_attribute("lang", locale)


def test_a_reloaded_older_tab_follows_the_language_picked_in_another(
    site: Server, member: NewMember, new_page: NewPage, site_db: Engine
) -> None:
    account = member("fi")
    first = logged_in_page(new_page, site, account)
    _shows(first, "fi")
    context = first.context
    second = context.new_page()
    open_page(second, site, "/members")
    _shows(second, "fi")
    second.get_by_test_id("language-menu").click()
    second.get_by_test_id("language-en").click()
    _shows(second, "en")
    eventually(lambda: _cookie(context) == "en", "the cookie to say en")
    assert member_row(site_db, account.email).language == "en"

    first.reload()
    wait_ready(first, "/members")
    _shows(first, "en")
    assert _cookie(context) == "en"
    third = context.new_page()
    open_page(third, site, "/members")
    _shows(third, "en")


def test_the_language_page_saves_a_pick_to_the_account_and_the_cookie(
    site: Server, member: NewMember, new_page: NewPage, site_db: Engine
) -> None:
    account = member("fi")
    page = logged_in_page(new_page, site, account)
    open_page(page, site, "/lang-config")
    expect(page.get_by_test_id("lang-config-fi")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("lang-config-de").click()
    _shows(page, "de")
    expect(page.get_by_test_id("lang-config-de")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("lang-config")).to_contain_text("Sprache")
    eventually(lambda: _cookie(page.context) == "de", "the cookie to say de")
    assert member_row(site_db, account.email).language == "de"
