"""The browser's session cookie over HTTP: trading a log-in's hand-off code for it, ending it."""

from actions.runner import Done
from models.auth_session import end_session, member_id_for_token, redeem_handoff
from services.database import db_session, transaction


def trade_handoff(code: str | None, previous_token: str | None) -> Done[str | None]:
    """The new session's cookie token for a fresh hand-off code; the session this browser had
    before, if any, ends with it. None for an unknown, used or old code."""
    with transaction() as db:
        token = redeem_handoff(db, code)
        if token is not None:
            end_session(db, previous_token)
    return Done(token)


def log_out(token: str | None) -> Done[None]:
    """End the session behind the browser's cookie (nothing when there is none)."""
    with transaction() as db:
        end_session(db, token)
    return Done(None)


def session_is_live(token: str | None) -> bool:
    """Whether the cookie still names a live session, whatever the member's status."""
    with db_session() as db:
        return member_id_for_token(db, token) is not None
