"""Members (accounts), their profiles and photos."""

from datetime import UTC, date, datetime
from enum import StrEnum

from sqlalchemy import JSON, Column, Index, event, inspect, true
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Field, Session, SQLModel, select


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """`moment` with its zone: SQLite hands stored UTC datetimes back without one."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class MemberStatus(StrEnum):
    NOT_CONFIRMED = "not_confirmed"
    ACTIVE = "active"
    DELETED_PENDING = "deleted_pending"  # hidden; reactivable for the grace period
    DELETED = "deleted"  # personal data erased
    SUSPENDED = "suspended"  # a moderation decision, until `suspended_until`
    BANNED = "banned"  # a moderation decision, for good unless an appeal reverses it


class Member(SQLModel, table=True):
    """An account; `status` is a MemberStatus."""

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254, unique=True, index=True)
    password_hash: str | None = Field(default=None, max_length=255)
    status: str = Field(default="not_confirmed", max_length=20)
    language: str = Field(default="en", max_length=5)
    paid_user: bool = False
    credits: int = 0
    signup_date: datetime = Field(default_factory=utcnow)
    fictional_icon: bool = False
    is_demo: bool = Field(default=False, index=True)
    notifications_disabled: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    notification_settings: dict[str, bool] = Field(default_factory=dict, sa_column=Column(JSON))
    invisible: bool = False  # left out of search and member lists
    privacy_mode: bool = False  # hidden from visitors; further photos only for members liked
    failed_logins: int = 0
    last_failed_login: datetime | None = None
    locked_until: datetime | None = None
    deleted_at: datetime | None = Field(default=None, index=True)
    delete_reason: str | None = Field(default=None, max_length=30)
    delete_note: str | None = Field(default=None, max_length=500)
    time_bonus_until: datetime | None = None  # the running welcome discount's deadline
    # When the deletion flow gave the member its stay-with-us code: once for good
    # (models/discount_codes.retention_code).
    retention_offered_at: datetime | None = None
    sdd_blocked_at: datetime | None = None  # a returned direct debit: the method is withheld
    sdd_block_reason: str | None = Field(default=None, max_length=40)
    time_zone: str | None = Field(default=None, max_length=64)  # IANA name the browser reported
    # The day the member's swipe likes count in (models/swipes.member_day), kept from its first
    # like until it ends, whatever time zone the browser reports meanwhile.
    swipe_day_start: datetime | None = None
    swipe_day_end: datetime | None = None
    # The one-click unsubscribe link's key in notification mails (models/notification_prefs).
    unsubscribe_key: str | None = Field(default=None, max_length=43, unique=True)
    suspended_until: datetime | None = None  # while status is suspended
    chat_from: str = Field(default="everyone", max_length=10)  # who may start a chat: ChatFrom


def member_with_email(db: Session, address: str) -> Member | None:
    """The account of `address`, in the form the account rules store it (clean_email)."""
    return db.exec(select(Member).where(Member.email == address)).first()


class Profile(SQLModel, table=True):
    """What other members see. `status` is enabled or disabled.

    `listed`, `privacy_mode` and `signup_date` copy what search reads from the member (kept by
    `_keep_search_copies`), so that a search page is read from one index of this table."""

    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    name: str = Field(max_length=40)
    gender: str = Field(max_length=10)
    sexuality: str = Field(max_length=10)
    date_of_birth: date
    country: str = Field(max_length=2)
    region: str | None = Field(default=None, max_length=10)
    city: str | None = Field(default=None, max_length=80)
    hair_colour: str | None = Field(default=None, max_length=10)
    eye_colour: str | None = Field(default=None, max_length=10)
    body_type: str | None = Field(default=None, max_length=10)
    relationship_status: str | None = Field(default=None, max_length=15)
    tattoos: str | None = Field(default=None, max_length=10)
    interests: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    about_me: str = Field(default="", max_length=2000)
    status: str = Field(default="enabled", max_length=10)
    main_photo_id: int | None = Field(default=None)
    listed: bool = False  # `is_listed`
    privacy_mode: bool = False  # the member's: hidden from visitors
    signup_date: datetime = Field(default=None, nullable=False)  # the member's


# Search's indexes: listed profiles only, one per set of filters a search names (gender or not,
# and no place, a country or a region), then newest first, then what the other filters read, so
# that rows of other ages or regions are skipped inside the index.
SEARCH_INDEXES = {
    "ix_profile_search_newest": (),
    "ix_profile_search_gender": ("gender",),
    "ix_profile_search_country": ("country",),
    "ix_profile_search_gender_country": ("gender", "country"),
    "ix_profile_search_region": ("region",),
    "ix_profile_search_gender_region": ("gender", "region"),
}
SEARCH_INDEX_TAIL = ("signup_date", "member_id", "date_of_birth", "region", "privacy_mode")


def search_index_columns(lead: tuple[str, ...]) -> list[str]:
    return [*lead, *(column for column in SEARCH_INDEX_TAIL if column not in lead)]


for _name, _lead in SEARCH_INDEXES.items():
    Index(
        _name,
        *(Profile.__table__.c[column] for column in search_index_columns(_lead)),
        postgresql_where=Profile.listed == true(),
        sqlite_where=Profile.listed == true(),  # as search writes it: SQLite matches the text
    )

MEMBER_FACTS_COPIED = ("status", "invisible", "privacy_mode", "signup_date")


def is_listed(member_status: str, invisible: bool, profile_status: str) -> bool:
    """In search and member grids: an active member, an enabled profile, not invisible."""
    return member_status == MemberStatus.ACTIVE and profile_status == "enabled" and not invisible


def copy_search_facts(member: Member, profile: Profile) -> None:
    """The profile's copies of what search reads from the member (see Profile)."""
    profile.listed = is_listed(member.status, member.invisible, profile.status)
    profile.privacy_mode = member.privacy_mode
    profile.signup_date = member.signup_date


