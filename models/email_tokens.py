"""Single-use links sent by e-mail (activation, password reset, e-mail change, reactivation).

The mail carries a random token; we store only its hash, when it expires and when it was used.
"""

from datetime import datetime, timedelta
from enum import StrEnum

from sqlmodel import Field, Session, SQLModel, select

from models.auth_session import hash_token, new_token
from models.member import utcnow


class Purpose(StrEnum):
    ACTIVATE = "activate"
    RESET_PASSWORD = "reset_password"
    CHANGE_EMAIL = "change_email"
    REACTIVATE = "reactivate"


LIFETIMES = {
    Purpose.ACTIVATE: timedelta(days=7),
    Purpose.RESET_PASSWORD: timedelta(hours=1),
    Purpose.CHANGE_EMAIL: timedelta(days=1),
    Purpose.REACTIVATE: timedelta(days=14),
}


class EmailToken(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True, index=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    purpose: str = Field(max_length=20)
    new_email: str | None = Field(default=None, max_length=254)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    used_at: datetime | None = None


def _open_tokens(db: Session, member_id: int, purpose: Purpose) -> list[EmailToken]:
    query = select(EmailToken).where(
        EmailToken.member_id == member_id,
        EmailToken.purpose == purpose.value,
        EmailToken.used_at.is_(None),  # type: ignore[union-attr]
    )
    return list(db.exec(query))


def issue_token(db: Session, member_id: int, purpose: Purpose, new_email: str | None = None) -> str:
    """A fresh link token; older open links of the same purpose stop working. Caller commits."""
    now = utcnow()
    for older in _open_tokens(db, member_id, purpose):
        older.used_at = now
        db.add(older)
    token = new_token()
    db.add(
        EmailToken(
            token_hash=hash_token(token),
            member_id=member_id,
            purpose=purpose.value,
            new_email=new_email,
            expires_at=now + LIFETIMES[purpose],
        )
    )
    db.flush()
    return token


def find_token(db: Session, token: str | None) -> EmailToken | None:
    if not token or len(token) > 100:
        return None
    return db.exec(select(EmailToken).where(EmailToken.token_hash == hash_token(token))).first()


def usable_token(db: Session, token: str | None, purpose: Purpose) -> EmailToken | None:
    """The unused, unexpired token row of `purpose`, or None; `use_token` spends it."""
    row = find_token(db, token)
    if row is None or row.purpose != purpose.value or row.used_at or row.expires_at <= utcnow():
        return None
    return row


def token_usable(db: Session, token: str | None, purpose: Purpose) -> bool:
    return usable_token(db, token, purpose) is not None


def consume_token(db: Session, token: str | None, purpose: Purpose) -> EmailToken | None:
    """The unused, unexpired token row, now marked used; None otherwise. Caller commits."""
    row = usable_token(db, token, purpose)
    if row is not None:
        use_token(db, row)
    return row


def use_token(db: Session, row: EmailToken) -> None:
    """The link works once. Caller commits."""
    row.used_at = utcnow()
    db.add(row)
