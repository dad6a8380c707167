"""The icons lander (issue 31) against the production build: the server's HTML already holds
the headline, the honest count, the six promises with their inline icons and the members behind
them, in the visitor's language; in Chromium at 375 and 1280 px the page shows them and the
signup starts on the page."""

from html import escape

import pytest
from journeys import NewPage
from lander_visits import amsterdammer, html_of, plain_count_text, visit
from server import Server
from sqlalchemy import Engine

from translations.catalog import N_, gettext

KIND = "iconslanding"
PATH = f"/landers/{KIND}/amsterdam"
SHOWN = 18  # components/landers/iconslanding.SHOWN
FIRST, LAST = N_("Free to sign up"), N_("Use the site in your own language.")


@pytest.fixture(scope="module")
def nearest(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> str:
    return amsterdammer(site, site_db, tmp_path_factory.mktemp("photo"), "Ilse")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_promises_before_any_javascript(
    site: Server, site_db: Engine, nearest: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    assert escape(plain_count_text(site_db, locale, SHOWN)) in html
    assert escape(gettext(locale, FIRST)) in html and escape(gettext(locale, LAST)) in html
    assert html.count('class="promise-icon"><svg') == 6
    assert escape(nearest) in html


@pytest.mark.parametrize(
    ("locale", "width"), [("en", 375), ("de-DE", 375), ("en", 1280), ("de-DE", 1280)]
)
def test_the_promises_show_and_start_the_signup(
    site: Server, site_db: Engine, new_page: NewPage, nearest: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    language = locale[:2]
    seen = (nearest, gettext(language, FIRST), plain_count_text(site_db, language, SHOWN))
    visit(page, site, PATH, KIND, *seen)