def _changed(row: SQLModel, fields: tuple[str, ...]) -> bool:
    attributes = inspect(row).attrs
    return any(attributes[field].history.has_changes() for field in fields)


@event.listens_for(OrmSession, "before_flush")
def _keep_search_copies(db: OrmSession, _flush, _instances) -> None:
    """Every write through a session keeps the profile's copies right: a new profile, a profile
    shown or hidden, a member whose status, visibility or signup date changed."""
    for row in (*db.new, *db.dirty):
        if isinstance(row, Profile) and (row in db.new or _changed(row, ("status",))):
            member, profile = db.get(Member, row.member_id), row
        elif isinstance(row, Member) and row not in db.new and _changed(row, MEMBER_FACTS_COPIED):
            member, profile = row, db.get(Profile, row.id)
        else:
            continue
        if member is not None and profile is not None:
            copy_search_facts(member, profile)


def set_profile_status(db: Session, member_id: int, status: str) -> None:
    """Show (enabled) or hide (disabled) a member's profile. Caller commits."""
    profile = db.get(Profile, member_id)
    if profile is not None:
        profile.status = status
        db.add(profile)


class Photo(SQLModel, table=True):
    """A stored photo; files live outside the public folder. `status` is approved, pending
    (visible to its owner only, awaiting review under pre-moderation or after the classifier
    flagged it) or rejected. `phash` is its perceptual hash, `nsfw_score` the classifier's."""

    # The review queue: pending photos, and approved ones not yet reviewed since a date.
    __table_args__ = (Index("ix_photo_review", "status", "reviewed_at", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    filename: str = Field(max_length=120, index=True)
    thumb_filename: str = Field(max_length=120, index=True)
    position: int = 0
    status: str = Field(default="approved", max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
    phash: str | None = Field(default=None, max_length=32, index=True)
    nsfw_score: float | None = None
    reviewed_at: datetime | None = None
