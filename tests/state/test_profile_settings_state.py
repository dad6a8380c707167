"""Settings → profile, location, privacy: loaded from the database, saved per tab for the
member behind the cookie only, and the geolocation answer checked before it fills the form."""

import asyncio
import threading
from datetime import date

import pytest
from sqlmodel import Session

from models.account_rules import PROFILE_NAME_STARTS_WITH_AT
from models.auth_session import end_session, start_session
from models.member import Member, Profile
from models.profile_steps import ABOUT_MAX, ABOUT_TOO_LONG, CHOOSE_COUNTRY
from services import geocoding
from state.i18n import I18nState
from state.profile_settings import ProfileSettingsState, seeking_of
from state.session import SessionState
from tests.factories import committed, make_member
from tests.state.conftest import redirects, run, scripts, substate
from translations.catalog import gettext

LOGIN = "/login?next=%2Fsettings%3Ftab%3Dprofile"


def fresh(db: Session) -> Session:
    db.rollback()
    db.expire_all()
    return db


def stored(db: Session, member_id: int) -> dict:
    """The member's profile and visibility as the database holds them now."""
    db = fresh(db)
    member = db.get(Member, member_id)
    return {
        **db.get(Profile, member_id).model_dump(),
        "invisible": member.invisible,
        "privacy_mode": member.privacy_mode,
    }


async def settings_tab(make_root, token: str | None, url: str = "/settings"):
    """The settings page as loaded with this session cookie (or none)."""
    cookie = {"cookie": f"auth.session={token}"} if token else {}
    root = make_root(url=url, **cookie)
    await substate(root, SessionState)._load()
    state = substate(root, ProfileSettingsState)
    await run(state.load())
    return state


@pytest.fixture
def member(db: Session) -> Member:
    member = make_member(db, invisible=True)
    profile = db.get(Profile, member.id)
    profile.region, profile.city, profile.hair_colour = "NL-UT", "Utrecht", "red"
    profile.about_me, profile.interests = "I like long walks.", ["music", "travel"]
    db.add(profile)
    db.commit()
    return member


@pytest.fixture
async def tab(make_root, db: Session, member: Member) -> ProfileSettingsState:
    return await settings_tab(make_root, committed(db, start_session, member.id))


async def test_load_fills_every_section_from_the_database(make_root, db, member) -> None:
    token = committed(db, start_session, member.id)
    state = await settings_tab(make_root, token, "/settings?tab=location")
    assert state.tab == "location"
    assert (state.name, state.gender, state.seeking) == ("Anna", "female", "male")
    assert state.date_of_birth == "1990-05-17"
    assert state.looks == {
        "hair_colour": "red",
        "eye_colour": "",
        "body_type": "",
        "relationship_status": "",
        "tattoos": "",
    }
    assert (state.about, state.interests, state.about_length) == (
        "I like long walks.",
        ["music", "travel"],
        18,
    )
    assert (state.country, state.region, state.city) == ("NL", "NL-UT", "Utrecht")
    assert state.region_kind == "Province"  # its regions' names: the browser's catalogue
    assert "DE" in state.countries and "music" in state.interest_options
    assert state.invisible and not state.privacy_mode


async def test_an_unknown_tab_in_the_address_opens_the_profile(make_root, db, member) -> None:
    state = await settings_tab(
        make_root, committed(db, start_session, member.id), "/settings?tab=evil"
    )
    assert state.tab == "profile"


def test_looking_for_follows_from_gender_and_sexuality() -> None:
    assert seeking_of("female", "hetero") == "male"
    assert seeking_of("female", "lesbian") == "female"
    assert seeking_of("male", "gay") == "male"
    assert seeking_of("male", "bi") == "both"


def test_a_tab_choice_is_kept_in_the_address(tab) -> None:
    [script] = scripts([tab.choose_tab("photos")])
    assert tab.tab == "photos" and "searchParams.set('tab', \"photos\")" in script
    assert tab.choose_tab("nonsense") is None and tab.tab == "photos"


async def test_one_save_stores_the_whole_profile_tab(db, member, tab) -> None:
    tab.edit("name", "Anna  Maria")
    tab.choose("gender", "male")
    tab.choose("seeking", "both")
    tab.edit("date_of_birth", "1985-02-03")
    tab.pick_look("eye_colour", "green")
    tab.pick_look("tattoos", "purple")  # not a known value: ignored
    tab.edit("about", "New text")
    tab.toggle_interest("music")
    tab.toggle_interest("wine")
    tab.toggle_interest("not-an-interest")
    assert await run(tab.save_profile()) == []
    profile = fresh(db).get(Profile, member.id)
    assert (profile.name, profile.gender, profile.sexuality) == ("Anna Maria", "male", "bi")
    assert profile.date_of_birth == date(1985, 2, 3)
    assert (profile.hair_colour, profile.eye_colour, profile.tattoos) == ("red", "green", None)
    assert (profile.about_me, profile.interests) == ("New text", ["travel", "wine"])
    assert tab.saved == "profile" and tab.errors == {}
    assert (await tab.get_state(SessionState)).name == "Anna Maria"


async def test_saving_the_place_stores_it(db, member, tab) -> None:
    tab.pick_country("DE")
    tab.pick_region("NL-NH")  # a region of another country: ignored
    tab.pick_region("DE-BY")
    tab.edit("city", " München ")
    await run(tab.save_location())
    assert tab.saved == "location"
    profile = fresh(db).get(Profile, member.id)
    assert (profile.country, profile.region, profile.city) == ("DE", "DE-BY", "München")


