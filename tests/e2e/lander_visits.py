"""What the browser tests of the landers' designs share (tests/e2e/test_lander_<kind>.py): a
member in Amsterdam with a photo, the plain niche's honest count read from the database here,
and a visit in Chromium that sees the server's members, screenshots the page into
/tmp/shots/<kind>/ and starts the signup without a console error."""

from datetime import date
from pathlib import Path

import httpx
from journeys import accept_entry_warning, create_account, expect, open_page, stored_photo
from playwright.sync_api import Page
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, col, func, select

from models.directory import age_on
from models.member import Profile
from translations.catalog import N_plural, gettext

SHOTS = Path("/tmp/shots")
VISITS = [("en", 375), ("de-DE", 375), ("en", 1280), ("de-DE", 1280)]  # (locale, width)
WITH_A_PHOTO = N_plural("{count} member with a photo", "{count} members with a photo")
IN_PLACE = N_plural("{place}: {count} member", "{place}: {count} members")
PLACES = {"en": ("Amsterdam", "Netherlands"), "de": ("Amsterdam", "Niederlande")}


def html_of(site: Server, path: str, locale: str) -> str:
    """The page the server sends a visitor of `locale`, before any JavaScript."""
    with httpx.Client(base_url=site.url, timeout=30) as client:
        return client.get(path, headers={"accept-language": locale}).text


def amsterdammer(site: Server, engine: Engine, folder: Path, name: str) -> str:
    """A woman of 45 in Amsterdam with a photo; her card's name as the lander writes it."""
    born = date(date.today().year - 45, 1, 1)
    account = create_account(
        engine, "nl", name=name, gender="female", sexuality="hetero", date_of_birth=born,
        country="NL", region="NL-NH", city="Amsterdam",
    )  # fmt: skip
    stored_photo(site, engine, account.member_id, folder)
    return f"{name}, {age_on(born, date.today())}"


def plain_count_text(engine: Engine, locale: str, shown: int) -> str:
    """The count of `/landers/<kind>/amsterdam`: listed members with a photo whom a visitor may
    see, in the narrowest area (Noord-Holland, the Netherlands, anywhere) holding a page."""
    listed = (
        col(Profile.listed).is_(True),
        col(Profile.privacy_mode).is_(False),
        col(Profile.main_photo_id).is_not(None),
    )
    with Session(engine) as db:

        def count(*where: object) -> int:
            return db.exec(select(func.count()).where(*listed, *where)).one()

        in_region, in_country = count(Profile.region == "NL-NH"), count(Profile.country == "NL")
        everyone = count()
    city, country = PLACES[locale]
    if in_region >= shown:
        return gettext(locale, IN_PLACE, place=city, count=in_region)
    if in_country >= shown:
        return gettext(locale, IN_PLACE, place=country, count=in_country)
    return gettext(locale, WITH_A_PHOTO, count=everyone)


def visit(page: Page, site: Server, path: str, kind: str, *seen: str) -> None:
    """Open the lander, see `seen`, keep a screenshot and start the signup."""
    open_page(page, site, path)
    for text in seen:
        expect(page.get_by_text(text, exact=True).first).to_be_visible()
    accept_entry_warning(page)
    width = page.viewport_size["width"] if page.viewport_size else 0
    language = page.evaluate("document.documentElement.lang")
    (SHOTS / kind).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / kind / f"{language}-{width}.png", full_page=True)
    page.get_by_test_id("lander-signup").first.click()
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]
