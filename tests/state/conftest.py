"""A fresh Reflex state tree per test, with the request headers a tab would send."""

import inspect
from collections.abc import Callable
from typing import TypeVar

import pytest
import reflex as rx
from reflex.event import EventSpec
from reflex.istate.data import RouterData

import app.app  # noqa: F401 - registers every state of the app
import services.site_settings
import state.session

S = TypeVar("S", bound=rx.State)


def substate(root: rx.State, cls: type[S]) -> S:
    return root.get_substate(cls.get_full_name().split(".")[1:])


def browser_delivers(root: rx.State, cls: type[rx.State], *, reload: bool, **values: str) -> None:
    """What Reflex does before a page's on_load: a reload's (any hydrate's) hydrate_and_load
    resets the tab's client-storage vars, then it or a navigation's update_vars_internal sets
    `cls`'s to what the browser holds now."""
    if reload:
        root._reset_client_storage()
    for name, value in values.items():
        setattr(substate(root, cls), name, value)


@pytest.fixture
def make_root(engine) -> Callable[..., rx.State]:
    """`make_root(url="/login?next=/likes", cookie=...)`: `url` is the page the tab is on (path
    and query), `token` its client token; every other keyword is a request header (underscores
    become dashes)."""
    services.site_settings.forget_cached_settings()

    def build(url: str = "", token: str = "test-client-token", **headers: str) -> rx.State:
        root = rx.State(_reflex_internal_init=True)
        root.router = RouterData.from_router_data(
            {
                "headers": {k.replace("_", "-"): v for k, v in headers.items()},
                "pathname": url.split("?")[0],
                "asPath": url,
                "token": token,
            }
        )
        return root

    yield build
    services.site_settings.forget_cached_settings()


async def run(result: object) -> list[EventSpec]:
    """Drive what a handler returned (async generator, coroutine or value); the events it gave."""
    if inspect.isasyncgen(result):
        return [event async for event in result if event is not None]
    if inspect.isawaitable(result):
        result = await result
    if result is None:
        return []
    return list(result) if isinstance(result, list | tuple) else [result]


def handle(state: rx.State, handler: str, *args: object) -> object:
    """What the event handler returns when run on the state itself, a background one too (Reflex
    refuses a direct call of one; its `async with self` then changes nothing); drive it with
    `run`."""
    return getattr(type(state), handler).fn(state, *args)


def event_args(event: EventSpec) -> dict[str, object]:
    """The literal arguments of an event spec, by name (a script's code, a redirect's path)."""
    return {key._js_expr: getattr(value, "_var_value", None) for key, value in event.args}


def scripts(events: list[EventSpec]) -> list[str]:
    """The JavaScript of every `rx.call_script` among `events`."""
    return [
        args["javascript_code"] for args in map(event_args, events) if "javascript_code" in args
    ]


def redirects(events: list[EventSpec]) -> list[str]:
    """The paths of every `rx.redirect` among `events`."""
    return [args["path"] for args in map(event_args, events) if "path" in args and "popup" in args]


@pytest.fixture
def one_event(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """`one_event()` starts a new Reflex event: as in the server, the viewer check then runs
    once per event (state.session caches it per event id)."""
    events = iter(range(1, 1_000_000))
    current = ["event-0"]
    monkeypatch.setattr(state.session, "_event_id", lambda: current[0])

    def next_event() -> None:
        current[0] = f"event-{next(events)}"

    return next_event
