"""Live delivery to a member's open tabs, after the database has it.

Each tab registers its client token under its member on page load and on the periodic refresh
(services/tab_registry.py). To tell a member something, `push_to_member` runs an update on each
of their connected tabs' states through `app.modify_state`; with Redis, Reflex relays the
result to whichever worker holds the tab's websocket. Every update runs in its own task, never
under the caller's state lock (two members writing to each other would otherwise deadlock).
Nothing depends on an update arriving: a tab that reconnects reloads from the database.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

import reflex as rx
from reflex_base.registry import RegistrationContext
from reflex_base.utils.exceptions import ReflexRuntimeError

from services.tab_registry import tab_registry
from state.session import SessionState

TabUpdate = Callable[[rx.State], Awaitable[None]]  # receives the tab's root state

log = logging.getLogger(__name__)
_tasks: set[asyncio.Task] = set()


async def register_tab(state: rx.State, member_id: int | None) -> None:
    if member_id is not None:
        await tab_registry().add(member_id, state.router.session.client_token)


def push_to_member(member_id: int, update: TabUpdate, except_token: str = "") -> None:
    """Run `update` on every open tab of the member but `except_token`, in the background."""
    _spawn(_push_to_tabs(member_id, update, except_token))


def badges_changed(member_id: int) -> None:
    """The member's balance or badges changed (a like, a purchase): their tabs show it."""
    push_to_member(member_id, _refresh_counts)


async def _refresh_counts(root: rx.State) -> None:
    await (await root.get_state(SessionState))._refresh_counts()


def push_later(seconds: float, member_id: int, token: str, update: TabUpdate) -> None:
    """Run `update` on one tab of the member, `seconds` from now, in the background."""

    async def later() -> None:
        await asyncio.sleep(seconds)
        await _push_to_tab(member_id, token, update)

    _spawn(later())


def _spawn(work: Awaitable[None]) -> None:
    task = asyncio.ensure_future(work)
    _tasks.add(task)
    task.add_done_callback(_finished)


def _finished(task: asyncio.Task) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("live update failed", exc_info=task.exception())


async def _push_to_tabs(member_id: int, update: TabUpdate, except_token: str) -> None:
    tokens = [token for token in await tab_registry().tokens(member_id) if token != except_token]
    await asyncio.gather(*(_push_to_tab(member_id, token, update) for token in tokens))


def _serving_app() -> rx.App | None:
    """The app whose websockets are being served; None outside a running server."""
    try:
        app = RegistrationContext.get().app
    except (LookupError, ReflexRuntimeError):
        return None
    return app if app.event_namespace is not None else None


async def _push_to_tab(member_id: int, token: str, update: TabUpdate) -> None:
    app = _serving_app()
    if app is None:
        return
    if not await app.event_namespace._token_manager.is_token_connected(token):
        await tab_registry().remove(member_id, token)  # it registers again when it reconnects
        return
    async with app.modify_state(rx.BaseStateToken(ident=token, cls=SessionState)) as root:
        session = await root.get_state(SessionState)
        if session._member_id == member_id:  # the tab may have logged out or in since
            await update(root)
