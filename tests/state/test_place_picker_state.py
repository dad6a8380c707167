"""The one place and interest picker of signup, settings and search: whatever the browser sends
is checked against the site's countries, that country's regions and the site's interests, and
nothing it sends reaches the region lookup's cache unchecked."""

import pytest

from models.regions import _subdivisions
from models.site_settings import SiteSettings
from state.place_picker import InterestPicker, PlacePicker
from state.profile_settings import ProfileSettingsState
from state.search import SearchState
from state.signup import SignupState
from tests.state.conftest import substate

PICKERS = [ProfileSettingsState, SignupState, SearchState]


def picker(make_root, cls: type[PlacePicker]) -> PlacePicker:
    state = substate(make_root(), cls)
    state._offer_countries(SiteSettings(countries=["NL", "DE", "AT"]))
    state._show_place("NL", "NL-UT")
    return state


@pytest.mark.parametrize("cls", PICKERS)
async def test_a_country_and_region_are_checked_against_their_vocabularies(make_root, cls) -> None:
    state = picker(make_root, cls)
    state.pick_country("FR")  # a real country, not one of the site's
    state.pick_region("DE-BY")  # a region of another country
    assert (state.country, state.region) == ("NL", "NL-UT")
    state.pick_country("DE")
    assert (state.country, state.region, state.region_kind) == ("DE", "", "Land")
    state.pick_region("DE-BY")
    assert state.region == "DE-BY"


@pytest.mark.parametrize("cls", PICKERS)
def test_junk_from_the_browser_never_reaches_the_region_cache(make_root, cls) -> None:
    state = picker(make_root, cls)
    before = _subdivisions.cache_info().currsize
    for junk in ("x" * 900_000, "zz", "", "nl-x", "ÄÖ"):
        state.pick_country(junk)
        state.pick_region(junk)
    assert _subdivisions.cache_info().currsize == before
    assert _subdivisions.cache_info().maxsize <= 249  # one entry per ISO country at most


async def test_only_the_search_offers_any_country_or_region(make_root) -> None:
    search = picker(make_root, SearchState)
    search.pick_region("any")
    assert search.region == ""
    search.pick_country("any")
    assert (search.country, search.region_kind) == ("", "")
    settings = picker(make_root, ProfileSettingsState)
    settings.pick_country("any")
    settings.pick_region("any")
    assert (settings.country, settings.region) == ("NL", "NL-UT")


@pytest.mark.parametrize("cls", [ProfileSettingsState, SignupState])
def test_interests_come_from_the_sites_list(make_root, cls: type[InterestPicker]) -> None:
    state = substate(make_root(), cls)
    state._offer_interests(SiteSettings(interests=["music", "wine"]), ["music", "gone"])
    assert state.interests == ["music"]
    state.toggle_interest("wine")
    state.toggle_interest("not-an-interest")
    state.toggle_interest("music")
    assert state.interests == ["wine"]
