"""Which staff member is acting: the one check behind every staff event and HTTP route.

A staff viewer is a member whose session is live, passed the second factor in this session
within `SECOND_FACTOR_LIFETIME` (12 hours), has been used within `STAFF_IDLE_TIMEOUT`, whose
account is active and who holds one of the roles the handler allows. The check only reads:
it says when the session's `last_seen_at` is a minute old (`seen_due`), and the guard then
runs `note_seen`, an action of its own, so an idle console ends on its own with at most one
write a minute."""

from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, col, select, update

from actions.runner import Done
from actions.viewer import MAX_TOKEN_LENGTH
from models.auth_session import AuthSession, hash_token
from models.member import Member, MemberStatus, as_utc, utcnow
from models.staff import SECOND_FACTOR_LIFETIME, STAFF_IDLE_TIMEOUT, Role, roles_of
from services.database import db_session, transaction

SEEN_EVERY = timedelta(minutes=1)


@dataclass(frozen=True)
class StaffViewer:
    member_id: int
    role: Role  # the role this action is taken in: the first allowed role the member holds
    roles: frozenset[Role]
    language: str
    address: str  # the client's address, for the audit log
    session_id: int = 0  # the session checked
    seen_due: bool = False  # its last use was noted a minute ago or longer: `note_seen`


def live_session(db: Session, token: str | None) -> AuthSession | None:
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).first()
    now = utcnow()
    if row is None or row.handoff_hash is not None or as_utc(row.expires_at) <= now:
        return None
    return row


def staff_member(db: Session, member_id: int) -> tuple[Member, frozenset[Role]] | None:
    """The active member and their roles, when they hold any."""
    member = db.get(Member, member_id)
    if member is None or member.status != MemberStatus.ACTIVE:
        return None
    roles = roles_of(db, member_id)
    return (member, roles) if roles else None


def staff_in(
    db: Session, token: str | None, allowed: tuple[Role, ...], address: str
) -> StaffViewer | None:
    """The staff member behind `token` when every condition of the module holds."""
    row = live_session(db, token)
    if row is None or row.second_factor_at is None or row.last_seen_at is None:
        return None
    now = utcnow()
    if as_utc(row.last_seen_at) + STAFF_IDLE_TIMEOUT <= now:
        return None
    if as_utc(row.second_factor_at) + SECOND_FACTOR_LIFETIME <= now:
        return None
    found = staff_member(db, row.member_id)
    member, roles = found if found else (None, frozenset())
    acting = next((role for role in allowed if role in roles), None)
    if member is None or acting is None:
        return None
    due = as_utc(row.last_seen_at) + SEEN_EVERY <= now
    return StaffViewer(row.member_id, acting, roles, member.language, address, row.id or 0, due)


def resolve_staff(token: str | None, allowed: tuple[Role, ...], address: str) -> StaffViewer | None:
    """`staff_in` with a session of its own: run it through `actions.runner.read`."""
    with db_session() as db:
        return staff_in(db, token, allowed, address)


def note_seen(session_id: int) -> Done[None]:
    """The staff session was used now, unless another tab noted it within the minute."""
    now = utcnow()
    with transaction() as db:
        db.exec(
            update(AuthSession)
            .where(col(AuthSession.id) == session_id)
            .where(col(AuthSession.last_seen_at) <= now - SEEN_EVERY)
            .values(last_seen_at=now)
        )
    return Done(None)
