"""The terms as a visitor reads them, in English and German, on a desktop and a 375 px phone:
every section under its numbered heading with a contents link to it, the facts from the
settings filled in, nothing wider than the screen."""

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from server import Server

from models.legal.facts import legal_facts
from models.legal.terms import TERMS
from models.site_settings import SiteSettings
from translations.catalog import gettext

NewPage = Callable[..., Page]
pytestmark = pytest.mark.any_site  # browses only: also runs against E2E_URL


@pytest.mark.parametrize("locale", ["en", "de"])
@pytest.mark.parametrize("width", [1280, 375])
def test_the_terms_read_as_a_document(
    site: Server, new_page: NewPage, locale: str, width: int, tmp_path: Path
) -> None:
    page = new_page(locale=locale, viewport=(width, 800))
    legal_texts = []
    page.on("request", lambda r: legal_texts.append(r.url) if "/i18n/legal/" in r.url else None)
    page.goto(f"{site.url}/pages/terms")
    facts = legal_facts(SiteSettings(), locale)
    document = page.get_by_test_id("legal-terms")
    version = gettext(locale, "Version of {version_date}", version_date=facts["version_date"])
    expect(document.locator("p.muted")).to_have_text(version)

    headings = document.locator("h2")
    expect(headings).to_have_count(len(TERMS.sections))
    links = document.locator("nav.legal-contents a")
    expect(links).to_have_count(len(TERMS.sections))
    for index, section in enumerate(TERMS.sections):
        title = f"{index + 1}. {gettext(locale, section.heading)}"
        expect(headings.nth(index)).to_have_text(title)
        expect(headings.nth(index)).to_have_attribute("id", section.id)
        # the router writes the page's own path before the anchor
        expect(links.nth(index)).to_have_attribute("href", re.compile(f"#{section.id}$"))
    expect(document.locator("ol li")).to_have_count(10)  # the numbered rules of conduct
    expect(document).to_contain_text(str(facts["company"]))
    expect(document).to_contain_text(gettext(locale, "Fictional profiles"))
    page.screenshot(path=tmp_path / f"terms-{locale}-{width}.png", full_page=True)

    links.nth(7).click()
    page.wait_for_url(f"**#{TERMS.sections[7].id}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert legal_texts, "the legal texts come in their own catalogue"
    assert page.console_errors == []  # type: ignore[attr-defined]
