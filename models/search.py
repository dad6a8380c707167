"""Member search (spec section 3, search state): filters, one query per page with its total."""

from dataclasses import asdict, dataclass, replace
from datetime import date, datetime

from sqlalchemy import ColumnElement, Select, and_, func, not_
from sqlmodel import Field, Session, SQLModel, select

from models.attributes import GENDERS
from models.directory import TILE_WIDTH, MemberTile, age_on, tile_select, to_tile
from models.member import Member, Profile, utcnow
from models.regions import is_region_of
from models.visibility import listed_to

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


def clean_filters(raw: dict, countries: list[str], min_age: int) -> SearchFilters:
    """Filters from the browser, made safe: unknown values become 'any'."""
    gender = raw.get("gender") if raw.get("gender") in GENDERS else ""
    country = raw.get("country") if raw.get("country") in countries else ""
    region = str(raw.get("region") or "")
    low = _as_age(raw.get("min_age"), min_age, min_age)
    high = _as_age(raw.get("max_age"), MAX_AGE, min_age)
    return SearchFilters(
        gender=gender,
        country=country,
        region=region if country and is_region_of(country, region) else "",
        min_age=min(low, high),
        max_age=max(low, high),
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


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def _matches(filters: SearchFilters, today: date) -> ColumnElement[bool]:
    youngest_birthday = _years_before(today, filters.min_age)
    oldest_birthday = _years_before(today, filters.max_age + 1)
    clauses = [
        Profile.date_of_birth <= youngest_birthday,
        Profile.date_of_birth > oldest_birthday,
    ]
    if filters.gender:
        clauses.append(Profile.gender == filters.gender)
    if filters.country:
        clauses.append(Profile.country == filters.country)
    if filters.region:
        # never NULL, so that not_(_matches(...)) keeps members without a region
        clauses.append(Profile.region.is_not_distinct_from(filters.region))
    return and_(*clauses)


def _page_select(where: ColumnElement[bool], limit: int, offset: int) -> Select:
    # The total as its own subquery, not count() over (): that window has to read every match
    # before LIMIT, yet PostgreSQL 15 costs the plan as if LIMIT stopped early. Apart, the page
    # can stop after offset + limit rows, and the count after COUNT_CAP more than the offset.
    matches = (
        select(Profile.member_id)
        .join(Member, Member.id == Profile.member_id)
        .where(where)
        .limit(offset + COUNT_CAP + 1)
        .correlate(None)
        .subquery()
    )
    total = select(func.count()).select_from(matches).scalar_subquery()
    return (
        tile_select(total.label("total"))
        .where(where)
        .order_by(Member.signup_date.desc(), Member.id.desc())
        .limit(limit)
        .offset(offset)
    )


def _page(db: Session, query: Select, today: date, offset: int) -> SearchPage:
    rows = db.exec(query).all()
    total = rows[0][TILE_WIDTH] if rows else 0
    return SearchPage(
        tiles=[to_tile(row, today) for row in rows],
        total=total,
        capped=total > offset + COUNT_CAP,
    )


def search_select(
    viewer_id: int | None, filters: SearchFilters, today: date, limit: int, offset: int = 0
) -> Select:
    """The statement `search_members` runs (bench/search.py times it raw too)."""
    return _page_select(and_(listed_to(viewer_id), _matches(filters, today)), limit, offset)


def search_members(
    db: Session,
    viewer_id: int | None,
    filters: SearchFilters,
    today: date,
    limit: int,
    offset: int = 0,
) -> SearchPage:
    """One page of matching members, newest first, and how many match in all."""
    return _page(db, search_select(viewer_id, filters, today, limit, offset), today, offset)


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
    wider = _matches(similar_filters(filters, min_age), today)
    where = and_(listed_to(viewer_id), wider, not_(_matches(filters, today)))
    return _page(db, _page_select(where, limit, offset), today, offset)


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
    through a traffic source."""
    return logged_out_search or (by_traffic_source and has_source)
