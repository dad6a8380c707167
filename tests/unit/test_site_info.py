"""The site's name and company details travel in the page's HTML, not in any state: the server
writes them into `<html data-site>` and in place of the prerender's marks, and the browser's
first render reads the same values from the attribute."""

import json
from html.parser import HTMLParser

import pytest

from app.document_head import DocumentLocale, localized_html
from models.site_settings import SiteSettings
from state.site_info import READ_DOCUMENT_SITE, site_attribute, site_info, site_text
from tests.node import run_node
from translations.catalog import browser_key, gettext
from translations.prerender_marks import has_leftovers, mark

SETTINGS = SiteSettings(
    name="Liefde & Co",
    company_name="Liefde <Media> B.V.",
    company_city="Utrecht",
    support_phone="+31 30-123 45 67",
    support_email="help@liefde.example",
)
DISCLAIMER = "You must be 18 or older to use {site}."


def _html_attributes(html: str) -> dict[str, str]:
    found: dict[str, str] = {}

    class Parser(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "html":
                found.update((name, value or "") for name, value in attrs)

    Parser().feed(html)
    return found


def _page(body: str) -> str:
    return f'<!DOCTYPE html><html lang="en"><head></head><body>{body}</body></html>'


def test_the_fields_are_the_settings_as_a_page_shows_them() -> None:
    info = site_info(SETTINGS)
    assert info["name"] == "Liefde & Co" and info["company"] == "Liefde <Media> B.V."
    assert info["phone"] == "+31301234567"  # dialable: no spaces or dashes
    assert info["email"] == "help@liefde.example" and info["city"] == "Utrecht"
    marked = site_info(SiteSettings(name="A\u27e6b\u00a6c\u27e7"))
    assert marked["name"] == "Abc"  # no mark characters to confuse the texts it sits in


def test_the_document_carries_them_and_its_marks_are_written_in() -> None:
    info = site_info(SETTINGS)
    disclaimer = mark(browser_key(None, DISCLAIMER), ("site",)).replace("{site}", "⟦site.name⟧")
    body = (
        '<span class="brand-name">⟦site.name⟧</span>'
        '<a href="mailto:⟦site.email⟧">⟦site.email⟧</a>'
        f"<div>© ⟦site.company⟧ · ⟦site.city⟧</div><span>{disclaimer}</span>"
    )
    html = localized_html(_page(body), "/", DocumentLocale("nl", True, None), SETTINGS)
    assert json.loads(_html_attributes(html)["data-site"]) == info
    assert '<span class="brand-name">Liefde &amp; Co</span>' in html
    assert '<a href="mailto:help@liefde.example">help@liefde.example</a>' in html
    assert "© Liefde &lt;Media&gt; B.V. · Utrecht" in html
    expected = gettext("nl", DISCLAIMER).replace("{site}", "Liefde & Co")
    assert f"<span>{expected.replace('&', '&amp;')}</span>" in html
    assert not has_leftovers(html)


@pytest.mark.parametrize("site", [{"name": 'Quote " and </script>'}, {}])
def test_the_browser_reads_what_the_document_carries(site: dict[str, str]) -> None:
    written = site_attribute(site) if site else ""  # a page served without the middleware
    attribute = _html_attributes(f"<html {written}>").get("data-site")
    document = {"documentElement": {"dataset": {"site": attribute}}}
    program = (
        f"globalThis.document = {json.dumps(document)};"
        "globalThis.window = globalThis;"
        f"const read = {READ_DOCUMENT_SITE};"
        "console.log(JSON.stringify([read(), read() === read()]));"
    )
    assert json.loads(run_node(program)) == [site, True]  # read once: one stable snapshot


def test_prerender_shows_marks_and_only_known_fields_exist() -> None:
    program = f"const read = {READ_DOCUMENT_SITE}; console.log(JSON.stringify(read()));"
    assert json.loads(run_node(program))["phone"] == "⟦site.phone⟧"
    assert 'siteInfo["kvk"]' in str(site_text("kvk"))
    with pytest.raises(ValueError):
        site_text("password")
