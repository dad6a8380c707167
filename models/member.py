"""Members (accounts), their profiles and photos."""

from datetime import UTC, date, datetime
from enum import StrEnum

from sqlalchemy import JSON, Column, Index
from sqlmodel import Field, Session, SQLModel


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
    sdd_blocked_at: datetime | None = None  # a returned direct debit: the method is withheld
    sdd_block_reason: str | None = Field(default=None, max_length=40)


class Profile(SQLModel, table=True):
    """What other members see. `status` is enabled or disabled."""

    __table_args__ = (Index("ix_profile_search", "status", "gender", "country", "date_of_birth"),)

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


def set_profile_status(db: Session, member_id: int, status: str) -> None:
    """Show (enabled) or hide (disabled) a member's profile. Caller commits."""
    profile = db.get(Profile, member_id)
    if profile is not None:
        profile.status = status
        db.add(profile)


class Photo(SQLModel, table=True):
    """A stored photo; files live outside the public folder. `status` is approved or pending."""

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    filename: str = Field(max_length=120, index=True)
    thumb_filename: str = Field(max_length=120, index=True)
    position: int = 0
    status: str = Field(default="approved", max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
