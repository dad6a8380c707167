"""The recently-active lander (issue 31) against the production build: members who just added a
photo in Amsterdam are in the server's HTML, counted with the wording of what was measured (the
last 24 hours), in the visitor's language; in Chromium the page shows them and the signup
starts on the page. Exact counts are the unit tests' (tests/unit/test_lander_alonetonight.py)."""

import re
from datetime import date
from html import escape, unescape
from pathlib import Path

import pytest
from journeys import NewPage, accept_entry_warning, create_account, expect, open_page, stored_photo
from lander_visits import html_of
from server import Server
from sqlalchemy import Engine

from actions.lander_reads import FEW_ACTIVE
from translations.catalog import gettext

PATH = "/landers/alonetonight/she-amsterdam"
SHOTS = Path("/tmp/shots/alonetonight")
MEANING = "Active means: sent a message or a like, swiped or added a photo."
COUNTED = {  # the 24 hours' wording, whatever the area the page shows
    "en": re.compile(r"(?:[^<:]+: )?(?:more than )?\d+ members were active in the last 24 hours"),
    "de": re.compile(r"(?:[^<:]+: )?(?:mehr als )?\d+ Mitglieder waren in den letzten 24 Stunden"),
}
CARD = re.compile(r'data-testid="lander-member">.*?member-card-name">([^<]*)<', re.S)


@pytest.fixture(scope="module")
def just_active(site: Server, site_db: Engine, tmp_path_factory) -> list[str]:
    """Women in Amsterdam looking for men who added their photo just now: active today."""
    folder = tmp_path_factory.mktemp("active")
    born = date(date.today().year - 31, 1, 1)
    names = []
    for number in range(FEW_ACTIVE):
        account = create_account(
            site_db, "nl", name=f"Active{number}", gender="female", sexuality="hetero",
            date_of_birth=born, country="NL", region="NL-NH", city="Amsterdam",
        )  # fmt: skip
        stored_photo(site, site_db, account.member_id, folder)
        names.append(f"Active{number}")
    return names


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_html_counts_the_active_before_any_javascript(
    site: Server, just_active: list[str], locale: str
) -> None:
    html = html_of(site, PATH, locale)
    assert COUNTED[locale].search(unescape(html))
    assert escape(gettext(locale, MEANING)) in html
    names = {unescape(card).rsplit(", ", 1)[0] for card in CARD.findall(html)}
    assert set(just_active) <= names
    assert "tonight" not in html.lower().replace("alonetonight", "")


@pytest.mark.parametrize(
    ("locale", "width"), [("en", 1280), ("en", 375), ("de-DE", 375), ("de-DE", 1280)]
)
def test_the_page_shows_them_and_starts_the_signup(
    site: Server, new_page: NewPage, just_active: list[str], locale: str, width: int
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    open_page(page, site, PATH)
    expect(page.get_by_text(just_active[0], exact=False).first).to_be_visible()
    accept_entry_warning(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{locale[:2]}-{width}.png", full_page=width > 400)
    page.get_by_test_id("lander-signup").first.click()
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]
