"""Each worker keeps its tabs reachable across a Redis restart.

With Redis, live delivery rests on three things kept there: our tab registry (member -> client
tokens), Reflex's socket record per token (which worker holds the tab's websocket; another
worker relays a pushed delta to it through Redis pub/sub) and the tab's state. A restarted Redis
has none of them, and nothing tells the workers: their websockets stay open, pushes find no tab
and tabs find a blank state. So every few seconds each worker re-asserts, in one pipeline, the
socket records of the websockets it holds (SET NX: a newer record wins) and, in one more, the
registry entries of their members. A record found missing means Redis lost it, and the tab's
state with it: the worker tells the tab to hydrate again, as after a reconnect, so its page
rebuilds from the database and its address. Reflex's pub/sub listeners give up after five
failures in a minute; the keeper starts them again.

Reflex 0.10.1 internals used: `RedisTokenManager.token_to_socket`, `instance_id`,
`_get_redis_key`, `token_expiration`, `_ensure_socket_record_task`, `ensure_lost_and_found_task`.
"""

import asyncio
import logging
import pickle

import reflex as rx
from reflex.state import StateUpdate
from reflex.utils.token_manager import RedisTokenManager, SocketRecord
from reflex_base.event import Event
from reflex_base.registry import RegistrationContext
from reflex_base.utils.exceptions import ReflexRuntimeError

from services.outages import log_failure
from services.tab_registry import tab_registry

KEEP_EVERY_SECONDS = 3.0
# Never stored: the frontend answers the removal of a session storage key by hydrating the
# page again with its client storage (Reflex's state.js), the same as after a reconnect.
REHYDRATE = Event.from_event_type(rx.remove_session_storage("amorly.rehydrate"))

log = logging.getLogger(__name__)

_held: dict[str, int] = {}  # client token -> member, of the tabs registered on this worker
_keeper: asyncio.Task | None = None


def serving_app() -> rx.App | None:
    """The app whose websockets are being served; None outside a running server."""
    try:
        app = RegistrationContext.get().app
    except (LookupError, ReflexRuntimeError):
        return None
    return app if app.event_namespace is not None else None


def hold(token: str, member_id: int | None) -> None:
    """The tab's member as of its last page load or refresh (None: logged out); the keeper
    forgets it once the tab's websocket is gone."""
    if member_id is None:
        _held.pop(token, None)
    elif _keeper_running():
        _held[token] = member_id


def _keeper_running() -> bool:
    """Started on first use; False without Redis (one worker holds every tab in memory)."""
    global _keeper
    app = serving_app()
    if app is None or not isinstance(app.event_namespace._token_manager, RedisTokenManager):
        return False
    if _keeper is None or _keeper.done():
        _keeper = asyncio.create_task(_keep(app), name="amorly tab keeper")
    return True


async def _keep(app: rx.App) -> None:
    reachable = True
    while True:
        await asyncio.sleep(KEEP_EVERY_SECONDS)
        try:
            kept, rehydrated = await keep_tabs(app)
        except Exception:
            if reachable:
                log_failure(log, "live delivery waits for Redis")
            reachable = False
            continue
        if not reachable or rehydrated:
            log.warning("Redis back: %d tabs registered again, %d rehydrated", kept, rehydrated)
        reachable = True


async def keep_tabs(app: rx.App) -> tuple[int, int]:
    """Re-assert this worker's tabs; (tabs kept, tabs told to hydrate again)."""
    namespace = app.event_namespace
    manager: RedisTokenManager = namespace._token_manager
    own = {
        token: record
        for token, record in list(manager.token_to_socket.items())
        if record.instance_id == manager.instance_id
    }
    for token in set(_held) - set(own):  # its websocket closed, or moved to another worker
        _held.pop(token, None)
    if not own:
        return 0, 0
    manager._ensure_socket_record_task()
    manager.ensure_lost_and_found_task(namespace.emit_update)
    lost = await _restore_socket_records(manager, own)
    await tab_registry().renew({token: _held[token] for token in own if token in _held})
    for token in lost:
        await namespace.emit_update(StateUpdate(events=REHYDRATE), token)
    return len(own), len(lost)


async def _restore_socket_records(
    manager: RedisTokenManager, own: dict[str, SocketRecord]
) -> list[str]:
    """Store the records Redis lost; the tokens whose record was missing."""
    async with manager.redis.pipeline(transaction=False) as pipe:
        for token, record in own.items():
            key, value = manager._get_redis_key(token), pickle.dumps(record)
            pipe.set(key, value, ex=manager.token_expiration, nx=True)
        stored = await pipe.execute()
    return [token for token, was_missing in zip(own, stored, strict=True) if was_missing]
