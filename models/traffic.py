"""A paid or affiliate click: recorded by the server once, on the landing page it arrived at,
with the network's tracking record, and kept with the account that signs up after it
(docs/acquisition.md, "Traffic sources")."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Index, and_, delete, func, or_, update
from sqlmodel import Field, Session, SQLModel, col, select

from models.account_rules import storable
from models.member import utcnow

TRACKING_FIELDS = ("network", "ref", "sub1", "sub2", "sub3")
TRACKING_MAX = 100
CLICK_ID_PARAMS = ("clickid", "click_id", "cid")  # the network's own id, by its usual names
USER_AGENT_LENGTH = 300
ADDRESS_HASH_LENGTH = 64
VARIANT_LENGTH = 40  # a lander's variant name (models/lander_variants.NAME_PATTERN: 20)
CLICKS_PER_HOUR = 20  # per address: past it, a page view records nothing
CLICK_LIFETIME = timedelta(days=30)  # the cookie's, and how long a click counts for a signup
KEPT_UNCLAIMED = timedelta(days=396)  # 13 months: clicks no account signed up after
KEPT_BOT_CLICKS = timedelta(days=7)  # crawlers' unclaimed clicks: the site-wide bound
PURGE_BATCH = 10_000
_LANDER_NAMES = {
    "members-id-landing": "member-landing",
    "members-id-landing2": "member-landing2",
    "members-id-landing3": "member-landing3",
    "members-id-signup": "member-signup",
}


class TrafficClick(SQLModel, table=True):
    __table_args__ = (Index("ix_trafficclick_address", "address_hash", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    network: str = Field(default="", max_length=TRACKING_MAX, index=True)
    ref: str = Field(default="", max_length=TRACKING_MAX)
    sub1: str = Field(default="", max_length=TRACKING_MAX)
    sub2: str = Field(default="", max_length=TRACKING_MAX)
    sub3: str = Field(default="", max_length=TRACKING_MAX)
    click_id: str = Field(default="", max_length=TRACKING_MAX)  # the network's own, if sent
    path: str = Field(default="", max_length=200)  # the landing page's path, without the query
    lander: str = Field(default="", max_length=40, index=True)  # "gallery", "member-landing", …
    variant: str = Field(default="", max_length=VARIANT_LENGTH)
    niche: str = Field(default="", max_length=10)
    language: str = Field(default="", max_length=5)
    address_hash: str = Field(default="", max_length=ADDRESS_HASH_LENGTH)
    user_agent: str = Field(default="", max_length=USER_AGENT_LENGTH)
    is_bot: bool = False
    member_id: int | None = Field(
        default=None, foreign_key="member.id", index=True, ondelete="SET NULL"
    )  # the account that signed up after this click


def _clean(value: object) -> str:
    return storable(str(value or "")).strip()[:TRACKING_MAX]


def clean_tracking(values: Mapping[str, object]) -> dict[str, str]:
    """The five tracking fields, trimmed to strings of at most 100 characters."""
    return {k: _clean(values.get(k)) for k in TRACKING_FIELDS}


def tracking_from_query(query: Mapping[str, str]) -> dict[str, str]:
    """The tracking record of a landing's query and the network's click id (the first of
    CLICK_ID_PARAMS sent), each bounded; all empty without tracking parameters."""
    click_id = next((query[k] for k in CLICK_ID_PARAMS if query.get(k)), "")
    return {**clean_tracking(query), "click_id": _clean(click_id)}


def tracking_of(click: TrafficClick) -> dict[str, str]:
    """The five fields the account's SignupSource keeps."""
    return {k: getattr(click, k) for k in TRACKING_FIELDS}


def lander_of(route_name: str) -> str:
    """The page a click landed on: a lander's design, a member landing's, else the route."""
    return _LANDER_NAMES.get(route_name, route_name.removeprefix("landers-"))[:40]


