"""Live delivery to a member's open tabs, after the database has it.

Each tab registers its client token under its member on page load and on the periodic refresh
(services/tab_registry.py). Effects (actions/chat.py, actions/live.py) reach their handlers
after the commit; a handler tells a member something with `push_to_member`, which runs an update
on each of their connected tabs' states through `app.modify_state`; with Redis, Reflex relays
the result to whichever worker holds the tab's websocket. Before anything reaches a tab, the
tab's own session cookie is checked again (the one viewer check): a tab whose session ended
gets nothing. Every push runs in the effect's own task, never under the caller's state lock
(two members writing to each other would otherwise deadlock). Nothing depends on a push
arriving: a tab that reconnects reloads from the database; a failed push is logged.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

import reflex as rx

from actions.effects import handles, spawn
from actions.live import BadgesChanged
from actions.runner import read
from actions.viewer import Viewer, resolve_viewer, session_token
from services.outages import log_failure
from services.tab_registry import tab_registry
from state.session import SessionState
from state.tab_keeper import hold, serving_app

# receives the tab's root state and the member its cookie names now
TabUpdate = Callable[[rx.State, Viewer], Awaitable[None]]

log = logging.getLogger(__name__)


async def register_tab(state: rx.State, member_id: int | None) -> None:
    """Renew the tab's entry; a registry that is down (Redis restarting) is logged, and this
    worker's tab keeper registers the tab again once it is back."""
    token = state.router.session.client_token
    hold(token, member_id)
    if member_id is None:
        return
    try:
        await tab_registry().add(member_id, token)
    except Exception:
        log.warning("tab registry unavailable: tab of member %s not registered", member_id)


async def push_to_member(member_id: int, update: TabUpdate, except_token: str = "") -> None:
    """Run `update` on every open tab of the member but `except_token`."""
    await push_to_members(update, (member_id, except_token))


async def push_to_members(update: TabUpdate, *members: tuple[int, str]) -> None:
    """Run `update` on every open tab of each (member, but their tab `except_token`); the
    tabs are looked up in one round trip."""
    ids = [member_id for member_id, _ in members]
    try:
        found = await tab_registry().tokens_of(ids)
    except Exception:
        log.warning("tab registry unavailable: push to members %s dropped", ids)
        return
    await asyncio.gather(
        *(
            _push_to_tab(member_id, token, update)
            for member_id, except_token in members
            for token in found[member_id]
            if token != except_token
        )
    )


@handles(BadgesChanged)
async def _badges_changed(changed: BadgesChanged) -> None:
    """The member's balance or badges changed (a like, a purchase): their tabs show it."""
    await push_to_member(changed.member_id, _refresh_counts)


async def _refresh_counts(root: rx.State, _viewer: Viewer) -> None:
    await (await root.get_state(SessionState))._refresh_counts()


def push_later(seconds: float, member_id: int, token: str, update: TabUpdate) -> None:
    """Run `update` on one tab of the member, `seconds` from now, in the background."""

    async def later() -> None:
        await asyncio.sleep(seconds)
        await _push_to_tab(member_id, token, update)

    spawn(later())


async def _push_to_tab(member_id: int, token: str, update: TabUpdate) -> None:
    app = serving_app()
    if app is None:
        return
    try:
        if not await app.event_namespace._token_manager.is_token_connected(token):
            log.info("live push to a tab of member %s dropped: no websocket", member_id)
            await tab_registry().remove(member_id, token)  # it registers again on reconnect
            return
        async with app.modify_state(rx.BaseStateToken(ident=token, cls=SessionState)) as root:
            if not await run_on_tab(root, member_id, update):
                log.info("live push to a tab of member %s dropped: no session", member_id)
    except Exception:
        log_failure(log, "live push to a tab of member %s failed", member_id)


async def run_on_tab(root: rx.State, member_id: int, update: TabUpdate) -> bool:
    """Run `update` on the tab whose root state is `root` if the tab's own session cookie still
    names `member_id` (the tab may have logged out, or its session ended elsewhere)."""
    token = session_token(root.router.headers.cookie)
    viewer = await read(resolve_viewer, token)
    if viewer is None or viewer.member_id != member_id:
        return False
    await update(root, viewer)
    return True
