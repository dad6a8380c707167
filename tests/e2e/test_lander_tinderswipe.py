"""The swipe lander (issue 31) against the production build: the server's HTML already holds the
deck of real members in the visitor's language; in Chromium a pass (by keyboard or a swipe)
brings the next card with the focus on it, and a like opens the signup aimed at that member."""

import re
from pathlib import Path

import pytest
from journeys import NewPage, accept_entry_warning, expect, open_page
from lander_visits import html_of
from playwright.sync_api import Locator, Page
from server import Server

from components.landers.tinderswipe import SHOWN
from translations.catalog import gettext

PATH = "/landers/tinderswipe"
SHOTS = Path("/tmp/shots/tinderswipe")
CARD = re.compile(r'<article class="deck-card"[^>]*data-testid="swipe-card"')
pytestmark = pytest.mark.any_site  # browses only: also runs against E2E_URL


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_deck_before_any_javascript(site: Server, locale: str) -> None:
    html = html_of(site, PATH, locale)
    assert 0 < len(CARD.findall(html)) <= SHOWN
    assert 'data-testid="swipe-end"' in html
    assert f"<span>{gettext(locale, 'Pass')}</span>" in html
    assert re.search(r'class="deck-like" href="/members/\d+/signup"', html)
    assert 'fetchpriority="high"' in html


def _swipe_left(page: Page, card: Locator) -> None:
    box = card.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 160, y, steps=6)
    page.mouse.up()


@pytest.mark.parametrize(
    ("locale", "width"), [("en", 1280), ("en", 375), ("de-DE", 375), ("de-DE", 1280)]
)
def test_pass_like_and_the_signup(site: Server, new_page: NewPage, locale: str, width: int) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, PATH)
    accept_entry_warning(page)
    cards = page.get_by_test_id("swipe-card")
    expect(cards.first).to_be_visible()
    expect(cards.nth(1)).to_have_attribute("inert", "")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{locale[:2]}-{width}.png")

    cards.first.get_by_test_id("swipe-pass").focus()
    page.keyboard.press("Enter")
    expect(cards.first).to_have_attribute("data-gone", "")
    expect(cards.nth(1)).to_have_attribute("data-depth", "0")
    expect(cards.nth(1).get_by_test_id("swipe-pass")).to_be_focused()

    _swipe_left(page, cards.nth(1))
    expect(cards.nth(2)).to_have_attribute("data-depth", "0")
    page.wait_for_timeout(400)  # the passed card's flight
    page.screenshot(path=SHOTS / f"{locale[:2]}-{width}-passed.png")

    like = cards.nth(2).get_by_test_id("swipe-like")
    target = like.get_attribute("href")
    assert target and re.fullmatch(r"/members/\d+/signup", target)
    like.click()
    page.wait_for_url(re.compile(re.escape(site.url + target) + "/?$"))
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]
