"""Member search: filters, age limits, paging, who is left out, similar members, saved filters."""

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlmodel import Session, select

import models.search
import services.site_settings
from actions.account_links import confirm_address, undo_deletion
from actions.accounts import delete_my_account
from actions.profile import save_basics, save_location, save_visibility
from actions.runner import Done
from actions.signup import Arrival, sign_up
from actions.viewer import Viewer
from models.attributes import GENDERS
from models.directory import age_on
from models.member import Member, MemberStatus, Profile, is_listed, utcnow
from models.regions import is_region_of
from models.search import (
    MAX_AGE,
    SearchFilters,
    clean_filters,
    default_filters,
    save_filters,
    saved_filters,
    search_members,
    search_select,
    similar_members,
    visitors_may_search,
)
from models.signup import SignupForm
from models.site_settings import SiteSettings
from services.account_purge import purge_expired_accounts
from tests.factories import PASSWORD, block_member, edit_profile, make_member

TODAY = date(2025, 6, 15)
COUNTRIES = SiteSettings().countries
START = datetime(2025, 1, 1, tzinfo=UTC)
ANY = SearchFilters()


def _member(db: Session, name: str, day: int = 0, **profile) -> Member:
    """A member who signed up `day` days after START (a later day is newer)."""
    member = make_member(db, f"{name}@example.com", signup_date=START + timedelta(days=day))
    return edit_profile(db, member, **profile)


def _found(db: Session, filters: SearchFilters, viewer_id: int | None = None, **kw) -> list[int]:
    page = search_members(db, viewer_id, filters, kw.pop("today", TODAY), limit=100, **kw)
    return [tile.id for tile in page.tiles]


# --- filters ------------------------------------------------------------------------------


def test_gender_country_and_region_filters(db: Session) -> None:
    anna = _member(db, "anna", 1, region="NL-NH")
    bea = _member(db, "bea", 2, region="NL-UT")
    carl = _member(db, "carl", 3, gender="male", region="NL-NH")
    dora = _member(db, "dora", 4, country="BE")
    assert set(_found(db, ANY)) == {anna.id, bea.id, carl.id, dora.id}
    assert set(_found(db, SearchFilters(gender="female"))) == {anna.id, bea.id, dora.id}
    assert set(_found(db, SearchFilters(country="NL"))) == {anna.id, bea.id, carl.id}
    assert _found(db, SearchFilters(gender="female", country="NL", region="NL-NH")) == [anna.id]
    assert _found(db, SearchFilters(gender="male", country="BE")) == []


@pytest.mark.parametrize(
    ("born", "found"),
    [
        (date(2000, 6, 15), True),  # 25 today: min_age
        (date(2000, 6, 16), False),  # 25 tomorrow
        (date(1995, 6, 15), True),  # 30 today: max_age
        (date(1994, 6, 16), True),  # 30, 31 tomorrow
        (date(1994, 6, 15), False),  # 31 today: max_age + 1
    ],
)
def test_age_limits_are_inclusive(db: Session, born: date, found: bool) -> None:
    member = _member(db, "anna", date_of_birth=born)
    assert _found(db, SearchFilters(min_age=25, max_age=30)) == ([member.id] if found else [])


def test_age_filter_agrees_with_age_on_around_29_february(db: Session) -> None:
    birthdays = [
        date(year, month, day)
        for year in (1991, 1992, 1993, 2003, 2004, 2005, 2006)
        for month, day in ((2, 27), (2, 28), (2, 29), (3, 1))
        if (month, day) != (2, 29) or year % 4 == 0
    ]
    born = {_member(db, f"m{i}", date_of_birth=b).id: b for i, b in enumerate(birthdays)}
    todays = [date(2022, 2, 28), date(2022, 3, 1), date(2023, 2, 28), date(2024, 2, 29)]
    for today in todays:
        for low, high in ((18, 30), (19, 31), (18, 18), (20, 32)):
            expected = {i for i, b in born.items() if low <= age_on(b, today) <= high}
            found = _found(db, SearchFilters(min_age=low, max_age=high), today=today)
            assert set(found) == expected, (today, low, high)


# --- pages --------------------------------------------------------------------------------


def test_total_counts_every_match_while_the_page_is_limited(db: Session) -> None:
    for i in range(7):
        _member(db, f"f{i}", i)
    _member(db, "carl", 9, gender="male")
    page = search_members(db, None, SearchFilters(gender="female"), TODAY, limit=3)
    assert len(page.tiles) == 3
    assert page.total == 7


