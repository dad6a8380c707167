"""The gallery lander (issue 31) against the production build: the server's HTML already holds the
niche's honest headline, the counted number and real members, nearest first, in the visitor's
language; in Chromium the page shows them and the signup starts on the page.

The expected members and count are read from the server's database here, by the niche's
definition in docs/acquisition.md (women looking for men, 40 and older), not by the lander's
own query."""

import re
from datetime import date
from html import escape, unescape
from pathlib import Path

import pytest
from journeys import (
    NewPage,
    accept_entry_warning,
    create_account,
    expect,
    open_page,
    stored_photo,
)
from lander_visits import html_of
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from components.signup_modal import signup_later_steps
from models.directory import age_on
from models.member import Profile
from translations.catalog import N_plural, gettext

PATH = "/landers/gallery/milf-amsterdam"
SHOWN = 24  # components/landers/gallery.SHOWN
HEADLINE = "Meet women aged 40 and over who are looking for a man"
WITH_A_PHOTO = N_plural("{count} member with a photo", "{count} members with a photo")
IN_PLACE = N_plural("{place}: {count} member", "{place}: {count} members")
CARD = re.compile(r'data-testid="lander-member">.*?member-card-name">([^<]*)<', re.S)
PLACES = {"en": "Netherlands", "de": "Niederlande"}


def _milfs(engine: Engine) -> list[Profile]:
    """Listed women looking for men, 40 or older, with a photo, whom a visitor may see."""
    today = date.today()
    with Session(engine) as db:
        profiles = db.exec(
            select(Profile).where(
                Profile.listed.is_(True),
                Profile.privacy_mode.is_(False),
                Profile.main_photo_id.is_not(None),
                Profile.gender == "female",
                Profile.sexuality.in_(("hetero", "bi")),
            )
        ).all()
    return [p for p in profiles if age_on(p.date_of_birth, today) >= 40]


def _count_text(locale: str, milfs: list[Profile]) -> str:
    """The count the lander shows: the narrowest area holding a page of them."""
    in_region = [p for p in milfs if p.region == "NL-NH"]
    in_country = [p for p in milfs if p.country == "NL"]
    if len(in_region) >= SHOWN:
        return gettext(locale, IN_PLACE, place="Amsterdam", count=len(in_region))
    if len(in_country) >= SHOWN:
        return gettext(locale, IN_PLACE, place=PLACES[locale], count=len(in_country))
    return gettext(locale, WITH_A_PHOTO, count=len(milfs))


@pytest.fixture(scope="module")
def amsterdammer(site: Server, site_db: Engine, tmp_path_factory) -> str:
    """A woman of 45 in Amsterdam with a photo: the nearest member of milf-amsterdam."""
    born = date(date.today().year - 45, 1, 1)
    account = create_account(
        site_db,
        "nl",
        name="Liesbeth",
        gender="female",
        sexuality="hetero",
        date_of_birth=born,
        country="NL",
        region="NL-NH",
        city="Amsterdam",
    )
    stored_photo(site, site_db, account.member_id, tmp_path_factory.mktemp("photo"))
    return f"Liesbeth, {age_on(born, date.today())}"


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_members_before_any_javascript(
    site: Server, site_db: Engine, amsterdammer: str, locale: str
) -> None:
    html = html_of(site, PATH, locale)
    milfs = _milfs(site_db)
    names = {p.name for p in milfs}
    cards = [unescape(card) for card in CARD.findall(html)]
    assert escape(gettext(locale, HEADLINE)) in html
    assert escape(_count_text(locale, milfs)) in html
    assert cards[0] == amsterdammer  # the same city first
    assert len(cards) == min(SHOWN, len(milfs))
    assert {card.rsplit(", ", 1)[0] for card in cards} <= names


@pytest.mark.parametrize(("locale", "width"), [("de-DE", 375), ("en", 1280)])
def test_the_page_shows_them_and_starts_the_signup(
    site: Server,
    site_db: Engine,
    new_page: NewPage,
    amsterdammer: str,
    locale: str,
    width: int,
    tmp_path: Path,
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, PATH)
    language = locale[:2]
    expect(page.get_by_text(amsterdammer, exact=True)).to_be_visible()
    expect(page.get_by_text(_count_text(language, _milfs(site_db)), exact=True)).to_be_visible()
    accept_entry_warning(page)
    shot = tmp_path / f"lander-{language}-{width}.png"
    page.screenshot(path=shot, full_page=width > 400)
    page.get_by_test_id("lander-signup").first.click()
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_the_signups_later_steps_are_fetched_only_when_the_visitor_starts_it(
    site: Server, new_page: NewPage
) -> None:
    """The photo, place, looks, about-me and notification steps are a module of their own
    (components/lazy_module.py): not among a paid click's first scripts, fetched as the modal
    opens on its first step."""
    module = f"/{Path(signup_later_steps().library).name}-"  # Vite names a chunk by its module
    page = new_page(locale="en")
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    open_page(page, site, PATH)
    accept_entry_warning(page)
    page.wait_for_load_state("networkidle")
    assert fetched and not [url for url in fetched if module in url]
    with page.expect_request(lambda request: module in request.url):
        page.get_by_test_id("lander-signup").first.click()
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]
