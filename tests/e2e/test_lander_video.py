"""The video lander (issue 31) against the production build: the server's HTML already holds the
headline, the honest count and the sequence of real members, the first photo fetched first; in
Chromium at 375 and 1280 px the first photo is the largest paint with nothing moving, the next
member fades in at their turn, the signup starts on the page, and with reduced motion the
sequence stands on the first photo with the members listed below."""

import re
from html import escape, unescape

import pytest
from journeys import NewPage, accept_entry_warning, expect, open_page
from lander_visits import SHOTS, VISITS, amsterdammer, html_of, plain_count_text, visit
from moving_landers import assert_fast_paint, shown
from server import Server
from sqlalchemy import Engine

from components.landers.reel import TURNS
from translations.catalog import gettext

KIND = "video"
PATH = f"/landers/{KIND}/amsterdam"
HEADLINE = "Meet new people and start chatting"
SLIDE = re.compile(r'<a class="lander-video-slide" href="(/members/\d+/signup)".*?name">([^<]*)<')


@pytest.fixture(scope="module")
def nearest(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> str:
    return amsterdammer(site, site_db, tmp_path_factory.mktemp("photo"), "Femke")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_sequence_before_any_javascript(
    site: Server, site_db: Engine, nearest: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    slides = [(link, unescape(name)) for link, name in SLIDE.findall(html)]
    assert escape(gettext(locale, HEADLINE)) in html
    assert escape(plain_count_text(site_db, locale, TURNS)) in html
    assert slides[0][1] == nearest and len(slides) == TURNS
    assert re.search(r'class="lander-video-slide"[^>]*><img[^>]*fetchpriority="high"', html)
    assert escape(gettext(locale, "In this video")) in html


@pytest.mark.parametrize(("locale", "width"), VISITS)
def test_the_sequence_plays_and_starts_the_signup(
    site: Server, site_db: Engine, new_page: NewPage, nearest: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, PATH)
    slides = page.locator(".lander-video-slide")
    assert shown(slides.first) and not shown(slides.nth(1))
    assert_fast_paint(page)
    if (locale, width) == VISITS[0]:  # once: the next member at their turn (6 s, faded in)
        accept_entry_warning(page)
        page.wait_for_timeout(7500)
        assert shown(slides.nth(1))
        (SHOTS / KIND).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / KIND / f"turn-2-{width}.png")
    count = plain_count_text(site_db, locale[:2], TURNS)
    visit(page, site, PATH, KIND, nearest, count)


def test_reduced_motion_stands_on_the_first_photo_with_the_list(
    site: Server, new_page: NewPage, nearest: str
) -> None:
    page = new_page(locale="en", viewport=(375, 800))
    page.emulate_media(reduced_motion="reduce")
    open_page(page, site, PATH)
    accept_entry_warning(page)
    slides = page.locator(".lander-video-slide")
    page.wait_for_timeout(3500)  # past when the next photo would have been laid out
    assert shown(slides.first) and not shown(slides.nth(1))
    assert slides.first.locator("img").evaluate("i => getComputedStyle(i).transform") == "none"
    expect(page.locator(".lander-video-cast").get_by_text(nearest)).to_be_visible()
    (SHOTS / KIND).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / KIND / "reduced-375.png", full_page=True)
