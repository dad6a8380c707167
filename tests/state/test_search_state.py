"""/members search: default and saved filters, paging, similar members, junk filters, visitors
by settings and traffic source, and who never shows up."""

from datetime import date

import pytest
import reflex as rx
from sqlmodel import Session

from models.auth_session import end_session, start_session
from models.member import Member, MemberStatus
from models.search import MAX_AGE, SearchFilters, SearchPreference, saved_filters
from models.site_settings import save_setting
from services.site_settings import forget_cached_settings
from state.search import SearchState
from state.shell import ShellState
from tests.clicks import click_cookie, recorded_click
from tests.factories import block_member, committed, edit_profile, make_member, row_count
from tests.state.conftest import run, substate
from tests.state.test_likes_state import fresh, logged_in

MIN_AGE = 18
PER_PAGE = 24  # spec: members grids and likes lists come 24 at a time


def born(age: int) -> date:
    """A birthday that makes someone exactly `age` today (1 January of their year)."""
    return date(date.today().year - age, 1, 1)


def person(
    db: Session,
    email: str,
    gender: str = "female",
    age: int = 30,
    country: str = "NL",
    **member_fields,
) -> Member:
    member = make_member(db, email, **member_fields)
    return edit_profile(db, member, gender=gender, date_of_birth=born(age), country=country)


def viewer(db: Session) -> Member:
    """A straight man of 35 in the Netherlands: he starts with women in NL aged 25-45."""
    return person(db, "viewer@example.com", gender="male", age=35)


def filters_of(search: SearchState) -> SearchFilters:
    return SearchFilters(search.gender, search.country, search.region, search.min_age,
                         search.max_age)  # fmt: skip


def ids(cards: list[dict]) -> list[int]:
    return [card["id"] for card in cards]


async def loaded_search(root: rx.State) -> SearchState:
    search = substate(root, SearchState)
    await run(search.load_search())
    return search


def set_setting(db: Session, key: str, value: object) -> None:
    committed(db, save_setting, key, value)
    forget_cached_settings()


async def test_a_first_search_uses_what_the_member_looks_for(make_root, db: Session) -> None:
    me = viewer(db)
    match = person(db, "match@example.com", age=40)
    person(db, "man@example.com", gender="male")
    person(db, "older@example.com", age=60)
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    assert filters_of(search) == SearchFilters("female", "NL", "", 25, 45)
    assert not search.login_required
    assert ids(search.results) == [match.id] and search.num_results == 1
    assert not search.has_more
    assert search.region_kind == "Province"  # the Dutch provinces to pick from
    assert fresh(db).get(SearchPreference, me.id) is None  # loading is no search


async def test_default_ages_stay_within_the_site_limits(make_root, db: Session) -> None:
    young = person(db, "young@example.com", gender="male", age=20)
    old = person(db, "old@example.com", gender="male", age=95)
    assert filters_of(await loaded_search(await logged_in(make_root, db, young, "/members"))) == (
        SearchFilters("female", "NL", "", MIN_AGE, 30)
    )
    assert filters_of(await loaded_search(await logged_in(make_root, db, old, "/members"))) == (
        SearchFilters("female", "NL", "", 85, MAX_AGE)
    )


async def test_a_search_is_stored_and_restored_in_a_fresh_tab(make_root, db: Session) -> None:
    me = viewer(db)
    man = person(db, "man@example.com", gender="male", age=50, country="BE")
    edit_profile(db, man, region="BE-VLG")
    person(db, "woman@example.com", age=50, country="BE")
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    form = {"gender": "male", "country": "BE", "region": "BE-VLG", "min_age": "45",
            "max_age": "55"}  # fmt: skip
    await run(search.search(form))
    wanted = SearchFilters("male", "BE", "BE-VLG", 45, 55)
    assert filters_of(search) == wanted and ids(search.results) == [man.id]
    assert saved_filters(fresh(db), me.id) == wanted
    again = await loaded_search(await logged_in(make_root, db, me, "/members"))
    assert filters_of(again) == wanted
    assert ids(again.results) == [man.id] and again.num_results == 1


async def test_load_more_pages_without_duplicates(make_root, db: Session) -> None:
    me = viewer(db)
    women = {person(db, f"w{i}@example.com").id for i in range(PER_PAGE + 5)}
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    assert len(search.results) == PER_PAGE and search.num_results == PER_PAGE + 5
    assert search.has_more and search.similar == []  # similar only once results run out
    await run(search.load_more())
    assert sorted(ids(search.results)) == sorted(women)
    assert not search.has_more
    await run(search.load_more())
    assert len(search.results) == PER_PAGE + 5