def test_the_count_stops_past_the_cap_and_says_so(db: Session, monkeypatch) -> None:
    monkeypatch.setattr(models.search, "COUNT_CAP", 4)
    for i in range(9):
        _member(db, f"f{i}", i)
    first = search_members(db, None, ANY, TODAY, limit=2)
    assert (first.total, first.capped) == (5, True)  # more than 4
    later = search_members(db, None, ANY, TODAY, limit=2, offset=6)
    assert (later.total, later.capped) == (9, False)  # the cap counts past the offset
    assert len(later.tiles) == 2


def test_pages_are_newest_first_without_overlap_or_gaps(db: Session) -> None:
    days = [3, 0, 6, 1, 5, 2, 4]
    ids = {day: _member(db, f"m{day}", day).id for day in days}
    pages = [search_members(db, None, ANY, TODAY, limit=3, offset=o) for o in (0, 3, 6)]
    assert [len(p.tiles) for p in pages] == [3, 3, 1]
    assert {p.total for p in pages} == {7}
    assert [t.id for p in pages for t in p.tiles] == [ids[d] for d in sorted(days, reverse=True)]


def test_search_leaves_out_blocks_hidden_members_and_the_viewer(db: Session) -> None:
    viewer = _member(db, "viewer", gender="male")
    kept = _member(db, "kept")
    private = _member(db, "private")
    private.privacy_mode = True
    blocker, blocked = _member(db, "blocker"), _member(db, "blocked")
    block_member(db, blocker.id, viewer.id)
    block_member(db, viewer.id, blocked.id)
    invisible = _member(db, "invisible")
    invisible.invisible = True
    pending = _member(db, "pending")
    pending.status = MemberStatus.DELETED_PENDING
    unconfirmed = _member(db, "unconfirmed")
    unconfirmed.status = MemberStatus.NOT_CONFIRMED
    disabled = _member(db, "disabled", status="disabled")
    db.add_all([private, invisible, pending, unconfirmed])
    db.commit()

    assert set(_found(db, ANY, viewer.id)) == {kept.id, private.id}
    assert set(_found(db, ANY)) == {viewer.id, kept.id, blocker.id, blocked.id}
    assert disabled.id not in _found(db, ANY, kept.id)
    page = search_members(db, viewer.id, ANY, TODAY, limit=1)
    assert page.total == 2


# --- the search index: the profile's copies of the member's facts --------------------------


@pytest.fixture
def fresh_settings(engine) -> Iterator[None]:
    """Site settings read from this test's database, not a cached earlier one."""
    services.site_settings.forget_cached_settings()
    yield
    services.site_settings.forget_cached_settings()


def _copies_agree(db: Session) -> bool:
    """Every profile's `listed`, `privacy_mode` and `signup_date` as its member's facts say."""
    db.rollback()  # the actions wrote in their own sessions
    db.expire_all()
    rows = db.exec(select(Member, Profile).join(Profile, Profile.member_id == Member.id)).all()
    return all(
        (profile.listed, profile.privacy_mode, profile.signup_date)
        == (
            is_listed(member.status, member.invisible, profile.status),
            member.privacy_mode,
            member.signup_date,
        )
        for member, profile in rows
    )


def _token(done: Done) -> str:
    """The token of the link in the mail an action sends after its commit."""
    (effect,) = done.effects
    return parse_qs(urlsplit(effect.mail.links[0]).query)["token"][0]


def test_every_write_path_keeps_the_search_copies_right(db: Session, fresh_settings) -> None:
    """Signup, confirmation, profile edits, visibility, deletion, its undoing and the erasure,
    each through its action: search finds the member exactly when it should."""
    seeker = _member(db, "seeker", gender="male").id
    form = SignupForm(
        email="anna@example.com",
        name="Sunny Anna",
        password=PASSWORD,
        date_of_birth="1990-05-17",
        gender="female",
        seeking="male",
    )
    signed_up = sign_up(form, Arrival("nl", "NL", {}, None))
    anna_id = signed_up.value.member_id
    anna = Viewer(anna_id, MemberStatus.ACTIVE, "nl", False)

    def found(filters: SearchFilters = ANY, viewer_id: int | None = seeker) -> bool:
        assert _copies_agree(db)
        return anna_id in _found(db, filters, viewer_id)

    assert not found()  # not confirmed yet
    assert confirm_address(_token(signed_up)).value is True
    assert found(SearchFilters("female", "NL", min_age=35, max_age=35))
    basics = {
        "name": "Sunny Anna",
        "gender": "male",
        "sexuality": "gay",
        "date_of_birth": "1970-01-02",
    }
    save_basics(anna, basics, TODAY)
    assert found(SearchFilters(gender="male", min_age=55, max_age=55))
    assert not found(SearchFilters(gender="female"))
    save_location(anna, "DE", "DE-BY", "München")
    assert found(SearchFilters("male", "DE", "DE-BY")) and not found(SearchFilters(country="NL"))
    save_visibility(anna, True, False)
    assert not found() and not found(viewer_id=None)
    save_visibility(anna, False, True)
    assert found() and not found(viewer_id=None)  # privacy mode: members only
    deleted = delete_my_account(anna, PASSWORD, "taking_break", "")
    assert not found()
    assert undo_deletion(_token(deleted)).value is True
    assert found()
    delete_my_account(anna, PASSWORD, "other", "")
    db.get(Member, anna_id).deleted_at = utcnow() - timedelta(days=15)
    db.commit()
    assert purge_expired_accounts() == 1
    assert not found() and db.get(Profile, anna_id) is None