@dataclass(frozen=True)
class Landing:
    """A page request that carried tracking parameters (`tracking_from_query`)."""

    tracking: dict[str, str]
    path: str
    lander: str
    variant: str  # the lander's variant (models/lander_variants.py), "" for none
    niche: str  # a lander's (models/lander_slug.NICHES), "" on other pages
    language: str
    address_hash: str
    user_agent: str
    is_bot: bool


def _same(click: TrafficClick, tracking: dict[str, str]) -> bool:
    return all(getattr(click, k) == v for k, v in tracking.items())


def live_click(db: Session, click_id: int | None, now: datetime) -> TrafficClick | None:
    """The click `click_id` names while it counts (CLICK_LIFETIME)."""
    click = db.get(TrafficClick, click_id) if click_id else None
    return click if click is not None and click.created_at > now - CLICK_LIFETIME else None


def claimable_click(db: Session, click_id: int | None, now: datetime) -> TrafficClick | None:
    """The live click a signup may take: not a crawler's, no account's yet."""
    click = live_click(db, click_id, now)
    return click if click is not None and not click.is_bot and click.member_id is None else None


def record_click(db: Session, landing: Landing, known: int | None, now: datetime) -> int | None:
    """The id of the click this landing is: the visitor's `known` one when it carries the same
    tracking (a reload), else a new row; None past CLICKS_PER_HOUR from one address."""
    click = live_click(db, known, now)
    if click is not None and _same(click, landing.tracking):
        return click.id
    recent = select(func.count()).where(
        TrafficClick.address_hash == landing.address_hash,
        TrafficClick.created_at > now - timedelta(hours=1),
    )
    if db.exec(recent).one() >= CLICKS_PER_HOUR:
        return None
    click = TrafficClick(
        created_at=now,
        **landing.tracking,
        path=landing.path[:200],
        lander=landing.lander,
        variant=landing.variant[:VARIANT_LENGTH],
        niche=landing.niche,
        language=landing.language[:5],
        address_hash=landing.address_hash[:ADDRESS_HASH_LENGTH],
        user_agent=storable(landing.user_agent)[:USER_AGENT_LENGTH],
        is_bot=landing.is_bot,
    )
    db.add(click)
    db.flush()
    return click.id


def claim_click(db: Session, click: TrafficClick, member_id: int) -> dict[str, str]:
    """The click's tracking record for the new account's SignupSource when this signup took the
    click, in one conditional update (two signups at once: one takes it); else none."""
    claim = (
        update(TrafficClick)
        .where(col(TrafficClick.id) == click.id, col(TrafficClick.member_id).is_(None))
        .values(member_id=member_id)
        .execution_options(synchronize_session=False)
    )
    if db.exec(claim).rowcount != 1:  # type: ignore[attr-defined]
        return {}
    db.refresh(click)
    return tracking_of(click)


def click_of_member(db: Session, member_id: int) -> TrafficClick | None:
    """The click the member signed up after, if any."""
    query = select(TrafficClick).where(TrafficClick.member_id == member_id)
    return db.exec(query.order_by(col(TrafficClick.id).desc())).first()


def purge_unclaimed_clicks(db: Session, now: datetime) -> int:
    """Delete up to PURGE_BATCH clicks no account signed up after: older than 13 months, or
    crawlers' older than 7 days (which bounds the table whatever the per-address limit lets
    through)."""
    expired = or_(
        TrafficClick.created_at < now - KEPT_UNCLAIMED,
        and_(col(TrafficClick.is_bot), TrafficClick.created_at < now - KEPT_BOT_CLICKS),
    )
    old = (
        select(TrafficClick.id)
        .where(col(TrafficClick.member_id).is_(None), expired)
        .limit(PURGE_BATCH)
    )
    ids = list(db.exec(old))
    if ids:
        db.exec(delete(TrafficClick).where(col(TrafficClick.id).in_(ids)))
    return len(ids)


def forget_click_details(db: Session, member_id: int) -> None:
    """At erasure: the click keeps its tracking for the network's accounts, not the address's
    hash or the browser."""
    db.exec(
        update(TrafficClick)
        .where(TrafficClick.member_id == member_id)
        .values(address_hash="", user_agent="")
    )
