"""A staff session's last use (actions/staff_viewer, state/staff_guard): the check behind every
staff event and route only reads; the use is noted by an action of its own (`note_seen`), at
most once a minute, and a session left alone for 30 minutes must pass the code again."""

from datetime import timedelta

from sqlmodel import Session, select

from actions.staff_viewer import note_seen, resolve_staff
from models.auth_session import AuthSession, hash_token
from models.member import as_utc, utcnow
from models.staff import Role
from state.staff_guard import checked_staff
from tests.factories import make_member
from tests.unit.test_staff_console_routes import staff_session

MODERATION = (Role.MODERATOR,)
ADDRESS = "192.0.2.7"


def _seen(db: Session, token: str, ago: timedelta | None = None):
    """The session's last use, after setting it `ago` before now when given."""
    db.expire_all()
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).one()
    if ago is not None:
        row.last_seen_at = utcnow() - ago
        db.add(row)
        db.commit()
    return as_utc(row.last_seen_at)


def test_the_check_reads_and_says_when_the_use_is_due(db: Session) -> None:
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    seen = _seen(db, token, timedelta(minutes=5))

    staff = resolve_staff(token, MODERATION, ADDRESS)

    assert staff is not None and staff.seen_due and staff.session_id
    assert _seen(db, token) == seen  # nothing written by the check
    _seen(db, token, timedelta(seconds=30))
    assert not resolve_staff(token, MODERATION, ADDRESS).seen_due


def test_the_use_is_noted_once_a_minute(db: Session) -> None:
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    _seen(db, token, timedelta(minutes=5))
    session_id = resolve_staff(token, MODERATION, ADDRESS).session_id

    note_seen(session_id)
    noted = _seen(db, token)
    assert utcnow() - noted < timedelta(seconds=5)
    note_seen(session_id)  # another tab within the minute: nothing to write
    assert _seen(db, token) == noted


async def test_a_staff_event_keeps_the_session_alive(db: Session) -> None:
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    _seen(db, token, timedelta(minutes=29))

    assert await checked_staff(token, MODERATION, ADDRESS) is not None
    assert utcnow() - _seen(db, token) < timedelta(seconds=5)
    _seen(db, token, timedelta(minutes=31))
    assert await checked_staff(token, MODERATION, ADDRESS) is None  # idle: the code again
