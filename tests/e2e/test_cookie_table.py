"""The cookie table (models/legal/cookies.py) against the browser: a visitor who arrives through a
partner's link and signs up, and a member who logs in, browses, chats, sends a gift, opens the
credits page and changes language, in Chromium. Every cookie and storage key either leaves
behind must be in the table, and the cookie policy page must list every row of it."""

import pytest
from journeys import (
    PASSWORD,
    Account,
    NewMember,
    NewPage,
    accept_entry_warning,
    arrive,
    expect,
    logged_in_page,
    open_page,
    past_the_welcome_window,
    unique_email,
)
from playwright.sync_api import Page
from server import Server
from sqlalchemy import Engine
from test_accounts import SIGNUP_STEPS, fill_account_step
from test_chat import WRITE_MY_OWN, with_credits

from actions.viewer import DEVICE_COOKIE, SESSION_COOKIE
from models.legal.cookies import STORAGE_NAMES, STORED_ITEMS, Storage, listed
from models.site_settings import SiteSettings
from services.click_cookie import CLICK_COOKIE
from translations.catalog import gettext
from translations.locales import LOCALE_COOKIE

Seen = set[tuple[Storage, str]]
CLOSE = "Close"  # the dismiss buttons' label (components/activation_reminder.py, time_bonus.py)
_STORAGE_KEYS = "[Object.keys(localStorage), Object.keys(sessionStorage)]"


def collect(page: Page, seen: Seen) -> None:
    """Add the page's cookies and both storages' keys as they are now."""
    for cookie in page.context.cookies():
        seen.add((Storage.COOKIE, cookie["name"]))
    local, session = page.evaluate(_STORAGE_KEYS)
    seen.update((Storage.LOCAL, key) for key in local)
    seen.update((Storage.SESSION, key) for key in session)


def close_if_shown(page: Page, test_id: str) -> None:
    shown = page.get_by_test_id(test_id)
    if shown.is_visible():
        shown.get_by_role("button", name=gettext("en", CLOSE)).click()
        expect(shown).to_have_count(0)


def skip_remaining_steps(page: Page) -> None:
    """Later on the photo, place, looks and about-me steps, Not now for notifications."""
    modal = page.get_by_test_id("signup-modal")
    for title in SIGNUP_STEPS:
        page.get_by_test_id("signup-skip").click()
        expect(modal).to_contain_text(gettext("en", title))


def sign_up_from_a_partner_link(page: Page, site: Server, seen: Seen) -> None:
    open_page(page, site, "/?network=partner&ref=cookie-table&sub1=a")
    accept_entry_warning(page)
    collect(page, seen)
    open_page(page, site, "/signup")
    fill_account_step(page, Account(unique_email("cookies"), PASSWORD, "en"))
    collect(page, seen)
    skip_remaining_steps(page)
    page.get_by_test_id("signup-finish").click()
    arrive(page, site, "/signup-matches?signup_complete=1")
    page.get_by_test_id("signup-matches-all").click()
    arrive(page, site, "/members?signup_complete=1")
    close_if_shown(page, "time-bonus-modal")
    close_if_shown(page, "activation-reminder")
    collect(page, seen)


def chat_and_change_language(page: Page, site: Server, partner_id: int, seen: Seen) -> None:
    open_page(page, site, f"/members/{partner_id}")
    collect(page, seen)
    open_page(page, site, f"/members/{partner_id}/chat")
    page.get_by_role("button", name=gettext("en", WRITE_MY_OWN)).click()
    page.get_by_test_id("open-gifts").click()
    page.get_by_test_id("gift-rose").click()
    expect(page.get_by_test_id("message")).to_have_count(1)
    page.get_by_test_id("chat-input").fill("Hello from the cookie table")
    collect(page, seen)  # the draft, before it is sent
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("message")).to_have_count(2)
    collect(page, seen)
    open_page(page, site, "/credits")
    collect(page, seen)
    page.get_by_test_id("language-menu").click()
    page.get_by_test_id("language-de").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    open_page(page, site, "/pages/cookies")
    collect(page, seen)


def test_every_cookie_and_storage_key_of_a_journey_is_in_the_table(
    site: Server, new_page: NewPage, member: NewMember, site_db: Engine
) -> None:
    seen: Seen = set()
    visitor = new_page(locale="en")
    sign_up_from_a_partner_link(visitor, site, seen)

    credits = SiteSettings().gift_credits + SiteSettings().message_credits
    buyer = past_the_welcome_window(site_db, with_credits(site_db, member("en"), credits))
    partner = member("en")
    chatter = logged_in_page(new_page, site, buyer)
    collect(chatter, seen)
    chat_and_change_language(chatter, site, partner.member_id, seen)

    expected = {
        (Storage.COOKIE, SESSION_COOKIE),
        (Storage.COOKIE, DEVICE_COOKIE),
        (Storage.COOKIE, LOCALE_COOKIE),
        (Storage.COOKIE, CLICK_COOKIE),
    }
    assert expected <= seen, "the journey did not reach what it walks through"
    unlisted = sorted(key for key in seen if not listed(*key))
    assert unlisted == [], f"not in models/legal/cookies.py: {unlisted}"
    assert visitor.console_errors == [] and chatter.console_errors == []


@pytest.mark.any_site
def test_the_cookie_policy_lists_every_row(site: Server, new_page: NewPage) -> None:
    page = new_page(locale="fr")
    open_page(page, site, "/pages/cookies")
    table = page.get_by_test_id("legal-cookies").locator("table")
    names = table.locator("code").all_inner_texts()
    assert names == [item.shown_name for item in STORED_ITEMS]
    expect(table).to_contain_text(gettext("fr", STORAGE_NAMES[Storage.LOCAL]))
    assert page.console_errors == []
