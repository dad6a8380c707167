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

A lean push (`LeanPush`, a chat message) skips the state of the tabs that show its
conversation at its newest end, as their registration says: once the tab's socket is known to
be connected, the tab's session (the hash its cookie registered) is checked, with what the push
records for it in the same statement (the read mark), then frontend events and a delta go
straight to its socket
(`app.event_namespace.emit_update`, which with Redis reaches the worker holding it); the tab's
state learns of it on its next catch-up, refresh or send. Every other tab gets the full update,
and so does one whose lean check failed. A `TabReply` goes the same way to the one tab that
acted outside its state (a chat message sent over HTTP, app/chat_api.py), when the registry
holds that tab under the session the request was checked with.
"""

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import reflex as rx
from reflex.state import StateUpdate

from actions.effects import handles, spawn
from actions.live import BadgesChanged
from actions.viewer import Viewer, session_key, session_token, viewer_now
from services.outages import log_failure
from services.tab_registry import tab_registry
from state.session import SessionState
from state.tab_keeper import hold, serving_app

# receives the tab's root state and the member its cookie names now
TabUpdate = Callable[[rx.State, Viewer], Awaitable[None]]
CHAT_PATH = re.compile(r"^/chats/(\d{1,12})/?$")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LeanPush:
    """`update` (frontend events, and a delta the tab's state need not remember) for the tabs
    of `member_id` that show conversation `conversation_id` at its newest end. `check` takes a
    connected tab's session key and answers the member of that session, having recorded the
    push for them (the read mark) when it is `member_id`; None for a session that ended."""

    member_id: int
    conversation_id: int
    update: StateUpdate
    check: Callable[[str], Awaitable[Viewer | None]]


@dataclass(frozen=True)
class TabReply:
    """`update` (a delta the tab's state need not remember) for the tab `token` of `member_id`,
    which the registry must hold with the session key `key` its request was checked with."""

    member_id: int
    token: str
    key: str
    update: StateUpdate


def shown_chat(path: str) -> int:
    """The conversation an address shows (0: none, or one known only by its other member)."""
    found = CHAT_PATH.match(path)
    return int(found.group(1)) if found else 0


async def register_tab(state: rx.State, member_id: int | None, showing: int | None = None) -> None:
    """Renew the tab's entry with the chat it shows at its newest end (`showing`, by default
    the one its address names) and its session; a registry that is down (Redis restarting) is
    logged, and this worker's tab keeper registers the tab again once it is back."""
    token = state.router.session.client_token
    hold(token, member_id)
    if member_id is None:
        return
    if showing is None:
        showing = shown_chat(state.router.url.path)
    shows = f"{showing} {session_key(state.router.headers.cookie)}" if showing else ""
    try:
        await tab_registry().add(member_id, token, shows)
    except Exception:
        log.warning("tab registry unavailable: tab of member %s not registered", member_id)


async def push_to_member(member_id: int, update: TabUpdate, except_token: str = "") -> None:
    """Run `update` on every open tab of the member but `except_token`."""
    await push_to_members(update, (member_id, except_token))


async def push_to_members(
    update: TabUpdate,
    *members: tuple[int, str],
    lean: LeanPush | None = None,
    reply: TabReply | None = None,
) -> None:
    """Run `update` on every open tab of each (member, but their tab `except_token`), but the
    tabs `lean` serves, and send `reply`; the tabs are looked up in one round trip."""
    ids = [member_id for member_id, _ in members]
    try:
        found = await tab_registry().tabs_of(ids)
    except Exception:
        log.warning("tab registry unavailable: push to members %s dropped", ids)
        return
    served = _lean_tabs(lean, found.get(lean.member_id, {})) if lean else {}
    await asyncio.gather(
        *([_push_lean(lean, served, update)] if lean and served else []),
        *([_emit(reply.update, reply.member_id, [reply.token])] if _holds(found, reply) else []),
        *(
            _push_to_tab(member_id, token, update)
            for member_id, except_token in members
            for token in found[member_id]
            if token != except_token and token not in served
        ),
    )


def _holds(found: dict[int, dict[str, str]], reply: TabReply | None) -> bool:
    """The registry holds the reply's tab under its member with the reply's session key."""
    if reply is None or not reply.key:
        return False
    return found.get(reply.member_id, {}).get(reply.token, "").partition(" ")[2] == reply.key


def _lean_tabs(lean: LeanPush, tabs: dict[str, str]) -> dict[str, str]:
    """The tabs (token: session key) that registered showing the lean push's conversation."""
    served = {}
    for token, shows in tabs.items():
        showing, _, key = shows.partition(" ")
        if showing == str(lean.conversation_id) and key:
            served[token] = key
    return served


async def _push_lean(lean: LeanPush, tabs: dict[str, str], update: TabUpdate) -> None:
    """The lean update to each tab whose session still names the member (checked without the
    tab's state, by the key it registered); a tab whose check failed (the database or Redis
    away a moment) gets the full update instead."""
    app = serving_app()
    if app is None:
        return
    checked = await asyncio.gather(
        *(_lean_viewer(app, lean, token, key) for token, key in tabs.items()),
        return_exceptions=True,
    )
    viewers, failed = {}, []
    for token, viewer in zip(tabs, checked, strict=True):
        if isinstance(viewer, Exception):
            log_failure(
                log, "lean check of a tab of member %s failed", lean.member_id, error=viewer
            )
            failed.append(token)
        elif viewer is not None:
            viewers[token] = viewer
    await asyncio.gather(
        *([_emit(lean.update, lean.member_id, list(viewers))] if viewers else []),
        *(_push_to_tab(lean.member_id, token, update) for token in failed),
    )


async def _emit(update: StateUpdate, member_id: int, tokens: list[str]) -> None:
    """`update` straight to the sockets of the member's tabs `tokens`."""
    app = serving_app()
    if app is None:
        return
    try:
        await asyncio.gather(*(app.event_namespace.emit_update(update, t) for t in tokens))
    except Exception:
        log_failure(log, "lean push to tabs of member %s failed", member_id)


async def _lean_viewer(app: rx.App, lean: LeanPush, token: str, key: str) -> Viewer | None:
    """The member of the tab's session, None for a tab gone or logged out; raises when it
    cannot tell. The socket first: a tab that closed records nothing (its message stays
    unread)."""
    if not await _connected(app, lean.member_id, token):
        return None
    viewer = await lean.check(key)
    if viewer is None or viewer.member_id != lean.member_id:
        log.info("live push to a tab of member %s dropped: no session", lean.member_id)
        return None
    return viewer


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
        if not await _connected(app, member_id, token):
            return
        async with app.modify_state(rx.BaseStateToken(ident=token, cls=SessionState)) as root:
            if not await run_on_tab(root, member_id, update):
                log.info("live push to a tab of member %s dropped: no session", member_id)
    except Exception:
        log_failure(log, "live push to a tab of member %s failed", member_id)


async def _connected(app: rx.App, member_id: int, token: str) -> bool:
    if await app.event_namespace._token_manager.is_token_connected(token):
        return True
    log.info("live push to a tab of member %s dropped: no websocket", member_id)
    await tab_registry().remove(member_id, token)  # it registers again on reconnect
    return False


async def run_on_tab(root: rx.State, member_id: int, update: TabUpdate) -> bool:
    """Run `update` on the tab whose root state is `root` if the tab's own session cookie still
    names `member_id` (the tab may have logged out, or its session ended elsewhere)."""
    token = session_token(root.router.headers.cookie)
    viewer = await viewer_now(token)
    if viewer is None or viewer.member_id != member_id:
        return False
    await update(root, viewer)
    return True
