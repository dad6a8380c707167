"""Reflex's websocket events pass our guards before Reflex reads them.

`guard_events(app)` (called once, in app/app.py) wraps the handlers of Reflex's event
namespace:

- a connection whose tab token Reflex could not have made is refused, and the connection's
  headers and client address are bounded (app/router_bounds.py);
- every event and ping counts against its socket's and its address's rate (app/event_rate.py);
- an event that is not an object, names no handler or passes arguments its handler does not
  take is refused here: Reflex would log such an event whole;
- an event's page address and browser-storage values are bounded (app/router_bounds.py);
- engine.io refuses frames over app/event_frames.MAX_FRAME.

Whatever is dropped is logged by app/drop_log.py: one bounded line per client and reason a
minute, never the event's payload or address.
"""

import inspect
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
    reflex_connect, reflex_event = namespace.on_connect, namespace.on_event
    reflex_ping, reflex_disconnect = namespace.on_ping, namespace.on_disconnect
    reflex_connection = namespace._build_static_router_data

    def connection(sid: str, environ: dict) -> dict[str, Any]:
        static = bounded_connection(reflex_connection(sid, environ))
        rate.connected(sid, client_key(static["ip"]))
        return static

    def admitted(sid: str) -> bool:
        if rate.allows(sid):
            return True
        drops.note(rate.address_of(sid), "over the event rate")
        return False

    async def on_connect(sid: str, environ: dict, auth: Any = None) -> None:
        if not acceptable_token(environ.get("QUERY_STRING", "")):
            drops.note(client_key(connection(sid, environ)["ip"]), "impossible tab token")
            rate.forget(sid)
            raise Refused("invalid token")
        await reflex_connect(sid, environ, auth)

    async def on_event(sid: str, data: Any) -> None:
        if not admitted(sid):
            return
        event = checked_event(data)
        if isinstance(event, str):
            drops.note(
                rate.address_of(sid), event, data.get("name") if isinstance(data, dict) else "-"
            )
            return
        await reflex_event(sid, event)

    async def on_ping(sid: str) -> None:
        if admitted(sid):
            await reflex_ping(sid)

    def on_disconnect(sid: str, *_reason: object) -> object:
        rate.forget(sid)
        return reflex_disconnect(sid)

    namespace._build_static_router_data = connection
    namespace.on_connect, namespace.on_event = on_connect, on_event
    namespace.on_ping, namespace.on_disconnect = on_ping, on_disconnect
