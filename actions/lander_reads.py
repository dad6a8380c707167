"""The members a lander shows: listed members with a photo who fit its niche, nearest first.

Near means, in this order: the slug's place (its region, or its city where the region is
unknown), else the visitor's country; when fewer members fit there than the page shows, the
search widens (the place's country, then anywhere) and says so (`widened`). `counted` is what the
database counts in the area shown, up to COUNT_CAP past the page (then `capped`). Within an area
the nearest come first (same city, same region, same country), then the newest. Nobody hidden,
invisible, banned, suspended, in privacy mode (visitors) or blocked either way (a logged-in
viewer) is ever read: `listed_profiles_to`, the rule search and grids use."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import ColumnElement, Connection, Integer, and_, case, func, literal, select
from sqlmodel import Session

from models.directory import age_on
from models.lander_slug import LanderPlace, LanderTarget, parse_slug
from models.member import Member, Photo, Profile
from models.niches import niche_filter
from models.search import COUNT_CAP
from models.site_settings import SiteSettings
from models.visibility import listed_profiles_to
from services.database import read_connection
from services.photo_pipeline import MAX_SIDE, THUMB_SIZE
from services.place_names import place_named
from services.site_settings import current_settings
from translations.numbers import country_name

PLACE, COUNTRY, ANYWHERE = "place", "country", "anywhere"  # the areas, narrowest first


@dataclass(frozen=True)
class LanderMembers:
    members: list[dict] = field(default_factory=list)
    counted: int = 0  # members fitting in `area`, at most COUNT_CAP + 1 (then `capped`)
    widened: bool = False  # too few fitted where asked: `area` is wider
    area: str = ANYWHERE
    capped: bool = False


def lander_target(slug: object) -> LanderTarget:
    """The niche and place a lander's slug names (places the site knows; others ignored)."""
    return parse_slug(slug, place_named)


def _same_city(place: LanderPlace) -> ColumnElement[bool]:
    return and_(Profile.country == place.country, func.lower(Profile.city) == place.city.lower())


def _areas(place: LanderPlace | None, country: str | None) -> list[tuple[str, ColumnElement]]:
    """(area, its SQL) from the narrowest asked for to anywhere."""
    areas: list[tuple[str, ColumnElement]] = []
    if place is not None:
        local = Profile.region == place.region if place.region else _same_city(place)
        areas.append((PLACE, local))
    if country := place.country if place is not None else country:
        areas.append((COUNTRY, Profile.country == country))
    return [*areas, (ANYWHERE, literal(True))]


def _nearness(place: LanderPlace | None, country: str | None) -> ColumnElement[int]:
    """0 for the nearest members, larger further away."""
    steps = []
    if place is not None and place.city:
        steps.append((_same_city(place), 0))
    if place is not None and place.region:
        steps.append((Profile.region == place.region, 1))
    if country := place.country if place is not None else country:
        steps.append((Profile.country == country, 2))
    return case(*steps, else_=3) if steps else literal(0, Integer)


def _count(db: Session | Connection, where: ColumnElement[bool]) -> int:
    fitting = select(Profile.member_id).where(where).limit(COUNT_CAP + 1).subquery()
    return db.execute(select(func.count()).select_from(fitting)).scalar_one()


def _area_shown(
    db: Session | Connection,
    fitting: ColumnElement[bool],
    areas: list[tuple[str, ColumnElement]],
    limit: int,
) -> tuple[int, str, ColumnElement, int]:
    """(step, area, its SQL, members counted there): the narrowest area where `limit` fit."""
    for step, (area, local) in enumerate(areas[:-1]):
        counted = _count(db, and_(fitting, local))
        if counted >= limit:
            return step, area, local, counted
    area, local = areas[-1]
    return len(areas) - 1, area, local, _count(db, and_(fitting, local))


def _rows(db: Session | Connection, where: ColumnElement, near: ColumnElement, limit: int):
    query = (
        select(
            Profile.member_id,
            Profile.name,
            Profile.date_of_birth,
            Profile.city,
            Profile.country,
            Member.fictional_icon,
            Photo.filename,
            Photo.thumb_filename,
        )
        .join(Member, Member.id == Profile.member_id)
        .join(Photo, Photo.id == Profile.main_photo_id)  # the main photo is always approved
        .where(where)
        .order_by(near, Profile.signup_date.desc(), Profile.member_id.desc())
        .limit(limit)
    )
    return db.execute(query).all()


def _member(row: Sequence, settings: SiteSettings, locale: str, today: date) -> dict:
    member_id, name, born, city, country, fictional, filename, thumb = row
    small, large = settings.photo_url(thumb), settings.photo_url(filename)
    return {
        "id": member_id,
        "name": name,
        "age": age_on(born, today),
        "place": ", ".join(filter(None, (city, country_name(country, locale)))),
        "photo": small,
        "srcset": f"{small} {THUMB_SIZE[0]}w, {large} {MAX_SIDE}w",
        "fictional": fictional,
    }


def lander_members(
    db: Session | Connection,
    *,
    target: LanderTarget,
    country: str | None,
    locale: str,
    limit: int,
    viewer_id: int | None = None,
    settings: SiteSettings | None = None,
    today: date | None = None,
) -> LanderMembers:
    """Up to `limit` members for a lander of `target` shown to a visitor from `country` (or the
    logged-in `viewer_id`), nearest first, widening while fewer than `limit` fit."""
    today = today or date.today()
    fitting = and_(listed_profiles_to(viewer_id), niche_filter(target.niche, today))
    fitting = and_(fitting, Profile.main_photo_id.is_not(None))
    step, area, local, counted = _area_shown(db, fitting, _areas(target.place, country), limit)
    near = _nearness(target.place, country)
    settings = settings or current_settings()
    rows = _rows(db, and_(fitting, local), near, limit)
    return LanderMembers(
        members=[_member(row, settings, locale, today) for row in rows],
        counted=min(counted, COUNT_CAP),
        widened=step > 0,
        area=area,
        capped=counted > COUNT_CAP,
    )


def read_lander(
    slug: object,
    country: str | None,
    locale: str,
    limit: int,
    viewer_id: int | None = None,
    settings: SiteSettings | None = None,
) -> tuple[LanderTarget, LanderMembers]:
    """A lander's target and members, read on a plain pooled connection (run it through
    `actions.runner.read`)."""
    target = lander_target(slug)
    with read_connection() as connection:
        return target, lander_members(
            connection,
            target=target,
            country=country,
            locale=locale,
            limit=limit,
            viewer_id=viewer_id,
            settings=settings,
        )
