"""The social network lander (issue 31) against the production build: the server's HTML already
holds the feed of members' latest events near the visitor with their real times in the
visitor's language; in Chromium at 375 and 1280 px the page shows them and the signup starts on
the page."""

from html import escape

import pytest
from journeys import NewPage
from lander_visits import amsterdammer, html_of, plain_count_text, visit
from server import Server
from sqlalchemy import Engine

from translations.catalog import N_, gettext

KIND = "socialnetwork"
PATH = f"/landers/{KIND}/amsterdam"
SHOWN = 20  # components/landers/socialnetwork.SHOWN
JOINED = N_("New member")
JUST_NOW = {"en": "1 minute ago", "de": "vor 1 Minute"}  # she joined as the module started


@pytest.fixture(scope="module")
def newest(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> str:
    return amsterdammer(site, site_db, tmp_path_factory.mktemp("photo"), "Sophie")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_feed_before_any_javascript(
    site: Server, site_db: Engine, newest: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    assert escape(plain_count_text(site_db, locale, SHOWN)) in html
    feed = html[html.index('data-testid="lander-feed"') :]
    assert escape(newest) in feed[: feed.index("</li>")]  # the newest event first
    assert escape(gettext(locale, JOINED)) in feed
    assert f">{escape(JUST_NOW[locale])}</time>" in feed


@pytest.mark.parametrize(
    ("locale", "width"), [("en", 375), ("de-DE", 375), ("en", 1280), ("de-DE", 1280)]
)
def test_the_feed_shows_and_starts_the_signup(
    site: Server, site_db: Engine, new_page: NewPage, newest: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    language = locale[:2]
    visit(page, site, PATH, KIND, newest, plain_count_text(site_db, language, SHOWN))
