"""The map lander (issue 31) against the production build: the server's HTML already holds the
map (sized: width, height, viewBox), the regions with the niche's counts, the asked region
first, and its members; in Chromium at a phone's and a desktop's width the map and the list
show without moving, a region leads to its own lander and the signup starts on the page.

The expected count is read from the server's database here, by the niche's definition in
docs/acquisition.md (women looking for men, 40 and older), not by the lander's own query."""

import re
from datetime import date
from html import escape
from pathlib import Path

import pytest
from journeys import NewPage, accept_entry_warning, create_account, expect, open_page, stored_photo
from lander_visits import html_of
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.directory import age_on
from models.member import Profile
from translations.catalog import N_plural, gettext

PATH = "/landers/maplanding/milf-noord-holland"
MEMBERS = N_plural("{count} member", "{count} members")
REGION = {"en": "North Holland", "de": "Nordholland"}
SVG = re.compile(r'<svg class="map-svg" viewBox="0 0 600 (\d+)" width="600" height="(\d+)"')
SHOTS = Path("/tmp/shots/maplanding")


def _milfs_in_noord_holland(engine: Engine) -> int:
    """Listed women looking for men, 40 or older, with a photo, in Noord-Holland."""
    today = date.today()
    with Session(engine) as db:
        profiles = db.exec(
            select(Profile).where(
                Profile.listed.is_(True),
                Profile.privacy_mode.is_(False),
                Profile.main_photo_id.is_not(None),
                Profile.gender == "female",
                Profile.sexuality.in_(("hetero", "bi")),
                Profile.region == "NL-NH",
            )
        ).all()
    return sum(age_on(p.date_of_birth, today) >= 40 for p in profiles)


@pytest.fixture(scope="module")
def amsterdammer(site: Server, site_db: Engine, tmp_path_factory) -> str:
    """A woman of 45 in Amsterdam with a photo: a member of milf-noord-holland."""
    born = date(date.today().year - 45, 1, 1)
    account = create_account(
        site_db, "nl", name="Marijke", gender="female", sexuality="hetero",
        date_of_birth=born, country="NL", region="NL-NH", city="Amsterdam",
    )  # fmt: skip
    stored_photo(site, site_db, account.member_id, tmp_path_factory.mktemp("photo"))
    return f"Marijke, {age_on(born, date.today())}"


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_map_and_counts_before_any_javascript(
    site: Server, site_db: Engine, amsterdammer: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    height, also = SVG.search(html).groups()
    assert height == also
    counted = gettext(locale, MEMBERS, count=_milfs_in_noord_holland(site_db))
    first = re.search(r'<ol class="map-list"[^>]*><li[^>]*>(.*?)</li>', html).group(1)
    assert escape(REGION[locale]) in first and escape(counted) in first
    assert 'aria-current="page"' in first
    assert escape(amsterdammer) in html


@pytest.mark.parametrize(("locale", "width"), [("de-DE", 375), ("en", 1280)])
def test_the_map_shows_without_moving_and_leads_to_the_signup(
    site: Server, new_page: NewPage, amsterdammer: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, PATH)
    language = locale[:2]
    svg = page.locator("svg.map-svg")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box is not None
    ratio = int(svg.get_attribute("height") or 0) / 600
    tallest = 0.78 * 800  # assets/site.css: max-height 78vh
    assert abs(box["height"] - min(box["width"] * ratio, tallest)) < 2  # known before it loads
    expect(page.get_by_test_id("map-list").locator("li").first).to_contain_text(REGION[language])
    expect(page.get_by_text(amsterdammer, exact=True)).to_be_attached()
    accept_entry_warning(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"e2e-{language}-{width}.png", full_page=True)
    page.get_by_test_id("lander-signup").first.click()
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_a_region_leads_to_its_own_lander_and_an_unknown_country_to_the_countries(
    site: Server, new_page: NewPage, amsterdammer: str
) -> None:
    page = new_page(locale="en", viewport=(1280, 800))
    open_page(page, site, PATH)
    page.get_by_test_id("map-list").get_by_role("link", name="Utrecht").click()
    expect(page).to_have_url(re.compile(r"/landers/maplanding/milf-utrecht$"))
    expect(page.get_by_test_id("map-list").locator("li").first).to_contain_text("Utrecht")
    open_page(page, site, "/landers/maplanding")
    expect(page.get_by_text("Members per country", exact=True)).to_be_visible()
    page.screenshot(path=SHOTS / "e2e-en-1280-countries.png", full_page=True)
    assert page.console_errors == []  # type: ignore[attr-defined]