@pytest.mark.parametrize(
    ("filters", "index"),
    [
        (ANY, "ix_profile_search_newest"),
        (SearchFilters(gender="female", min_age=30, max_age=40), "ix_profile_search_gender"),
        (SearchFilters(country="NL"), "ix_profile_search_country"),
        (SearchFilters("female", "NL"), "ix_profile_search_gender_country"),
        (SearchFilters("female", "NL", "NL-NH", 25, 40), "ix_profile_search_gender_region"),
        (SearchFilters(country="NL", region="NL-NH"), "ix_profile_search_region"),
    ],
)
def test_a_page_walks_the_index_of_its_filters_in_its_order(
    db: Session, filters: SearchFilters, index: str
) -> None:
    """Newest first straight from the index (no sort of every match), for visitors and
    members alike. PostgreSQL plans by cost: bench/search.py prints its plan."""
    if db.get_bind().dialect.name != "sqlite":
        pytest.skip("SQLite's plan only")
    for viewer_id in (None, 7):
        statement = search_select(viewer_id, filters, TODAY, limit=24, offset=48)
        sql = statement.compile(db.get_bind(), compile_kwargs={"literal_binds": True})
        plan = [row[3] for row in db.connection().exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")]
        assert f"USING INDEX {index}" in plan[0] and plan[0].startswith(
            "SEARCH" if filters.gender or filters.country else "SCAN"
        )
        assert not any("TEMP B-TREE" in line for line in plan), plan


# --- similar members ----------------------------------------------------------------------


def test_similar_members_widen_the_search_but_leave_out_its_results(db: Session) -> None:
    filters = SearchFilters(gender="female", country="NL", min_age=25, max_age=30)
    exact = _member(db, "exact", 1, date_of_birth=date(1998, 1, 1))
    abroad = _member(db, "abroad", 2, country="BE", date_of_birth=date(1998, 1, 1))
    older = _member(db, "older", 3, date_of_birth=date(1990, 1, 1))  # 35: 30 + 5
    younger = _member(db, "younger", 4, date_of_birth=date(2004, 1, 1))  # 21: 25 - 4
    _member(db, "too_old", 5, date_of_birth=date(1988, 1, 1))  # 37
    _member(db, "man", 6, gender="male", country="BE", date_of_birth=date(1998, 1, 1))

    page = similar_members(db, None, filters, 18, TODAY, limit=10)
    assert [t.id for t in page.tiles] == [younger.id, older.id, abroad.id]
    assert page.total == 3
    assert _found(db, filters) == [exact.id]


def test_similar_members_include_members_without_a_region(db: Session) -> None:
    """A search for a region: members of that country without a region are similar."""
    filters = SearchFilters(country="NL", region="NL-NH")
    in_region = _member(db, "inregion", 1, region="NL-NH")
    no_region = _member(db, "noregion", 2)
    elsewhere = _member(db, "elsewhere", 3, region="NL-UT")
    page = similar_members(db, None, filters, 18, TODAY, limit=10)
    assert [t.id for t in page.tiles] == [elsewhere.id, no_region.id]
    assert in_region.id not in [t.id for t in page.tiles]


def test_similar_members_leave_out_blocked_members(db: Session) -> None:
    viewer = _member(db, "viewer", gender="male")
    blocker = _member(db, "blocker", country="BE")
    block_member(db, blocker.id, viewer.id)
    kept = _member(db, "kept", country="BE")
    page = similar_members(db, viewer.id, SearchFilters(country="NL"), 18, TODAY, limit=10)
    assert [t.id for t in page.tiles] == [kept.id]


# --- cleaning filters from the browser ----------------------------------------------------


def test_known_filters_are_kept() -> None:
    raw = {"gender": "male", "country": "NL", "region": "NL-UT", "min_age": 20, "max_age": 40}
    assert clean_filters(raw, COUNTRIES, 18) == SearchFilters("male", "NL", "NL-UT", 20, 40)
    assert clean_filters({"min_age": "21", "max_age": " 35"}, COUNTRIES, 18) == SearchFilters(
        min_age=21, max_age=35
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({}, ANY),
        ({"gender": "robot", "country": "XX"}, ANY),
        ({"gender": ["male"], "country": "nl"}, ANY),
        ({"country": "BE", "region": "NL-UT"}, SearchFilters(country="BE")),
        ({"region": "NL-UT"}, ANY),
        ({"country": "NL", "region": 7}, SearchFilters(country="NL")),
        ({"min_age": "abc", "max_age": None}, ANY),
        ({"min_age": -5, "max_age": 999}, ANY),
        ({"min_age": 999, "max_age": -5}, ANY),
        ({"min_age": 50, "max_age": 30}, SearchFilters(min_age=30, max_age=50)),
        ({"min_age": 30.9, "max_age": [40]}, SearchFilters(min_age=30)),
        ({"min_age": float("nan"), "max_age": float("inf")}, ANY),
    ],
)
def test_junk_filters_become_safe(raw: dict, expected: SearchFilters) -> None:
    assert clean_filters(raw, COUNTRIES, 18) == expected


