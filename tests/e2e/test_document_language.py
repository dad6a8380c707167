"""The server's HTML speaks the visitor's language, crawlers get robots.txt and a sitemap, and
a visitor whose browser names the language sees the page in it before the websocket answers."""

from collections.abc import Callable

import httpx
import pytest
from page_texts import english_text_in, foreign_text_in, html_text, wrong_plurals
from playwright.sync_api import Locator, Page, WebSocketRoute, expect
from server import Server

from models.routes import ROUTES
from models.site_settings import SiteSettings
from translations.catalog import gettext
from translations.locales import LOCALE_COOKIE, LOCALES
from translations.prerender_marks import has_leftovers

NewPage = Callable[..., Page]
pytestmark = pytest.mark.any_site  # browses only: also runs against E2E_URL
HOME_TITLE = "Dating and chat for adults"


def test_the_html_is_in_the_cookies_then_the_browsers_language(site: Server) -> None:
    with httpx.Client(base_url=site.url, follow_redirects=True) as client:
        german = client.get("/", headers={"accept-language": "de-DE,de;q=0.9"}).text
        assert '<html lang="de" data-locale="de" ' in german
        assert f"<title>{gettext('de', HOME_TITLE)}</title>" in german
        assert 'name="description"' in german and HOME_TITLE not in german
        client.cookies.set("i18n_redirected", "fi")
        finnish = client.get("/members", headers={"accept-language": "de"})
        assert '<html lang="fi" data-locale="fi" ' in finnish.text
        assert "Cookie" in finnish.headers["vary"] and "Accept-Language" in finnish.headers["vary"]


def test_the_text_checks_recognise_what_they_look_for() -> None:
    assert wrong_plurals("Masz 2 kredytów. Masz 5 kredytów.", "pl") == ["2 kredytów"]
    assert wrong_plurals("1 credits, 2 credits", "en") == ["1 credits"]
    assert wrong_plurals("22 kredyty", "pl") == [] and english_text_in("Inloggen", "nl") == []
    assert english_text_in("Log in", "nl") == ["Log in"] and english_text_in("Messages", "fr") == []
    assert html_text("<body><p>A&amp;B</p><script>x</script></body>").split() == ["A&B"]
    assert wrong_plurals("1\u00a0500 kredyty", "pl") == ["1\u00a0500 kredyty"]  # grouped
    assert foreign_text_in("Kreditkarte, 1 Credit", "en", "de") == ["Kreditkarte"]
    assert foreign_text_in("Credit card", "en", "de") == []  # de "Credit" is in an en text


@pytest.mark.parametrize("locale", LOCALES)
def test_every_route_is_served_written_in_the_locale(site: Server, locale: str) -> None:
    """The server's HTML of every route, at its own address (no redirect to add a slash): each
    text written in the locale (no mark left), no English interface text in another language,
    each count in the form it takes."""
    cookies = {LOCALE_COOKIE: locale}
    with httpx.Client(base_url=site.url, cookies=cookies) as client:
        for route in ROUTES:
            answer = client.get(route.sample)
            assert answer.status_code == 200, route.path
            html = answer.text
            text = html_text(html)
            assert f'<html lang="{locale}" data-locale="{locale}"' in html, route.path
            assert not has_leftovers(html), route.path
            assert english_text_in(text, locale) == [], route.path
            assert wrong_plurals(text, locale) == [], route.path


def test_robots_and_sitemap_are_not_the_sites_html(site: Server) -> None:
    with httpx.Client(base_url=site.url) as client:
        robots = client.get("/robots.txt")
        assert robots.headers["content-type"].startswith("text/plain")
        assert "Disallow: /api/" in robots.text
        sitemap = client.get("/sitemap.xml")
        assert sitemap.headers["content-type"].startswith("application/xml")
        assert 'hreflang="pl"' in sitemap.text


def test_the_frame_paints_in_the_browsers_language_without_the_websocket(
    site: Server, new_page: NewPage
) -> None:
    page = new_page(locale="de-DE")
    page.route_web_socket("**/_event**", lambda ws: _never_answer(ws))
    page.goto(site.url + "/")
    privacy = gettext("de", "Privacy statement")
    expect(page.get_by_role("link", name=privacy, exact=True)).to_be_visible()
    # the site's name and company details come with the page, not with the server's state
    settings = SiteSettings()
    expect(page.locator(".brand-name")).to_have_text(settings.name)
    age = gettext("de", "You must be 18 or older to use {site}.").format(site=settings.name)
    expect(page.get_by_test_id("disclaimer")).to_contain_text(age)
    expect(page.get_by_test_id("footer-visitor")).to_contain_text(f"© {settings.company_name}")
    email = page.get_by_role("link", name=settings.support_email)
    expect(email).to_have_attribute("href", f"mailto:{settings.support_email}")
    expect(page.get_by_test_id("page-ready")).to_have_count(0)  # the server never answered
    # nobody is asked to log in before the server said who they are: they may be a member
    expect(page.get_by_test_id("login-button")).to_have_count(0)
    assert page.console_errors == []  # type: ignore[attr-defined] - no hydration mismatch


def test_members_shows_its_first_results_before_the_websocket(
    site: Server, new_page: NewPage
) -> None:
    """The server writes the search's first page into /members; the live grid that replaces it
    once the websocket answers shows the same members in the same order."""
    waiting = new_page(locale="de-DE")
    waiting.route_web_socket("**/_event**", lambda ws: _never_answer(ws))
    waiting.goto(site.url + "/members")
    first = waiting.get_by_test_id("first-results")
    expect(first.locator("a.member-card").first).to_be_visible()
    expect(waiting.get_by_test_id("page-ready")).to_have_count(0)
    shown = _hrefs(first)
    count = first.locator(".search-count").inner_text()
    assert waiting.console_errors == []  # type: ignore[attr-defined] - no hydration mismatch

    live = new_page(locale="de-DE")
    live.goto(site.url + "/members")
    expect(live.get_by_test_id("first-results")).to_have_count(0)
    results = live.get_by_test_id("results")
    expect(results.locator("a.member-card")).to_have_count(len(shown))
    assert _hrefs(results) == shown
    expect(live.get_by_test_id("search-count")).to_have_text(count)
    assert live.console_errors == []  # type: ignore[attr-defined]


def _hrefs(grid: Locator) -> list[str]:
    return grid.locator("a.member-card").evaluate_all("cards => cards.map(c => c.pathname)")


def _never_answer(_socket: WebSocketRoute) -> None:
    """A websocket that is accepted and then silent: the server's state never arrives."""
