"""Cam promotion cards and a lander's variant against the production build (issue 31): with the
cards switched on, a visitor sees the partner's card, marked as an advertisement and linking
with our code and its placement, only once they confirmed the entry warning, never before and
never where they were not asked; a lander with one variant writes that variant's headline into
the server's HTML and keeps it in the visitor's cookie."""

import time
from collections.abc import Iterator

import httpx
import pytest
from journeys import NewMember, NewPage, accept_entry_warning, expect, logged_in_page, open_page
from server import SETTINGS_CACHE_SECONDS, Server
from sqlalchemy import Engine
from sqlmodel import Session

from models.site_settings import SiteSettings, save_setting
from translations.catalog import gettext

LINK = "https://campals.example/?aff=7&s={placement}"
CHAT = "Start a conversation with someone near you"  # the variant's headline
VARIANT = {"lander": "gallery", "name": "chat", "weight": 100, "headline": "chat",
           "accent": "purple"}  # fmt: skip
SETTINGS = {
    "cam_promotion": True,
    "cam_partner_name": "CamPals",
    "cam_partner_url": LINK,
    "lander_variants": [VARIANT],
}


def _save(engine: Engine, values: dict) -> None:
    with Session(engine) as db:
        for key, value in values.items():
            save_setting(db, key, value)
        db.commit()


@pytest.fixture(scope="module", autouse=True)
def switched_on(site_db: Engine) -> Iterator[None]:
    """The cards and the variant for this module; the seeded settings again after it, once the
    servers' settings cache has seen each change."""
    _save(site_db, SETTINGS)
    time.sleep(SETTINGS_CACHE_SECONDS)
    yield
    defaults = SiteSettings()
    _save(site_db, {key: getattr(defaults, key) for key in SETTINGS})
    time.sleep(SETTINGS_CACHE_SECONDS)


def test_the_variants_headline_is_in_the_html_and_kept(site: Server) -> None:
    with httpx.Client(base_url=site.url, timeout=30) as client:
        answer = client.get("/landers/gallery/milf", headers={"accept-language": "de"})
        assert gettext("de", CHAT) in answer.text and "lander-accent-purple" in answer.text
        assert client.cookies.get("lander.variant") == "gallery:chat"
        again = client.get("/landers/gallery", headers={"accept-language": "de"})
        assert "set-cookie" not in again.headers


def test_the_card_shows_only_after_the_entry_warning(site: Server, new_page: NewPage) -> None:
    page = new_page(locale="nl-NL", viewport=(375, 800))
    open_page(page, site, "/landers/gallery")
    expect(page.get_by_test_id("entry-warning-accept")).to_be_visible()
    expect(page.get_by_test_id("cam-card")).to_have_count(0)
    accept_entry_warning(page)
    card = page.get_by_test_id("cam-card")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Advertentie")
    link = page.get_by_test_id("cam-card-link")
    expect(link).to_have_text("Naar CamPals")
    expect(link).to_have_attribute("href", LINK.replace("{placement}", "landers-gallery"))
    expect(link).to_have_attribute("rel", "sponsored noopener noreferrer")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_a_visitor_the_warning_was_not_shown_to_sees_no_card(
    site: Server, new_page: NewPage
) -> None:
    page = new_page(locale="en-US")
    open_page(page, site, "/members")
    expect(page.get_by_test_id("page-members")).to_be_visible()
    expect(page.get_by_test_id("entry-warning-accept")).to_have_count(0)
    expect(page.get_by_test_id("cam-card")).to_have_count(0)


def test_a_member_sees_the_card_below_the_search(
    site: Server, new_page: NewPage, member: NewMember
) -> None:
    page = logged_in_page(new_page, site, member("de"))
    open_page(page, site, "/members")
    link = page.get_by_test_id("cam-card-link")
    expect(link).to_have_text("Zu CamPals")
    expect(link).to_have_attribute("href", LINK.replace("{placement}", "members"))
