"""The stories lander (issue 31) against the production build: the server's HTML already holds
the headline, the honest count and the real members' stories with "Chat with {name}"; in
Chromium at 375 and 1280 px the first story is the largest paint with nothing moving, the next
slides in at its turn, the signup starts on the page, and with reduced motion the stories stand
still in a grid."""

import re
from html import escape

import pytest
from journeys import NewPage, accept_entry_warning, expect, open_page
from lander_visits import SHOTS, VISITS, amsterdammer, html_of, plain_count_text, visit
from moving_landers import assert_fast_paint, shown
from server import Server
from sqlalchemy import Engine

from components.landers.reel import TURNS
from translations.catalog import gettext

KIND = "transitionsvideolanding"
PATH = f"/landers/{KIND}/amsterdam"
HEADLINE = "Meet new people and start chatting"
CHAT = re.compile(r'<a class="story-chat" href="/members/\d+/signup"[^>]*>([^<]*)</a>')


@pytest.fixture(scope="module")
def nearest(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> str:
    return amsterdammer(site, site_db, tmp_path_factory.mktemp("photo"), "Sanne")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_stories_before_any_javascript(
    site: Server, site_db: Engine, nearest: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    assert escape(gettext(locale, HEADLINE)) in html
    assert escape(plain_count_text(site_db, locale, TURNS)) in html
    chats = CHAT.findall(html)
    assert chats[0] == escape(gettext(locale, "Chat with {name}", name="Sanne"))
    assert len(chats) == TURNS and html.count('class="story-bar"') == TURNS
    assert nearest in html and 'fetchpriority="high"' in html


@pytest.mark.parametrize(("locale", "width"), VISITS)
def test_the_stories_play_and_start_the_signup(
    site: Server, site_db: Engine, new_page: NewPage, nearest: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, PATH)
    stories = page.locator(".story")
    assert shown(stories.first) and not shown(stories.nth(1))
    assert_fast_paint(page)
    if (locale, width) == VISITS[0]:  # once: the next story slides in at its turn (5 s)
        accept_entry_warning(page)
        page.wait_for_timeout(6000)
        assert shown(stories.nth(1))
        (SHOTS / KIND).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / KIND / f"turn-2-{width}.png")
    count = plain_count_text(site_db, locale[:2], TURNS)
    visit(page, site, PATH, KIND, nearest, count)


def test_reduced_motion_stands_the_stories_still_in_a_grid(
    site: Server, new_page: NewPage, nearest: str
) -> None:
    page = new_page(locale="en", viewport=(375, 800))
    page.emulate_media(reduced_motion="reduce")
    open_page(page, site, PATH)
    accept_entry_warning(page)
    stories = page.locator(".story:not([aria-hidden])")
    expect(stories.nth(1)).to_be_visible()
    assert stories.first.bounding_box()["y"] == stories.nth(1).bounding_box()["y"]  # one row
    expect(page.locator(".story-bars")).to_be_hidden()
    (SHOTS / KIND).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / KIND / "reduced-375.png", full_page=True)
