"""Member search (spec section 3, search state): filters, one query per page with its total.

Filters, visibility and the order read only `profile` (its copies of the member's facts, see
`models.member.Profile`), so a page walks one of the `SEARCH_INDEXES` newest first and stops
after the rows it shows, however many members there are."""

from dataclasses import asdict, dataclass, replace
from datetime import date, datetime
from functools import cache

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Date,
    Integer,
    Select,
    String,
    and_,
    bindparam,
    func,
    not_,
)
from sqlalchemy.types import TypeEngine
from sqlmodel import Field, Session, SQLModel, select

from models.attributes import GENDERS
from models.directory import TILE_WIDTH, MemberTile, age_on, tile_select, to_tile
from models.member import Profile, utcnow
from models.regions import is_region_of
from models.visibility import listed_profiles_to

MAX_AGE = 99
DEFAULT_AGE_SPREAD = 10
SIMILAR_AGE_SPREAD = 5
COUNT_CAP = 1000  # "more than 1000 found": counting every one of 40,000 matches costs ~50 ms


@dataclass(frozen=True)
class SearchFilters:
    gender: str = ""  # "" means any
    country: str = ""
    region: str = ""
    min_age: int = 18
    max_age: int = MAX_AGE


@dataclass(frozen=True)
class SearchPage:
    tiles: list[MemberTile]
    total: int  # counted up to COUNT_CAP past the page's offset
    capped: bool = False  # more match than `total` says


class SearchPreference(SQLModel, table=True):
    """The filters a member searched with last, restored when they come back."""

    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    gender: str = Field(default="", max_length=10)
    country: str = Field(default="", max_length=2)
    region: str = Field(default="", max_length=10)
    min_age: int = 18
    max_age: int = MAX_AGE
    updated_at: datetime = Field(default_factory=utcnow)


def _as_age(value: object, default: int, min_age: int) -> int:
    try:
        age = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):  # OverflowError: infinity
        return default
    return min(max(age, min_age), MAX_AGE)


def age_range(raw: dict, min_age: int) -> tuple[int, int]:
    """`min_age` and `max_age` from the browser as ages from `min_age` to MAX_AGE, in order."""
    low = _as_age(raw.get("min_age"), min_age, min_age)
    high = _as_age(raw.get("max_age"), MAX_AGE, min_age)
    return min(low, high), max(low, high)


def clean_filters(raw: dict, countries: list[str], min_age: int) -> SearchFilters:
    """Filters from the browser, made safe: unknown values become 'any'."""
    gender = raw.get("gender") if raw.get("gender") in GENDERS else ""
    country = raw.get("country") if raw.get("country") in countries else ""
    region = str(raw.get("region") or "")
    low, high = age_range(raw, min_age)
    return SearchFilters(
        gender=gender,
        country=country,
        region=region if country and is_region_of(country, region) else "",
        min_age=low,
        max_age=high,
    )


def sought_genders(gender: str, sexuality: str) -> tuple[str, ...]:
    if sexuality == "bi":
        return GENDERS
    if sexuality in ("gay", "lesbian"):
        return (gender,)
    return tuple(g for g in GENDERS if g != gender)


def default_filters(profile: Profile, min_age: int, today: date) -> SearchFilters:
    """What a member is looking for, near their own age, in their own country."""
    sought = sought_genders(profile.gender, profile.sexuality)
    age = age_on(profile.date_of_birth, today)
    return SearchFilters(
        gender=sought[0] if len(sought) == 1 else "",
        country=profile.country,
        min_age=max(min_age, age - DEFAULT_AGE_SPREAD),
        max_age=min(MAX_AGE, age + DEFAULT_AGE_SPREAD),
    )


def years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


@dataclass(frozen=True)
class _Shape:
    """Which filters are set: all a statement's text depends on besides the viewer being a
    visitor. The values go in as parameters, so each shape is built once (`_statement`)."""

    gender: bool
    country: bool  # a country without a region: a region's ISO code names its country
    region: bool

    @classmethod
    def of(cls, filters: SearchFilters) -> "_Shape":
        region = bool(filters.region)
        return cls(bool(filters.gender), bool(filters.country) and not region, region)


def _matches(shape: _Shape, prefix: str) -> ColumnElement[bool]:
    def value(name: str, kind: type[TypeEngine] = String) -> BindParameter:
        return bindparam(prefix + name, type_=kind)

    clauses = [
        Profile.date_of_birth <= value("youngest_birthday", Date),
        Profile.date_of_birth > value("oldest_birthday", Date),
    ]
    if shape.gender:
        clauses.append(Profile.gender == value("gender"))
    if shape.country:
        clauses.append(Profile.country == value("country"))
    if shape.region:
        # Without the country, which the region's code names (`clean_filters` and profiles keep
        # regions of their country): asked for both, PostgreSQL takes them as independent and
        # expects a few dozen rows where there are hundreds. Never NULL, so that
        # not_(_matches(...)) keeps members without a region; `=`, not IS NOT DISTINCT FROM,
        # which no index serves.
        clauses += [Profile.region.is_not(None), Profile.region == value("region")]
    return and_(*clauses)


