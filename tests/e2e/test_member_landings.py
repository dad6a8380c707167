"""A member's pages against the production build (issue 31, "Member landings"): the server's
HTML already holds the member (photo, name, age, place, about me, "Chat with {name}") in the
visitor's language on the three landings, the signup aimed at them and the profile; in Chromium
at 375 and 1280 px each design shows them and leads to the signup; the profile's first paint
does not move when the page takes over; a page of a hidden member leads to a lander of the
same niche with the query kept. Screenshots in /tmp/shots/members/."""

from dataclasses import dataclass
from datetime import date
from html import escape
from pathlib import Path

import httpx
import pytest
from journeys import (
    NewPage,
    accept_entry_warning,
    create_account,
    expect,
    open_page,
    stored_photo,
)
from playwright.sync_api import Browser
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session

from models.directory import age_on
from models.member import Profile
from translations.catalog import N_, gettext

SHOTS = Path("/tmp/shots/members")
CHAT_WITH = N_("Chat with {name}")
DESIGNS = ("landing", "landing2/milf-amsterdam", "landing3/milf")
VISITS = [("en", 375), ("de-DE", 375), ("en", 1280), ("de-DE", 1280)]
ABOUT = "I cycle along the Amstel every morning and love a good book afterwards."
QUERY = "network=n1&ref=r1&sub1=s1&clickid=c1"
CLS_SCRIPT = """
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
}).observe({type: "layout-shift", buffered: true});
"""


@dataclass(frozen=True)
class Shown:
    member_id: int
    name: str
    age: int


def _born(age: int) -> date:
    return date(date.today().year - age, 3, 1)


@pytest.fixture(scope="module")
def marieke(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> Shown:
    """A woman of 46 in Amsterdam with two photos and an about-me text."""
    account = create_account(
        site_db, "nl", name="Marieke", gender="female", sexuality="hetero",
        date_of_birth=_born(46), country="NL", region="NL-NH", city="Amsterdam",
        about_me=ABOUT, body_type="curvy", hair_colour="blond", eye_colour="blue",
    )  # fmt: skip
    folder = tmp_path_factory.mktemp("marieke")
    stored_photo(site, site_db, account.member_id, folder)
    stored_photo(site, site_db, account.member_id, folder)
    return Shown(account.member_id, "Marieke", age_on(_born(46), date.today()))


@pytest.fixture(scope="module")
def hidden_man(site_db: Engine) -> int:
    """A gay man who hid his profile: his pages lead to the gay lander."""
    account = create_account(
        site_db, "en", name="Hidden", gender="male", sexuality="gay", date_of_birth=_born(35)
    )
    with Session(site_db) as db:
        profile = db.get(Profile, account.member_id)
        profile.status = "disabled"
        db.add(profile)
        db.commit()
    return account.member_id


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_holds_the_member_before_any_javascript(
    site: Server, marieke: Shown, locale: str
) -> None:
    chat = escape(gettext(locale, CHAT_WITH, name=marieke.name))
    with httpx.Client(base_url=site.url, timeout=30) as client:
        for design in DESIGNS:
            html = client.get(f"/members/{marieke.member_id}/{design}?lang={locale}").text
            assert f"Marieke<span>, {marieke.age}</span>" in html, design
            assert chat in html and escape(ABOUT) in html, design
            assert f'href="/members/{marieke.member_id}/signup"' in html
            assert 'fetchpriority="high"' in html and "⟦" not in html
        signup = client.get(f"/members/{marieke.member_id}/signup?lang={locale}").text
        assert f"Marieke<span>, {marieke.age}</span>" in signup
        profile = client.get(f"/members/{marieke.member_id}?lang={locale}").text
        assert f'<h1 class="profile-name">Marieke<span>, {marieke.age}</span></h1>' in profile
        assert 'class="gallery-main-image"' in profile


def test_the_page_is_painted_without_javascript(
    site: Server, browser: Browser, marieke: Shown
) -> None:
    context = browser.new_context(
        java_script_enabled=False, locale="nl-NL", viewport={"width": 375, "height": 800}
    )
    page = context.new_page()
    page.goto(f"{site.url}/members/{marieke.member_id}/landing2/milf")
    expect(page.get_by_test_id("member-chat").first).to_have_text("Chat met Marieke")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "landing2-nl-375-without-javascript.png")
    context.close()


@pytest.mark.parametrize("design", DESIGNS)
@pytest.mark.parametrize(("locale", "width"), VISITS)
def test_each_design_shows_the_member_and_leads_to_the_signup(
    site: Server, new_page: NewPage, marieke: Shown, design: str, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, f"/members/{marieke.member_id}/{design}")
    language = locale[:2]
    chat = page.get_by_test_id("member-chat").first
    expect(chat).to_have_text(gettext(language, CHAT_WITH, name=marieke.name))
    expect(page.get_by_test_id("member-name").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sticks out
    accept_entry_warning(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    kind = design.split("/")[0]
    page.screenshot(path=SHOTS / f"{kind}-{language}-{width}.png", full_page=True)
    chat.click()
    page.wait_for_url(f"**/members/{marieke.member_id}/signup")
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    expect(page.get_by_test_id("signup-modal")).to_contain_text(marieke.name)
    assert page.console_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(("locale", "width"), [("en", 375), ("de-DE", 1280)])
def test_the_profiles_first_paint_does_not_move(
    site: Server, new_page: NewPage, marieke: Shown, locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    page.add_init_script(CLS_SCRIPT)
    open_page(page, site, f"/members/{marieke.member_id}")
    expect(page.get_by_test_id("like-button")).to_be_visible()
    expect(page.get_by_test_id("profile-name")).to_have_text(f"Marieke, {marieke.age}")
    page.wait_for_timeout(500)
    shift = page.evaluate("window.__cls")
    accept_entry_warning(page)
    page.screenshot(path=SHOTS / f"profile-{locale[:2]}-{width}.png")
    assert shift < 0.05, shift
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_a_hidden_members_pages_lead_to_the_lander_of_their_niche(
    site: Server, new_page: NewPage, hidden_man: int
) -> None:
    with httpx.Client(base_url=site.url, timeout=30) as client:
        for page_path, lander in (
            ("landing", "/landers/gallery/gay"),
            ("landing2/milf-berlin", "/landers/gallery/milf-berlin"),
            ("signup", "/landers/gallery/gay"),
        ):
            answer = client.get(f"/members/{hidden_man}/{page_path}?{QUERY}")
            assert answer.status_code == 307, page_path
            assert answer.headers["location"] == f"{lander}?{QUERY}"
            assert "traffic.click=" in answer.headers.get("set-cookie", "")
        assert client.get("/members/99999999/landing3").headers["location"] == "/landers/gallery"
    page = new_page(locale="en", viewport=(375, 800))
    page.goto(f"{site.url}/members/{hidden_man}/landing?{QUERY}")
    page.wait_for_url(f"**/landers/gallery/gay?{QUERY}")
    expect(page.get_by_test_id("page-landers-gallery")).to_be_visible()
