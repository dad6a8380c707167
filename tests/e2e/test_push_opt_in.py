"""The push opt-in shows the browser's real state on /notifications: a desktop browser that can
receive pushes is offered the switch-on; an iPhone outside the Home Screen app (Safari has no
PushManager there) is told how to get notifications, in the member's language."""

from collections.abc import Iterator

import pytest
from journeys import NewMember, expect, log_in, open_page, past_the_welcome_window
from playwright.sync_api import Browser, Page
from server import Server
from sqlalchemy import Engine

from translations.catalog import gettext

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
IOS_NOTE = (
    "On iPhone and iPad, notifications work once this site is on your Home Screen (iOS 16.4 or "
    "later): tap Share, then “Add to Home Screen”, and open the site from there."
)


@pytest.fixture
def iphone(browser: Browser) -> Iterator[Page]:
    """Safari on an iPhone as a web page sees it: no PushManager outside the Home Screen."""
    context = browser.new_context(
        locale="nl", user_agent=IPHONE, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    context.add_init_script("delete window.PushManager;")
    yield context.new_page()
    context.close()


def test_an_iphone_is_told_to_add_the_site_to_the_home_screen(
    site: Server, iphone: Page, member: NewMember, site_db: Engine
) -> None:
    account = past_the_welcome_window(site_db, member("nl"))
    log_in(iphone, site, account)
    open_page(iphone, site, "/notifications")
    state = iphone.get_by_test_id("push-state")
    expect(state).to_have_attribute("data-state", "ios_home_screen")
    expect(iphone.get_by_test_id("push-ios")).to_have_text(gettext("nl", IOS_NOTE))


def test_a_desktop_browser_is_offered_to_switch_push_on(
    site: Server, browser: Browser, member: NewMember, site_db: Engine
) -> None:
    context = browser.new_context(locale="en")
    page = context.new_page()
    try:
        log_in(page, site, past_the_welcome_window(site_db, member("en")))
        open_page(page, site, "/notifications")
        expect(page.get_by_test_id("push-state")).to_have_attribute("data-state", "not_subscribed")
        expect(page.get_by_test_id("push-turn-on")).to_be_visible()
        expect(page.get_by_test_id("push-ios")).to_have_count(0)
    finally:
        context.close()