async def test_similar_members_follow_the_results_and_page(make_root, db: Session) -> None:
    me = viewer(db)
    match = person(db, "match@example.com")
    abroad = {person(db, f"de{i}@example.com", country="DE").id for i in range(PER_PAGE)}
    abroad.add(person(db, "older@example.com", age=48).id)  # NL, but 3 years past the search
    person(db, "far@example.com", country="DE", age=70)  # too far for similar
    person(db, "man@example.com", gender="male", country="DE")
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    assert ids(search.results) == [match.id] and not search.has_more
    assert len(search.similar) == PER_PAGE and search.similar_num_results == PER_PAGE + 1
    assert search.has_more_similar
    await run(search.load_more_similar())
    assert sorted(ids(search.similar)) == sorted(abroad) and not search.has_more_similar
    await run(search.load_more_similar())
    assert len(search.similar) == PER_PAGE + 1


JUNK_FORMS = [
    ({"gender": "robot", "country": "XX", "min_age": "abc", "max_age": "-5"},
     SearchFilters("", "", "", MIN_AGE, MIN_AGE)),
    ({"gender": ["female"], "country": None, "min_age": "1000", "max_age": "abc"},
     SearchFilters("", "", "", MAX_AGE, MAX_AGE)),
    ({"country": "NL", "region": "DE-BY", "min_age": "50", "max_age": "20"},
     SearchFilters("female", "NL", "", 20, 50)),
    ({"country": "NL", "region": {"x": 1}, "min_age": 1e309, "max_age": [3], "extra": "x"},
     SearchFilters("female", "NL", "", MIN_AGE, MAX_AGE)),
    ({"gender": "any", "country": "any", "region": "any", "min_age": "", "max_age": None},
     SearchFilters("", "", "", MIN_AGE, MAX_AGE)),
]  # fmt: skip


@pytest.mark.parametrize(("form", "safe"), JUNK_FORMS)
async def test_junk_filters_become_safe_ones(make_root, db, form, safe) -> None:
    me = viewer(db)
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    await run(search.search(form))
    assert filters_of(search) == safe
    assert saved_filters(fresh(db), me.id) == safe
    assert bool(search.region_kind) == bool(safe.country)


async def test_reset_filters_ignores_the_saved_search(make_root, db: Session) -> None:
    me = viewer(db)
    match = person(db, "match@example.com")
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    await run(search.search({"gender": "male", "country": "DE", "min_age": 60, "max_age": 70}))
    assert search.results == []
    again = await loaded_search(await logged_in(make_root, db, me, "/members"))
    assert filters_of(again).country == "DE"
    await run(again.reset_filters())
    assert filters_of(again) == SearchFilters("female", "NL", "", 25, 45)
    assert ids(again.results) == [match.id]


async def test_visitors_need_a_log_in_when_the_settings_say_so(make_root, db: Session) -> None:
    person(db, "anna@example.com")
    set_setting(db, "logged_out_search", False)
    search = await loaded_search(make_root(url="/members"))
    assert search.login_required and search.results == [] and search.num_results == 0
    await run(search.search({"gender": "female"}))
    assert search.results == [] and search.similar == []
    await run(search.load_more())
    assert search.results == []


async def test_visitors_with_a_traffic_source_may_search(make_root, db: Session) -> None:
    anna = person(db, "anna@example.com")
    set_setting(db, "logged_out_search", False)
    set_setting(db, "logged_out_search_trafficsource", True)
    plain = await loaded_search(make_root(url="/members"))
    assert plain.login_required and plain.results == []
    click = recorded_click(db, network="adnet", sub1="x")
    forged = await loaded_search(make_root(url="/members", cookie=click_cookie(click.id, "1.2.3")))
    assert forged.login_required and forged.results == []
    search = await loaded_search(make_root(url="/members", cookie=click_cookie(click.id)))
    assert not search.login_required
    assert ids(search.results) == [anna.id]
    assert filters_of(search).min_age == MIN_AGE


async def test_visitors_search_everybody_by_default(make_root, db: Session) -> None:
    anna = person(db, "anna@example.com")
    carl = person(db, "carl@example.com", gender="male", age=50, country="DE")
    person(db, "private@example.com", privacy_mode=True)
    search = await loaded_search(make_root(url="/members"))
    assert not search.login_required
    assert sorted(ids(search.results)) == sorted([anna.id, carl.id])
    assert row_count(fresh(db), SearchPreference) == 0


