"""Who is acting: the one viewer check for websocket events and HTTP requests alike.

The tab's or request's own session cookie names a session row; the row must be live (not
expired, its hand-off traded) and its member's status allowed for what is asked. One statement.
"""

from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import ColumnElement, Connection, ScalarSelect, bindparam
from sqlmodel import Session, select
from starlette.requests import cookie_parser

from actions.runner import read
from models.auth_session import AuthSession, hash_token
from models.member import Member, MemberStatus, utcnow
from services.database import autocommit_connection, db_session
from services.loop_database import ELSEWHERE, LoopStatement, loop_row

SESSION_COOKIE = "auth.session"
DEVICE_COOKIE = "auth.device"  # a browser that logged in to an account: services/device_cookie
MAX_TOKEN_LENGTH = 100
SIGNED_IN = frozenset({MemberStatus.ACTIVE, MemberStatus.NOT_CONFIRMED})
ACTIVE = frozenset({MemberStatus.ACTIVE})


@dataclass(frozen=True)
class Viewer:
    member_id: int
    status: str
    language: str
    paid_user: bool

    @property
    def confirmed(self) -> bool:
        return self.status == MemberStatus.ACTIVE


def session_token(cookie_header: str | None) -> str | None:
    """The session cookie's value; a neighbouring cookie the strict parser dislikes (JSON, a
    space) must not hide it, so this reads cookies the way Starlette's requests do."""
    return cookie_parser(cookie_header or "").get(SESSION_COOKIE) or None


def device_token(cookie_header: str | None) -> str:
    """The device cookie's value, bounded ("" without one)."""
    value = cookie_parser(cookie_header or "").get(DEVICE_COOKIE) or ""
    return value if len(value) <= MAX_TOKEN_LENGTH else ""


def token_key(token: str | None) -> str:
    """The hash of a session token, as the session row keeps it; "" for a token that cannot be
    one (none, or longer than any we issue)."""
    return hash_token(token) if token and len(token) <= MAX_TOKEN_LENGTH else ""


def session_member(token: str | None) -> ScalarSelect[int] | None:
    """SQL for the member id of the live, traded session `token` names; None for a token that
    cannot be one. Other reads select by it, so the check costs no statement of its own."""
    key = token_key(token)
    return _session_member(*_traded(key)) if key else None


def session_key(cookie_header: str | None) -> str:
    """The session cookie's `token_key` ("" without one): what a tab registers for a check
    that runs without the tab's state (state/live.py)."""
    return token_key(session_token(cookie_header))


def _traded(key: str | ColumnElement[str]) -> tuple[ColumnElement[bool], ...]:
    """The session row of the token hashing to `key`, traded for its cookie already."""
    return AuthSession.token_hash == key, AuthSession.handoff_hash.is_(None)


def _session_member(*session: ColumnElement[bool]) -> ScalarSelect[int]:
    return (
        select(AuthSession.member_id)
        .where(AuthSession.expires_at > utcnow(), *session)
        .correlate(None)
        .scalar_subquery()
    )


VIEWER_COLUMNS = (Member.id, Member.status, Member.language, Member.paid_user)
# The check of every event and live push, built once: a statement built per call cost more
# Python than its round trip. Parameters: `key` (`token_key`) and `now`.
VIEWER_BY_KEY = select(*VIEWER_COLUMNS).where(
    Member.id
    == select(AuthSession.member_id)
    .where(
        AuthSession.expires_at > bindparam("now", type_=AuthSession.expires_at.type),
        *_traded(bindparam("key", type_=AuthSession.token_hash.type)),
    )
    .scalar_subquery()
)
_VIEWER_ON_LOOP = LoopStatement.of(VIEWER_BY_KEY)


def viewer_by_key(db: Session | Connection, key: str, allowed: frozenset) -> Viewer | None:
    return viewer_of(db.execute(VIEWER_BY_KEY, {"key": key, "now": utcnow()}).first(), allowed)


class ViewerRow(Protocol):
    """A row that starts with `VIEWER_COLUMNS`: SQLAlchemy's, or psycopg's on the loop."""

    id: int
    status: str
    language: str
    paid_user: bool


def viewer_of(row: ViewerRow | None, allowed: frozenset) -> Viewer | None:
    """The `Viewer` of a row that starts with `VIEWER_COLUMNS`, when its status is `allowed`."""
    if row is None or row.status not in allowed:
        return None
    return Viewer(row.id, row.status, row.language, row.paid_user)


def viewer_in(db: Session, token: str | None, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """The member behind `token` when the session is live and their status is `allowed`."""
    key = token_key(token)
    return viewer_by_key(db, key, allowed) if key else None


def _live_viewer(db: Session, allowed: frozenset, member_id: ScalarSelect[int]) -> Viewer | None:
    return viewer_of(
        db.exec(select(*VIEWER_COLUMNS).where(Member.id == member_id)).first(), allowed
    )


def session_viewer(session_id: int | None, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """The member of the session row `session_id` while it lives: for the tab that signed up,
    whose socket was opened before the new session's cookie existed."""
    if session_id is None:
        return None
    with db_session() as db:
        return _live_viewer(db, allowed, _session_member(AuthSession.id == session_id))


def resolve_viewer(token: str | None, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """`viewer_in` on a connection of its own that commits its one statement: run it through
    `actions.runner.read`."""
    key = token_key(token)
    if not key:
        return None
    with autocommit_connection() as connection:
        return viewer_by_key(connection, key, allowed)


async def viewer_now(token: str | None, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """`resolve_viewer` from the event loop: every event's, request's and live push's check. On
    the serving loop's own pool when it can (services/loop_database), else on a thread."""
    key = token_key(token)
    if not key:
        return None
    row = await loop_row(_VIEWER_ON_LOOP, {"key": key, "now": utcnow()})
    if row is ELSEWHERE:
        return await read(resolve_viewer, token, allowed)
    return viewer_of(row, allowed)