async def test_the_privacy_switches_store_at_once(db, member, tab) -> None:
    await run(tab.set_visibility("privacy_mode", True))
    assert tab.saved == "privacy" and tab.privacy_mode
    await run(tab.set_visibility("invisible", False))
    await run(tab.set_visibility("status", True))  # not a switch: ignored
    saved = stored(db, member.id)
    assert (saved["invisible"], saved["privacy_mode"]) == (False, True)
    assert (tab.invisible, tab.privacy_mode) == (False, True)


async def test_invalid_input_shows_the_field_error_and_stores_nothing(db, member, tab) -> None:
    (await tab.get_state(I18nState)).locale = "de"
    before = stored(db, member.id)
    tab.edit("name", "@anna")
    tab.pick_look("eye_colour", "green")
    await run(tab.save_profile())
    assert tab.errors == {"name": gettext("de", PROFILE_NAME_STARTS_WITH_AT)}
    tab.name = "Annemie"
    tab.about = "x" * (ABOUT_MAX + 1)  # longer than the text area lets through
    await run(tab.save_profile())  # all or nothing: the good name and looks wait too
    assert tab.errors == {"about": gettext("de", ABOUT_TOO_LONG, max=ABOUT_MAX)}
    tab.about = ""
    tab.country = "XX"
    await run(tab.save_location())
    assert tab.errors == {"country": gettext("de", CHOOSE_COUNTRY)}
    tab.seeking = "aliens"
    await run(tab.save_profile())
    assert set(tab.errors) == {"sexuality"}
    assert tab.saved == "" and stored(db, member.id) == before


SAVES = [
    ("save_profile", ()),
    ("save_location", ()),
    ("set_visibility", ("privacy_mode", True)),
]


@pytest.mark.parametrize(("handler", "args"), SAVES, ids=[name for name, _ in SAVES])
@pytest.mark.parametrize("cookie", ["missing", "ended"])
async def test_without_a_live_session_nothing_is_stored(
    make_root, db, member, handler, args, cookie
) -> None:
    token = committed(db, start_session, member.id)
    state = await settings_tab(make_root, token if cookie == "ended" else None)
    if cookie == "ended":  # logged out elsewhere after this page loaded
        committed(db, end_session, token)
    state.name, state.gender, state.seeking, state.date_of_birth = (
        "Bob",
        "male",
        "male",
        "1980-01-01",
    )
    state.country, state.city, state.about = "DE", "Berlin", "changed"
    state.looks = {"hair_colour": "black"}
    before = stored(db, member.id)
    events = await run(getattr(state, handler)(*args))
    assert redirects(events) == [LOGIN]
    assert stored(db, member.id) == before and state.saved == ""


def geo_answer(permission: str = "granted", **place: str | None) -> dict:
    return {"permission": permission, "place": place or None}


async def test_a_located_place_fills_the_form_without_saving(db, member, tab) -> None:
    before = stored(db, member.id)
    await run(tab.apply_location(geo_answer(country="de", region="DE-BY", city="  Bad   Tölz ")))
    assert (tab.country, tab.region, tab.city, tab.geo) == ("DE", "DE-BY", "Bad Tölz", "filled")
    assert tab.region_kind == "Land"
    assert stored(db, member.id) == before


async def test_a_place_without_region_or_town_is_fine(tab) -> None:
    await run(tab.apply_location(geo_answer(country="BE", region=None, city=None)))
    assert (tab.country, tab.region, tab.city, tab.geo) == ("BE", "", "", "filled")


@pytest.mark.parametrize(
    ("answer", "geo"),
    [
        (geo_answer(country="RU", region=None, city="Moscow"), "abroad"),
        (geo_answer(country="DE", region="NL-NH", city="Berlin"), "not_found"),
        (geo_answer(country="DE", region="DE-BE", city="B" * 500), "not_found"),
        (geo_answer(country=None, region=None, city=None), "not_found"),
        (geo_answer(), "not_found"),
        (geo_answer("denied"), "denied"),
        (geo_answer("unsupported"), "unsupported"),
        ("not a dict", "not_found"),
        ({"permission": "granted", "place": ["DE"]}, "not_found"),
    ],
)
async def test_an_unusable_location_answer_changes_no_field(db, member, tab, answer, geo) -> None:
    before = stored(db, member.id)
    tab.use_my_location()
    assert tab.locating
    await run(tab.apply_location(answer))
    assert (tab.country, tab.region, tab.city) == ("NL", "NL-UT", "Utrecht")
    assert tab.geo == geo and not tab.locating
    assert stored(db, member.id) == before


def test_use_my_location_asks_the_browser(tab) -> None:
    assert scripts([tab.use_my_location()]) == ["window.siteGeo.locate()"]


async def test_a_location_answer_after_a_log_out_fills_nothing(make_root, db, member) -> None:
    token = committed(db, start_session, member.id)
    state = await settings_tab(make_root, token)
    committed(db, end_session, token)
    events = await run(state.apply_location(geo_answer(country="DE", region=None, city="Köln")))
    assert redirects(events) == [LOGIN]
    assert (state.country, state.city) == ("NL", "Utrecht")


async def test_opening_the_settings_gets_the_place_lookup_ready(
    make_root, db, member, monkeypatch: pytest.MonkeyPatch
) -> None:
    warmed = threading.Event()
    monkeypatch.setattr(geocoding, "warm_up", warmed.set)
    await settings_tab(make_root, committed(db, start_session, member.id))
    assert await asyncio.to_thread(warmed.wait, 5)
