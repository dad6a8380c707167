"""Server-side log-in sessions: the browser holds a random token, we keep only its hash.

A log-in made over the websocket cannot set an HttpOnly cookie itself. It creates the session
with a one-time hand-off code instead; the browser trades that code for the cookie over HTTP
within a minute (see `redeem_handoff`).
"""

import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlmodel import Field, Session, SQLModel, col, or_, select

from models.member import utcnow

SESSION_LIFETIME = timedelta(days=30)
HANDOFF_LIFETIME = timedelta(minutes=1)


class AuthSession(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True, index=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    handoff_hash: str | None = Field(default=None, max_length=64, unique=True, index=True)
    second_factor_at: datetime | None = None  # a staff member's TOTP passed in this session
    last_seen_at: datetime | None = None  # a staff session's last use (the idle timeout)
    device: str = Field(default="", max_length=60)  # models/login_history.device_of
    address: str = Field(default="", max_length=64)  # the client's address at log-in
    place: str = Field(default="", max_length=2)  # the country at log-in, "" when unknown


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _add_session(db: Session, member_id: int, token: str, handoff: str | None = None) -> int:
    row = AuthSession(
        token_hash=hash_token(token),
        member_id=member_id,
        expires_at=utcnow() + SESSION_LIFETIME,
        handoff_hash=hash_token(handoff) if handoff else None,
    )
    db.add(row)
    db.flush()
    return row.id


def start_session(db: Session, member_id: int) -> str:
    """Create a session and return the token the browser keeps as its cookie."""
    token = new_token()
    _add_session(db, member_id, token)
    return token


def start_handoff(db: Session, member_id: int) -> tuple[str, int]:
    """Create a session whose cookie token is not known yet; return the one-time hand-off code
    and the session's id."""
    handoff = new_token()
    return handoff, _add_session(db, member_id, new_token(), handoff)


def start_handoff_session(db: Session, member_id: int) -> str:
    """`start_handoff`'s code alone."""
    return start_handoff(db, member_id)[0]


def redeem_handoff(
    db: Session, code: str | None, noted: Callable[[AuthSession], None] | None = None
) -> str | None:
    """Trade a fresh hand-off code for the session's cookie token, once; `noted` sees the
    session before it is written (the log-in history, models/login_history.py)."""
    if not code or len(code) > 100:
        return None
    query = select(AuthSession).where(AuthSession.handoff_hash == hash_token(code))
    row = db.exec(query).first()
    if row is None:
        return None
    row.handoff_hash = None
    if row.created_at + HANDOFF_LIFETIME <= utcnow():
        db.delete(row)
        db.flush()
        return None
    token = new_token()
    row.token_hash = hash_token(token)
    if noted is not None:
        noted(row)
    db.add(row)
    db.flush()
    return token


def _session_for_token(db: Session, token: str | None) -> AuthSession | None:
    if not token or len(token) > 100:
        return None
    return db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).first()


def member_id_for_token(db: Session, token: str | None) -> int | None:
    row = _session_for_token(db, token)
    if row is None or row.expires_at <= utcnow() or row.handoff_hash:
        return None
    return row.member_id


def end_session(db: Session, token: str | None) -> None:
    """Delete the session `token` names, in one statement (nothing for no token)."""
    if token and len(token) <= 100:
        db.exec(delete(AuthSession).where(AuthSession.token_hash == hash_token(token)))


def purge_expired_sessions(db: Session, now: datetime) -> int:
    """Delete the sessions past their 30 days and the hand-offs never traded in time (they
    hold the log-in's address and device); how many. Caller commits."""
    untraded = col(AuthSession.handoff_hash).is_not(None)
    late = AuthSession.created_at <= now - HANDOFF_LIFETIME
    expired = delete(AuthSession).where(or_(AuthSession.expires_at <= now, untraded & late))
    return db.exec(expired).rowcount


def end_all_sessions(db: Session, member_id: int, keep_token: str | None = None) -> None:
    """Log the member out everywhere but the session of `keep_token`. Caller commits."""
    keep = hash_token(keep_token) if keep_token else None
    for row in db.exec(select(AuthSession).where(AuthSession.member_id == member_id)):
        if row.token_hash != keep:
            db.delete(row)
