"""Staff: accounts with roles (moderator, support, admin) and their TOTP second factor.

Roles are granted and revoked from the command line only (app/support.py). A staff session is a
member session that also passed the second factor (`AuthSession.second_factor_at`) and has been
used within `STAFF_IDLE_TIMEOUT` (`AuthSession.last_seen_at`), for at most
`SECOND_FACTOR_LIFETIME` after the code (`AuthSession.second_factor_at`)."""

from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import JSON, Column
from sqlmodel import Field, Session, SQLModel, select

from models.member import utcnow

STAFF_IDLE_TIMEOUT = timedelta(minutes=30)
SECOND_FACTOR_LIFETIME = timedelta(hours=12)  # a passed code lasts this long, however busy


class Role(StrEnum):
    MODERATOR = "moderator"
    SUPPORT = "support"
    ADMIN = "admin"


class StaffRole(SQLModel, table=True):
    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    role: str = Field(primary_key=True, max_length=20)  # a Role
    granted_at: datetime = Field(default_factory=utcnow)


class StaffTotp(SQLModel, table=True):
    """A staff member's authenticator: the base32 secret, encrypted (models/totp.py), set up
    once `confirmed_at` is set. Until then it belongs to the session that made it
    (`enrol_session`, the session's token hash). `last_step` refuses a code used twice;
    `recovery_hashes` are the unused one-time codes' SHA-256 hashes."""

    member_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    secret: str = Field(max_length=200)
    enrol_session: str | None = Field(default=None, max_length=64)
    confirmed_at: datetime | None = None
    last_step: int = 0
    recovery_hashes: list[str] = Field(default_factory=list, sa_column=Column(JSON))
    created_at: datetime = Field(default_factory=utcnow)


def roles_of(db: Session, member_id: int) -> frozenset[Role]:
    rows = db.exec(select(StaffRole.role).where(StaffRole.member_id == member_id)).all()
    return frozenset(Role(role) for role in rows)
