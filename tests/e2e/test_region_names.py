"""Country and region names in the browser: in the viewer's language, sorted the way it sorts,
and following a language switch in place (models/regions.py, state/place_picker.py)."""

import pytest
from journeys import NewMember, NewPage, logged_in_page, open_page
from playwright.sync_api import Locator, Page, expect
from server import Server
from test_discovery import country_name, expect_chosen, pick, text

from models.regions import region_name, regions_of


def options(page: Page, testid: str) -> Locator:
    """The options the select `testid` offers, in order (not its placeholder)."""
    return page.get_by_test_id(testid).locator("option:not([hidden])")


def test_places_are_named_and_sorted_in_the_viewers_language(
    site: Server, new_page: NewPage, member: NewMember
) -> None:
    page = logged_in_page(new_page, site, member("de"))
    open_page(page, site, "/settings")
    page.get_by_test_id("tab-location").click()
    expect(options(page, "country-select")).not_to_have_count(0)
    countries = options(page, "country-select").all_inner_texts()
    ours = [country_name(page, "de", code) for code in ("NL", "AT", "DE")]  # not the site's order
    assert [name for name in countries if name in ours] == sorted(ours)  # Deutschland, Niederl…
    pick(page.get_by_test_id("country-select"), country_name(page, "de", "PL"))
    expect(options(page, "region-select")).to_have_text([n for _c, n in regions_of("PL", "de")])
    pick(page.get_by_test_id("region-select"), region_name("PL", "PL-10", "de"))

    page.get_by_test_id("language-menu").click()
    page.get_by_test_id("language-pl").click()
    expect_chosen(page.get_by_test_id("region-select"), "łódzkie")
    expect(options(page, "region-select")).to_have_text([n for _c, n in regions_of("PL", "pl")])
    polish = options(page, "region-select").all_inner_texts()
    assert polish.index("lubuskie") < polish.index("łódzkie") < polish.index("małopolskie")


@pytest.mark.any_site
def test_only_a_page_that_shows_a_region_loads_the_region_names(
    site: Server, new_page: NewPage
) -> None:
    # a visitor from France (where no entry warning covers the page): the search starts there
    page = new_page(locale="fr-FR")
    asked: list[str] = []
    page.on(
        "request", lambda request: asked.extend([request.url] if "/regions/" in request.url else [])
    )
    open_page(page, site, "/")
    assert asked == []  # the landing page names no region
    open_page(page, site, "/members")
    any_region = text("fr", "Any")
    french = [any_region, *(name for _c, name in regions_of("FR", "fr"))]
    expect(options(page, "search-region")).to_have_text(french)
    assert len(asked) == 1 and "/i18n/regions/fr.js?v=" in asked[0]