def hidden_members(db: Session, me: Member) -> list[Member]:
    """Women who would match the viewer's search (or its similar) but may not be listed."""
    blocked = person(db, "blocked@example.com")
    block_member(db, me.id, blocked.id)
    blocker = person(db, "blocker@example.com", country="DE")
    block_member(db, blocker.id, me.id)
    hidden = [
        blocked,
        blocker,
        person(db, "invisible@example.com", invisible=True),
        person(db, "invisible-de@example.com", country="DE", invisible=True),
        person(db, "deleted@example.com", status=MemberStatus.DELETED),
        person(db, "leaving@example.com", country="DE", status=MemberStatus.DELETED_PENDING),
        person(db, "unconfirmed@example.com", status=MemberStatus.NOT_CONFIRMED),
    ]
    disabled = person(db, "disabled@example.com", country="DE")
    edit_profile(db, disabled, status="disabled")
    return [*hidden, disabled]


async def test_hidden_members_never_appear(make_root, db: Session) -> None:
    me = viewer(db)
    shown = person(db, "shown@example.com")
    shown_abroad = person(db, "abroad@example.com", country="DE")
    hidden = {member.id for member in hidden_members(db, me)}
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    assert ids(search.results) == [shown.id] and search.num_results == 1
    assert ids(search.similar) == [shown_abroad.id] and search.similar_num_results == 1
    await run(search.search({"gender": "", "country": "", "min_age": 18, "max_age": 99}))
    assert set(ids(search.results)) == {shown.id, shown_abroad.id}
    assert not hidden & set(ids(search.results) + ids(search.similar))
    assert me.id not in ids(search.results)


async def test_a_tab_whose_session_ended_pages_no_further(make_root, db: Session) -> None:
    me = viewer(db)
    for i in range(PER_PAGE + 2):
        person(db, f"w{i}@example.com")
    token = committed(db, start_session, me.id)
    search = await loaded_search(make_root(url="/members", cookie=f"auth.session={token}"))
    assert search.has_more
    committed(db, end_session, token)  # logged out in another tab
    await run(search.load_more())
    assert len(search.results) == PER_PAGE


async def test_a_signup_between_pages_shows_nobody_twice(make_root, db: Session) -> None:
    me = viewer(db)
    for i in range(PER_PAGE + 3):
        person(db, f"w{i}@example.com")
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    person(db, "newcomer@example.com")  # newest first: everybody moves one place down
    for _ in range(10):  # a few pages at most: a "more" that fails must not loop forever
        if not search.has_more:
            break
        await run(search.load_more())
    assert not search.has_more
    assert len(ids(search.results)) == len(set(ids(search.results))) >= PER_PAGE + 3


async def test_paging_ends_when_members_left_meanwhile(make_root, db: Session) -> None:
    me = viewer(db)
    women = [person(db, f"w{i}@example.com") for i in range(PER_PAGE + 3)]
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    for woman in women[:3]:  # the oldest three, not yet shown, go invisible
        woman.invisible = True
        db.add(woman)
    db.commit()
    await run(search.load_more())
    assert len(search.results) == PER_PAGE
    assert not search.has_more  # no endless "more" button


async def test_more_pages_the_search_shown_not_the_unsent_form(make_root, db: Session) -> None:
    me = viewer(db)
    women = {person(db, f"w{i}@example.com").id for i in range(PER_PAGE + 2)}
    person(db, "man@example.com", gender="male", country="DE")
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    search.pick_gender("male")  # changed in the form, but "Search" not pressed
    search.pick_country("DE")
    search.pick_gender("robot")
    await run(search.load_more())
    assert set(ids(search.results)) == women and search.num_results == PER_PAGE + 2
    assert saved_filters(fresh(db), me.id) is None


@pytest.mark.parametrize(("country", "shown"), [("BE", "BE"), ("XX", ""), ("", "")])
async def test_visitors_start_in_their_own_country(make_root, db, country, shown) -> None:
    root = make_root(url="/members")
    substate(root, ShellState).visitor_country = country
    search = await loaded_search(root)
    assert filters_of(search) == SearchFilters("", shown, "", MIN_AGE, MAX_AGE)


async def test_a_country_or_gender_outside_the_vocabulary_is_ignored(make_root, db) -> None:
    me = viewer(db)
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    search.pick_country("X" * 900_000)
    search.pick_gender("X" * 900_000)
    assert (search.country, search.gender) == ("NL", "")


async def test_more_keeps_a_bounded_window_of_cards(make_root, db: Session) -> None:
    me = viewer(db)
    women = {person(db, f"w{i}@example.com").id for i in range(5 * PER_PAGE)}
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    seen = set(ids(search.results))
    for _ in range(10):
        if not search.has_more:
            break
        await run(search.load_more())
        assert len(search.results) <= 4 * PER_PAGE
        seen |= set(ids(search.results))
    assert seen == women and search.num_results == 5 * PER_PAGE
