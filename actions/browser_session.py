"""The browser's session cookie over HTTP: trading a log-in's hand-off code for it (and the
device cookie beside it), ending it."""

from functools import partial

from sqlalchemy import update
from sqlmodel import select

from actions.runner import Done
from actions.viewer import session_member
from models.auth_session import end_session, member_id_for_token, redeem_handoff
from models.login_history import Seen, note_login
from models.member import Member, utcnow
from services.database import db_session, transaction
from services.device_cookie import issue


def trade_handoff(code: str | None, previous_token: str | None, seen: Seen) -> Done[str | None]:
    """The new session's cookie token for a fresh hand-off code; the session this browser had
    before, if any, ends with it, and the log-in goes into the history with the browser `seen`.
    None for an unknown, used or old code."""
    with transaction() as db:
        token = redeem_handoff(db, code, partial(note_login, db, seen=seen))
        if token is not None:
            end_session(db, previous_token)
    return Done(token)


def device_cookie_for(token: str | None) -> str | None:
    """A fresh device cookie for the browser whose live session `token` names: after a log-in
    and after a password change (services/device_cookie.py)."""
    member_id = session_member(token)
    if member_id is None:
        return None
    with db_session() as db:
        member = db.exec(select(Member).where(Member.id == member_id)).first()
        return issue(member, utcnow()) if member is not None else None


def log_out(token: str | None) -> Done[None]:
    """End the session behind the browser's cookie (nothing when there is none) and the
    welcome countdown with it; the next log-in starts it again at the same deadline."""
    with transaction() as db:
        if (member_id := session_member(token)) is not None:
            db.exec(update(Member).where(Member.id == member_id).values(time_bonus_until=None))
        end_session(db, token)
    return Done(None)


def session_is_live(token: str | None) -> bool:
    """Whether the cookie still names a live session, whatever the member's status."""
    with db_session() as db:
        return member_id_for_token(db, token) is not None
