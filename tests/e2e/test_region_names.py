"""Country and region names in the browser: in the viewer's language, sorted the way it sorts,
and following a language switch in place (models/regions.py, state/place_picker.py)."""

from journeys import NewMember, NewPage, logged_in_page, open_page
from playwright.sync_api import Page, expect
from server import Server
from test_discovery import choose, country_name

from models.regions import region_name, regions_of


def open_options(page: Page, testid: str) -> list[str]:
    """The options of the select `testid` as shown, in order; the select stays open."""
    page.get_by_test_id(testid).click()
    return page.get_by_role("option").all_inner_texts()


def test_places_are_named_and_sorted_in_the_viewers_language(
    site: Server, new_page: NewPage, member: NewMember
) -> None:
    page = logged_in_page(new_page, site, member("de"))
    open_page(page, site, "/settings")
    page.get_by_test_id("tab-location").click()
    countries = open_options(page, "country-select")
    ours = [country_name(page, "de", code) for code in ("NL", "AT", "DE")]  # not the site's order
    assert [name for name in countries if name in ours] == sorted(ours)  # Deutschland, Niederl…
    page.get_by_role("option", name=country_name(page, "de", "PL"), exact=True).click()
    assert open_options(page, "region-select") == [name for _c, name in regions_of("PL", "de")]
    page.keyboard.press("Escape")
    choose(page, page.get_by_test_id("region-select"), region_name("PL", "PL-10", "de"))

    page.get_by_test_id("language-menu").click()
    page.get_by_test_id("language-pl").click()
    expect(page.get_by_test_id("region-select")).to_have_text("łódzkie")
    polish = open_options(page, "region-select")
    assert polish == [name for _c, name in regions_of("PL", "pl")]
    assert polish.index("lubuskie") < polish.index("łódzkie") < polish.index("małopolskie")


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
    regions = open_options(page, "search-region")
    assert regions[1:] == [name for _c, name in regions_of("FR", "fr")]  # after "Any"
    assert len(asked) == 1 and "/i18n/regions/fr.js?v=" in asked[0]
