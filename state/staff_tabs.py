"""Open console tabs leave the console when their staff access ends, without waiting for the
tab's next event: a revoked role (from the command line, another process), the idle timeout,
a log-out or a ban elsewhere.

Each worker watches the tabs whose console page it loaded (`watch_staff_tab`, from
`StaffAccessState.check_access`): every WATCH_EVERY_SECONDS one statement asks which of their
sessions are no console sessions any more (actions/staff_access.ended_staff_sessions, which
never counts as use), and a tab among them that still shows a /staff page is sent to
/staff/verify, which sends it on to its step (the log-in, nothing here, or the code again).
A tab whose websocket closed is forgotten. The watch runs only while this worker has such tabs.
"""

import asyncio
import logging

import reflex as rx
from reflex.state import StateUpdate
from reflex_base.event import Event

from actions.runner import read
from actions.staff_access import ended_staff_sessions
from actions.viewer import session_token
from models.auth_session import hash_token
from models.routes import route_named
from services.outages import log_failure
from state.session import SessionState
from state.tab_keeper import serving_app

WATCH_EVERY_SECONDS = 5.0
CONSOLE_PREFIX = route_named("staff").path

log = logging.getLogger(__name__)

_watched: dict[str, str] = {}  # client token -> its session token's hash
_watch: asyncio.Task | None = None


def watch_staff_tab(state: rx.State) -> None:
    """Watch this tab (on a console page, its staff access just checked) from now on."""
    global _watch
    app, session = serving_app(), session_token(state.router.headers.cookie)
    if app is None or session is None:
        return
    _watched[state.router.session.client_token] = hash_token(session)
    if _watch is None or _watch.done():
        _watch = asyncio.create_task(_watch_while_needed(app), name="amorly staff tab watch")


async def _watch_while_needed(app: rx.App) -> None:
    while _watched:
        await asyncio.sleep(WATCH_EVERY_SECONDS)
        try:
            await send_ended_tabs_away(app)
        except Exception:
            log_failure(log, "staff tab watch failed")


async def send_ended_tabs_away(app: rx.App) -> int:
    """One round of the watch; how many tabs were sent away."""
    manager = app.event_namespace._token_manager
    for token in list(_watched):
        if not await manager.is_token_connected(token):
            _watched.pop(token, None)
    ended = await read(ended_staff_sessions, frozenset(_watched.values()))
    sent = 0
    for token in [token for token, session in _watched.items() if session in ended]:
        _watched.pop(token, None)
        sent += await _send_away(app, token)
    return sent


async def _send_away(app: rx.App, token: str) -> int:
    async with app.modify_state(rx.BaseStateToken(ident=token, cls=SessionState)) as root:
        if not root.router.url.path.startswith(CONSOLE_PREFIX):
            return 0  # the tab has left the console meanwhile
    away = StateUpdate(events=Event.from_event_type(rx.redirect(route_named("staff-verify").path)))
    await app.event_namespace.emit_update(away, token)
    return 1
