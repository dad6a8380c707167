"""Reflex's websocket events pass our guards before Reflex reads them.

`guard_events(app)` (called once, in app/app.py) wraps the handlers of Reflex's event
namespace:

- a connection without exactly one tab token Reflex could have made is refused, and the
  connection's headers and client address are bounded (app/router_bounds.py);
- `connect` and `disconnect` are socket.io's own events, but a client can also send them as
  events on a connected socket, which python-socketio hands to the same handlers (with an
  environ the client wrote): on a socket already connected they are dropped;
- an event from a socket without a tab token, that is not an object, names no handler or passes
  arguments its handler does not take is refused here: Reflex would log such an event whole;
- every event and ping counts against its client address's rate (app/event_rate.py);
- an event's page address and browser-storage values are bounded (app/router_bounds.py);
- frames are bounded in size, kind and rate per socket before anything parses them
  (app/event_frames.py).

Whatever is dropped is logged by app/drop_log.py: one bounded line per client and reason a
minute, never the event's payload or address.
"""

import inspect
import logging
from collections.abc import Callable
from functools import cache
from typing import Any

import reflex as rx
from reflex.state import State, UpdateVarsInternalState
from reflex_base.registry import RegistrationContext
from socketio.exceptions import ConnectionRefusedError as Refused

from app.drop_log import DROPS
from app.event_frames import bound_engine_io
from app.event_rate import EventRate
from app.router_bounds import (
    acceptable_token,
    bounded_connection,
    bounded_router_data,
    bounded_storage,
)
from services.client_address import client_key
from services.metrics import SOCKETS
from services.outages import log_failure

LOG = logging.getLogger(__name__)

STORAGE_EVENTS = frozenset(
    {
        f"{State.get_full_name()}.hydrate_and_load",
        f"{UpdateVarsInternalState.get_full_name()}.update_vars_internal",
    }
)


def checked_event(data: object) -> dict[str, Any] | str:
    """The event as Reflex may read it (name, bounded payload and router data), or why not."""
    if not isinstance(data, dict):
        return "not an event object"
    name, payload = data.get("name"), data.get("payload", {})
    handler = _handler(name)
    if handler is None:
        return "no such event handler"
    if not isinstance(payload, dict) or not _takes(handler, payload):
        return "arguments its handler does not take"
    if name in STORAGE_EVENTS and "vars" in payload:
        payload = {**payload, "vars": bounded_storage(payload["vars"])}
    return {
        "name": name,
        "payload": payload,
        "router_data": bounded_router_data(data.get("router_data")),
    }


def _handler(name: object) -> Callable | None:
    if not isinstance(name, str):
        return None
    registered = RegistrationContext.get().event_handlers.get(name)
    return registered.handler.fn if registered is not None else None


def _takes(handler: Callable, payload: dict) -> bool:
    names = _parameters(handler)
    return names is None or all(isinstance(key, str) and key in names for key in payload)


@cache
def _parameters(handler: Callable) -> frozenset[str] | None:
    """The argument names a handler takes after `self`; None when it takes any (**kwargs)."""
    parameters = list(inspect.signature(handler).parameters.values())[1:]
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return frozenset(parameter.name for parameter in parameters)


RATE = EventRate()  # per worker process: the sockets and addresses this worker serves


def guard_events(app: rx.App) -> None:
    """Wrap the handlers of Reflex's event namespace in the guards (once per app)."""
    namespace, rate, drops = app.event_namespace, RATE, DROPS
    if namespace is None or app.sio is None:
        raise RuntimeError("an app without state has no events to guard")
    bound_engine_io(app.sio)
    manager = app.sio.manager
    reflex_connect, reflex_event = namespace.on_connect, namespace.on_event
    reflex_ping, reflex_disconnect = namespace.on_ping, namespace.on_disconnect
    reflex_connection = namespace._build_static_router_data

    def connection(sid: str, environ: dict) -> dict[str, Any]:
        static = bounded_connection(reflex_connection(sid, environ))
        rate.connected(sid, client_key(static["ip"]))
        return static

    def sent_as_event(sid: str, name: str) -> bool:
        """Whether socket.io's own `connect` or `disconnect` came as a client's event: during
        the real ones the socket is still pending, not connected (socketio/base_manager.py)."""
        if not manager.is_connected(sid, namespace.namespace):
            return False
        drops.note(rate.address_of(sid), "a reserved event name", name)
        return True

    def admitted(sid: str) -> bool:
        if rate.allows(sid):
            return True
        drops.note(rate.address_of(sid), "over the address's event rate")
        return False

    async def on_connect(sid: str, environ: Any = None, auth: Any = None, *_more: object) -> None:
        if sent_as_event(sid, "connect"):
            return
        if not acceptable_token(environ.get("QUERY_STRING", "")):
            drops.note(client_key(reflex_connection(sid, environ)["ip"]), "impossible tab token")
            raise Refused("invalid token")
        try:
            await reflex_connect(sid, environ, auth)
        except Refused:  # a refused connect never reaches on_disconnect
            rate.forget(sid)
            raise
        except Exception as error:  # python-socketio would leave the tab waiting unanswered
            rate.forget(sid)
            log_failure(LOG, "a tab's connect failed; refused, so that it tries again")
            raise Refused("unavailable") from error
        SOCKETS.inc()

    async def on_event(sid: str, data: Any = None, *_more: object) -> None:
        if sid not in namespace.sid_to_token:
            drops.note(rate.address_of(sid), "an event from a socket without a tab token")
            return
        if not admitted(sid):
            return
        event = checked_event(data)
        if isinstance(event, str):
            drops.note(
                rate.address_of(sid), event, data.get("name") if isinstance(data, dict) else "-"
            )
            return
        await reflex_event(sid, event)

    async def on_ping(sid: str, *_more: object) -> None:
        if admitted(sid):
            await reflex_ping(sid)

    def on_disconnect(sid: str, *_reason: object) -> object:
        if sent_as_event(sid, "disconnect"):
            return None
        rate.forget(sid)
        SOCKETS.dec()
        return reflex_disconnect(sid)

    namespace._build_static_router_data = connection
    namespace.on_connect, namespace.on_event = on_connect, on_event
    namespace.on_ping, namespace.on_disconnect = on_ping, on_disconnect
