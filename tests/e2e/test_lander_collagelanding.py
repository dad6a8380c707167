"""The collage lander (issue 31) against the production build: the server's HTML already holds
the headline, the honest count and the members' tiles, nearest first, each leading to the signup
aimed at that member; in Chromium at 375 and 1280 px the page shows them and the signup starts
on the page."""

import re
from html import escape, unescape

import pytest
from journeys import NewPage
from lander_visits import amsterdammer, html_of, plain_count_text, visit
from server import Server
from sqlalchemy import Engine

from translations.catalog import gettext

KIND = "collagelanding"
PATH = f"/landers/{KIND}/amsterdam"
SHOWN = 24  # components/landers/collagelanding.SHOWN
HEADLINE = "Meet new people and start chatting"
TILE = re.compile(
    r'href="(/members/\d+/signup)" data-testid="lander-member">.*?name">([^<]*)<', re.S
)


@pytest.fixture(scope="module")
def nearest(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> str:
    return amsterdammer(site, site_db, tmp_path_factory.mktemp("photo"), "Marloes")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_tiles_before_any_javascript(
    site: Server, site_db: Engine, nearest: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    tiles = [(link, unescape(name)) for link, name in TILE.findall(html)]
    assert escape(gettext(locale, HEADLINE)) in html
    assert escape(plain_count_text(site_db, locale, SHOWN)) in html
    assert tiles[0][1] == nearest  # the same city, the newest first
    assert 0 < len(tiles) <= SHOWN and 'class="collage"' in html


@pytest.mark.parametrize(
    ("locale", "width"), [("en", 375), ("de-DE", 375), ("en", 1280), ("de-DE", 1280)]
)
def test_the_collage_shows_and_starts_the_signup(
    site: Server, site_db: Engine, new_page: NewPage, nearest: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    count = plain_count_text(site_db, locale[:2], SHOWN)
    visit(page, site, PATH, KIND, nearest, count)