def test_ages_below_the_site_minimum_are_raised_to_it() -> None:
    cleaned = clean_filters({"min_age": 18, "max_age": 19}, COUNTRIES, 21)
    assert (cleaned.min_age, cleaned.max_age) == (21, 21)
    assert clean_filters({}, ["DE"], 21) == SearchFilters(min_age=21)
    assert clean_filters({"country": "NL"}, ["DE"], 18).country == ""


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(["male", "female", "NL", "BE", "NL-UT", "BE-VLG", "18", "99", "-1"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
FILTER_KEYS = st.sampled_from(["gender", "country", "region", "min_age", "max_age"])


@given(
    raw=st.dictionaries(st.one_of(FILTER_KEYS, st.text(max_size=8)), JUNK, max_size=8),
    min_age=st.integers(18, 40),
)
def test_any_junk_becomes_valid_filters(raw: dict, min_age: int) -> None:
    cleaned = clean_filters(raw, COUNTRIES, min_age)
    assert isinstance(cleaned, SearchFilters)
    assert cleaned.gender in ("", *GENDERS)
    assert cleaned.country in ("", *COUNTRIES)
    assert cleaned.region == "" or is_region_of(cleaned.country, cleaned.region)
    assert type(cleaned.min_age) is int and type(cleaned.max_age) is int
    assert min_age <= cleaned.min_age <= cleaned.max_age <= MAX_AGE


# --- defaults and saved filters -----------------------------------------------------------


def _profile(gender: str, sexuality: str, born: date = date(1990, 6, 15)) -> Profile:
    return Profile(
        member_id=1, name="Anna", gender=gender, sexuality=sexuality, date_of_birth=born,
        country="BE",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("gender", "sexuality", "sought"),
    [
        ("female", "hetero", "male"),
        ("male", "hetero", "female"),
        ("male", "gay", "male"),
        ("female", "lesbian", "female"),
        ("female", "bi", ""),
        ("male", "bi", ""),
    ],
)
def test_default_filters_look_for_the_sought_gender_near_ones_age(
    gender: str, sexuality: str, sought: str
) -> None:
    filters = default_filters(_profile(gender, sexuality), 18, TODAY)
    assert filters == SearchFilters(gender=sought, country="BE", min_age=25, max_age=45)


def test_default_ages_stay_within_the_allowed_range() -> None:
    young = default_filters(_profile("female", "hetero", date(2005, 1, 1)), 18, TODAY)
    old = default_filters(_profile("female", "hetero", date(1930, 1, 1)), 18, TODAY)
    assert (young.min_age, young.max_age) == (18, 30)
    assert (old.min_age, old.max_age) == (85, MAX_AGE)
    assert default_filters(_profile("male", "gay", date(2005, 1, 1)), 21, TODAY).min_age == 21


def test_saved_filters_round_trip_and_are_overwritten(db: Session) -> None:
    anna, bert = _member(db, "anna"), _member(db, "bert")
    assert saved_filters(db, anna.id) is None
    first = SearchFilters("male", "NL", "NL-UT", 25, 40)
    save_filters(db, anna.id, first)
    save_filters(db, bert.id, SearchFilters(gender="female"))
    assert saved_filters(db, anna.id) == first
    second = SearchFilters(country="BE", min_age=30)
    save_filters(db, anna.id, second)
    db.expire_all()
    assert saved_filters(db, anna.id) == second
    assert saved_filters(db, bert.id) == SearchFilters(gender="female")


@pytest.mark.parametrize(
    ("logged_out_search", "by_source", "has_source", "allowed"),
    [
        (True, False, False, True),
        (False, False, True, False),
        (False, True, False, False),
        (False, True, True, True),
    ],
)
def test_visitors_may_search_by_setting_or_traffic_source(
    logged_out_search: bool, by_source: bool, has_source: bool, allowed: bool
) -> None:
    assert visitors_may_search(logged_out_search, by_source, has_source) is allowed
