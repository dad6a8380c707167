"""Server-side log-in sessions: the browser holds a random token, we keep only its hash."""

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, select

from models.member import utcnow

SESSION_LIFETIME = timedelta(days=30)


class AuthSession(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True, index=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(db: Session, member_id: int) -> str:
    """Create a session and return the token the browser keeps (256 random bits)."""
    token = secrets.token_urlsafe(32)
    db.add(
        AuthSession(
            token_hash=hash_token(token),
            member_id=member_id,
            expires_at=utcnow() + SESSION_LIFETIME,
        )
    )
    db.commit()
    return token


def _session_for_token(db: Session, token: str | None) -> AuthSession | None:
    if not token:
        return None
    return db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).first()


def member_id_for_token(db: Session, token: str | None) -> int | None:
    row = _session_for_token(db, token)
    if row is None or row.expires_at <= utcnow():
        return None
    return row.member_id


def end_session(db: Session, token: str | None) -> None:
    row = _session_for_token(db, token)
    if row is not None:
        db.delete(row)
        db.commit()