def _values(filters: SearchFilters, today: date, prefix: str) -> dict[str, object]:
    """The parameters of `_matches(_Shape.of(filters), prefix)`."""
    values = {
        "youngest_birthday": years_before(today, filters.min_age),
        "oldest_birthday": years_before(today, filters.max_age + 1),
        "gender": filters.gender,
        "country": "" if filters.region else filters.country,
        "region": filters.region,
    }
    return {prefix + name: value for name, value in values.items() if value}


def _page_select(where: ColumnElement[bool]) -> Select:
    # The total as its own subquery, not count() over (): that window has to read every match
    # before LIMIT, yet PostgreSQL 15 costs the plan as if LIMIT stopped early. Apart, the page
    # can stop after offset + limit rows, and the count after COUNT_CAP more than the offset.
    matches = (
        select(Profile.member_id)
        .where(where)
        .limit(bindparam("count_limit", type_=Integer))
        .correlate(None)
        .subquery()
    )
    total = select(func.count()).select_from(matches).scalar_subquery()
    return (
        tile_select(total.label("total"))
        .where(where)
        .order_by(Profile.signup_date.desc(), Profile.member_id.desc())
        .limit(bindparam("limit", type_=Integer))
        .offset(bindparam("offset", type_=Integer))
    )


@cache
def _statement(visitor: bool, shape: _Shape, unlike: _Shape | None = None) -> Select:
    """A page of listed members of `shape` (and, for similar members, not of `unlike`):
    built once per shape, which saves rebuilding and re-keying it on every search."""
    viewer = None if visitor else bindparam("viewer_id", type_=Integer)
    where = and_(listed_profiles_to(viewer), _matches(shape, "wide_" if unlike else ""))
    if unlike is not None:
        where = and_(where, not_(_matches(unlike, "")))
    return _page_select(where)


def _page_values(viewer_id: int | None, limit: int, offset: int) -> dict[str, object]:
    values = {"limit": limit, "offset": offset, "count_limit": offset + COUNT_CAP + 1}
    return values if viewer_id is None else {**values, "viewer_id": viewer_id}


def _page(
    db: Session, query: Select, values: dict[str, object], today: date, offset: int
) -> SearchPage:
    rows = db.exec(query, params=values).all()
    total = rows[0][TILE_WIDTH] if rows else 0
    return SearchPage(
        tiles=[to_tile(row, today) for row in rows],
        total=total,
        capped=total > offset + COUNT_CAP,
    )


def _search(
    viewer_id: int | None, filters: SearchFilters, today: date, limit: int, offset: int
) -> tuple[Select, dict[str, object]]:
    statement = _statement(viewer_id is None, _Shape.of(filters))
    return statement, {**_page_values(viewer_id, limit, offset), **_values(filters, today, "")}


def search_select(
    viewer_id: int | None, filters: SearchFilters, today: date, limit: int, offset: int = 0
) -> Select:
    """The statement `search_members` runs, its parameters bound (bench/search.py times it
    raw too)."""
    statement, values = _search(viewer_id, filters, today, limit, offset)
    return statement.params(values)


def search_members(
    db: Session,
    viewer_id: int | None,
    filters: SearchFilters,
    today: date,
    limit: int,
    offset: int = 0,
) -> SearchPage:
    """One page of matching members, newest first, and how many match in all."""
    return _page(db, *_search(viewer_id, filters, today, limit, offset), today, offset)


def similar_filters(filters: SearchFilters, min_age: int) -> SearchFilters:
    """Wider: any country, a few years either side."""
    return replace(
        filters,
        country="",
        region="",
        min_age=max(min_age, filters.min_age - SIMILAR_AGE_SPREAD),
        max_age=min(MAX_AGE, filters.max_age + SIMILAR_AGE_SPREAD),
    )


def similar_members(
    db: Session,
    viewer_id: int | None,
    filters: SearchFilters,
    min_age: int,
    today: date,
    limit: int,
    offset: int = 0,
) -> SearchPage:
    """Members close to the search who are not among its results."""
    wider = similar_filters(filters, min_age)
    statement = _statement(viewer_id is None, _Shape.of(wider), _Shape.of(filters))
    values = {
        **_page_values(viewer_id, limit, offset),
        **_values(wider, today, "wide_"),
        **_values(filters, today, ""),
    }
    return _page(db, statement, values, today, offset)


def saved_filters(db: Session, member_id: int) -> SearchFilters | None:
    row = db.get(SearchPreference, member_id)
    if row is None:
        return None
    return SearchFilters(row.gender, row.country, row.region, row.min_age, row.max_age)


def save_filters(db: Session, member_id: int, filters: SearchFilters) -> None:
    db.merge(SearchPreference(member_id=member_id, updated_at=utcnow(), **asdict(filters)))
    db.flush()


def visitors_may_search(logged_out_search: bool, by_traffic_source: bool, has_source: bool) -> bool:
    """Settings logged_out_search, and logged_out_search_trafficsource for visitors who came
    through a recorded click (models/traffic.py)."""
    return logged_out_search or (by_traffic_source and has_source)
