"""The members a lander shows: listed members with a photo who fit its niche, nearest first.

Near means, in this order: the slug's place (its region, or its city where the region is
unknown), else the visitor's country; when fewer members fit there than the page shows, the
search widens (the place's country, then anywhere) and says so (`widened`). `counted` is what the
database counts in the area shown, up to COUNT_CAP past the page (then `capped`). Within an area
the nearest come first (same city, same region, same country), then the newest. Nobody hidden,
invisible, banned, suspended, in privacy mode (visitors) or blocked either way (a logged-in
viewer) is ever read: `listed_profiles_to`, the rule search and grids use.

A feed (`lander_activity`) reads the same area and shows its most recently active members, each
with their latest event and its real time: a newly approved photo, else joining.
`lander_recently_active` reads the members active lately (`active_since`), which the site
measures from what it records anyway: it keeps no "online" presence."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Subquery,
    and_,
    case,
    func,
    literal,
    or_,
    select,
    true,
)
from sqlmodel import Session

from models.chat import Message
from models.directory import age_on
from models.lander_slug import LanderPlace, LanderTarget, parse_slug
from models.likes import Like
from models.member import Member, Photo, Profile
from models.niches import niche_filter
from models.search import COUNT_CAP
from models.site_settings import SiteSettings
from models.swipes import Swipe
from models.visibility import listed_profiles_to
from services.database import read_connection
from services.photo_pipeline import MAX_SIDE, THUMB_SIZE
from services.place_names import place_named
from services.site_settings import current_settings
from translations.numbers import country_name

PLACE, COUNTRY, ANYWHERE = "place", "country", "anywhere"  # the areas, narrowest first
_AREAS = (PLACE, COUNTRY, ANYWHERE)
JOINED, NEW_PHOTO = "joined", "photo"  # a feed's events
JOIN_WINDOW = timedelta(hours=1)  # photos added this soon after signing up are part of joining
RECENT_PHOTOS = timedelta(days=30)  # older photos are no news: the member's event is joining


@dataclass(frozen=True)
class LanderMembers:
    members: list[dict] = field(default_factory=list)
    counted: int = 0  # members fitting in `area`, at most COUNT_CAP + 1 (then `capped`)
    widened: bool = False  # too few fitted where asked: `area` is wider
    area: str = ANYWHERE
    capped: bool = False


@dataclass(frozen=True)
class LanderAsk:
    """What a lander asks for: members of `target` for a visitor from `country` (or the logged-in
    `viewer_id`) in `locale`, up to `limit`, at `now` (default: the time of the read)."""

    target: LanderTarget
    country: str | None
    locale: str
    limit: int
    viewer_id: int | None = None
    settings: SiteSettings | None = None
    now: datetime | None = None

    def at(self) -> datetime:
        return self.now or datetime.now(UTC)

    def site_settings(self) -> SiteSettings:
        return self.settings or current_settings()


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


def _member_query():
    """A member's columns as `_member` reads them, with the main photo (always approved)."""
    return (
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
        .join(Photo, Photo.id == Profile.main_photo_id)
    )


def _rows(db: Session | Connection, where: ColumnElement, near: ColumnElement, limit: int):
    query = (
        _member_query()
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


def _found(members: list[dict], step: int, area: str, counted: int) -> LanderMembers:
    return LanderMembers(
        members=members,
        counted=min(counted, COUNT_CAP),
        widened=step > 0,
        area=area,
        capped=counted > COUNT_CAP,
    )


def _fitting(target: LanderTarget, viewer_id: int | None, today: date) -> ColumnElement[bool]:
    """Listed members of the niche with a (main) photo whom this viewer may see."""
    fitting = and_(listed_profiles_to(viewer_id), niche_filter(target.niche, today))
    return and_(fitting, Profile.main_photo_id.is_not(None))


def lander_members(
    db: Session | Connection, ask: LanderAsk, also: ColumnElement[bool] | None = None
) -> LanderMembers:
    """Up to `ask.limit` members for a lander, nearest first, widening while fewer than that
    fit; only those `also` holds for, if given."""
    today = ask.at().date()
    fitting = and_(_fitting(ask.target, ask.viewer_id, today), true() if also is None else also)
    areas = _areas(ask.target.place, ask.country)
    step, area, local, counted = _area_shown(db, fitting, areas, ask.limit)
    near = _nearness(ask.target.place, ask.country)
    rows = _rows(db, and_(fitting, local), near, ask.limit)
    settings = ask.site_settings()
    members = [_member(row, settings, ask.locale, today) for row in rows]
    return _found(members, step, area, counted)


def _latest_photos(now: datetime) -> Subquery:
    """Each member's newest approved photo of the last RECENT_PHOTOS."""
    return (
        select(Photo.member_id, func.max(Photo.created_at).label("at"))
        .where(Photo.status == "approved", Photo.created_at >= now - RECENT_PHOTOS)
        .group_by(Photo.member_id)
        .subquery()
    )


def _event(joined: datetime, photo_at: datetime | None) -> tuple[str, datetime]:
    """A member's latest event and its time (UTC)."""
    if photo_at is not None and photo_at - joined > JOIN_WINDOW:
        return NEW_PHOTO, photo_at.replace(tzinfo=UTC)
    return JOINED, joined.replace(tzinfo=UTC)


def _active_rows(db: Session | Connection, where: ColumnElement, now: datetime, limit: int):
    """(member columns, signup date, newest recent photo) of the most recently active."""
    latest = _latest_photos(now)
    active = case((latest.c.at > Profile.signup_date, latest.c.at), else_=Profile.signup_date)
    query = (
        _member_query()
        .add_columns(Profile.signup_date, latest.c.at)
        .outerjoin(latest, latest.c.member_id == Profile.member_id)
        .where(where)
        .order_by(active.desc(), Profile.member_id.desc())
        .limit(limit)
    )
    return db.execute(query).all()


def lander_activity(db: Session | Connection, ask: LanderAsk) -> LanderMembers:
    """A feed of up to `ask.limit` members, in the area `lander_members` would show, the most
    recently active first; each member also has `event` (JOINED or NEW_PHOTO) and `at`, its real
    time."""
    now = ask.at()
    fitting = _fitting(ask.target, ask.viewer_id, now.date())
    areas = _areas(ask.target.place, ask.country)
    step, area, local, counted = _area_shown(db, fitting, areas, ask.limit)
    settings = ask.site_settings()
    members = []
    for row in _active_rows(db, and_(fitting, local), now, ask.limit):
        event, at = _event(row[-2], row[-1])
        member = _member(row[:-2], settings, ask.locale, now.date())
        members.append(member | {"event": event, "at": at})
    members.sort(key=lambda member: member["at"], reverse=True)  # a joining's photo came later
    return _found(members, step, area, counted)


ACTIVE_WINDOWS = (timedelta(days=1), timedelta(days=7))  # shortest first
FEW_ACTIVE = 6  # fewer active than this in a window: the next window, then the newest members


@dataclass(frozen=True)
class ActiveMembers(LanderMembers):
    within: timedelta | None = None  # members active within this; None: the newest instead


def active_since(since: datetime) -> ColumnElement[bool]:
    """Profiles of real (not fictional) members who, since `since`, sent a message, liked someone
    (not the site's automatic likes), swiped in the swipe game or uploaded a photo: activity the
    site records anyway. It keeps no presence, so this is the only honest "active"."""
    member, at = Profile.member_id, since.astimezone(UTC)
    # Correlated to the profile only: the outer query joins `member` and `photo` too.
    acted = or_(
        *(
            select(literal(1)).where(*where).correlate(Profile).exists()
            for where in (
                (Message.sender_id == member, Message.created_at >= at),
                (Like.liker_id == member, Like.created_at >= at, Like.automatic.is_(False)),
                (Swipe.member_id == member, Swipe.created_at >= at),
                (Photo.member_id == member, Photo.created_at >= at),
            )
        )
    )
    fictional = select(literal(1)).where(Member.id == member, Member.fictional_icon)
    fictional = fictional.correlate(Profile).exists()
    return and_(acted, ~fictional)


def lander_recently_active(db: Session | Connection, ask: LanderAsk) -> ActiveMembers:
    """Up to `ask.limit` members, as `lander_members` picks them, active (`active_since`) within
    one of ACTIVE_WINDOWS: of those where at least FEW_ACTIVE were, the one shown nearest the
    place asked (the shortest on a tie); none: the newest members, `within` None."""
    now = ask.at()
    ask = replace(ask, now=now)
    enough = []
    for window in ACTIVE_WINDOWS:
        read = lander_members(db, ask, also=active_since(now - window))
        found = ActiveMembers(**vars(read), within=window)
        if found.counted >= FEW_ACTIVE:
            if not found.widened:
                return found
            enough.append(found)
    if enough:  # min() keeps the first, the shortest window, of equally near ones
        return min(enough, key=lambda found: _AREAS.index(found.area))
    return ActiveMembers(**vars(lander_members(db, ask)))


MemberChooser = Callable[[Connection, LanderAsk], LanderMembers]  # lander_members, or its own


def read_lander(
    slug: object, ask: Callable[[LanderTarget], LanderAsk], choose: MemberChooser = lander_members
) -> tuple[LanderTarget, LanderMembers]:
    """A lander's target and members as `choose` picks them for `ask(target)`, read on a plain
    pooled connection (run it through `actions.runner.read`)."""
    target = lander_target(slug)
    with read_connection() as connection:
        return target, choose(connection, ask(target))


def members_per_place(
    db: Session | Connection,
    *,
    niche: str,
    country: str | None,
    countries: Sequence[str] = (),
    viewer_id: int | None = None,
    today: date | None = None,
) -> dict[str, int]:
    """The niche's listed members with a photo in each region of `country` (by region code), or,
    with no country, in each of `countries` (by country code): one grouped count, exact."""
    place, where = (
        (Profile.region, Profile.country == country)
        if country
        else (Profile.country, Profile.country.in_(countries))
    )
    fitting = _fitting(LanderTarget(niche), viewer_id, today or date.today())
    query = select(place, func.count()).where(fitting, where, place.is_not(None)).group_by(place)
    return {code: count for code, count in db.execute(query).all()}


def read_members_per_place(
    niche: str, country: str | None, countries: Sequence[str], viewer_id: int | None = None
) -> dict[str, int]:
    """`members_per_place` on a plain pooled connection (run it through `actions.runner.read`)."""
    with read_connection() as connection:
        return members_per_place(
            connection, niche=niche, country=country, countries=countries, viewer_id=viewer_id
        )
