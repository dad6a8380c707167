"""An event that fails, run through Reflex's own event processor with the app's exception
handler: during a Redis outage (the tab's state lock cannot be taken, so no handler runs) or a
database outage (the viewer check fails), and on a bug. The tab gets the site's "try again"
text in its language, never Reflex's English "An error occurred"; an outage is one log line,
a bug keeps its traceback."""

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

import pytest
from redis.asyncio import Redis
from reflex.istate.data import RouterData
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import BaseStateToken
from reflex.state import State, StateUpdate
from reflex_base.event import Event
from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor
from reflex_base.event.processor.future import EventFuture

import actions.viewer
import app.app
import state.chats
from bench.reflex_socket import TOAST_TEXT
from state.chats import ChatsState
from tests.outages import database_refused

TOKEN = "outage-test-tab"
CHAT_PAGE = "/chats/[id]"
SEND = f"{ChatsState.get_full_name()}.send_text"
LOAD_LATEST = f"{ChatsState.get_full_name()}.load_latest"
SPEC_GENERIC_NL = "Er is een fout opgetreden, probeer het later opnieuw."
GENERIC_DE = "Etwas ist schiefgelaufen, bitte versuche es später noch einmal."


class Namespace:
    """Where the processor sends what the tab receives."""

    def __init__(self) -> None:
        self.updates: list[StateUpdate] = []

    async def emit_update(self, update: StateUpdate, token: str) -> None:
        self.updates.append(update)

    def toasts(self) -> list[str]:
        return [
            json.loads(found.group(1))
            for update in self.updates
            for event in update.events
            if (found := TOAST_TEXT.search(str(event.payload.get("function", ""))))
        ]


def dead_redis() -> Redis:
    """A Redis client for a port nothing listens on: a Redis that is down."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return Redis.from_url(f"redis://127.0.0.1:{port}/0")


@asynccontextmanager
async def processor(manager) -> AsyncIterator[tuple[Callable[..., Any], Namespace]]:
    """The app's event processing on `manager`; yields `process(name, payload, headers)`,
    which runs one event of the tab to its end, and what the tab received."""
    namespace = Namespace()
    handler = app.app.app.backend_exception_handler  # what the site's server runs with
    events = BaseStateEventProcessor(backend_exception_handler=handler)
    async with events.configure(state_manager=manager, event_namespace=namespace):

        async def process(name: str, payload: dict, headers: dict[str, str]) -> None:
            router_data = {"pathname": CHAT_PAGE, "asPath": "/chats/1", "headers": headers}
            future: EventFuture = await events.enqueue(
                TOKEN, Event(name=name, payload=payload, router_data=router_data)
            )
            with suppress(Exception):
                await future
            while events._tasks:  # the exception handler runs in a task of its own
                await asyncio.sleep(0.01)

        yield process, namespace


async def tab_with_page(manager: StateManagerMemory, headers: dict[str, str]) -> None:
    """A tab whose page has loaded (so the event does not hydrate it first)."""
    async with manager.modify_state(BaseStateToken(ident=TOKEN, cls=State)) as root:
        root.router_data = {"pathname": CHAT_PAGE, "asPath": "/chats/1", "headers": headers}
        root.router = RouterData.from_router_data(root.router_data)  # the cookie the tab sends


def lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, bool]]:
    """Each logged record's level and whether it carries a traceback."""
    return [(record.levelname, record.exc_info is not None) for record in caplog.records]


@pytest.mark.parametrize(
    ("headers", "text"),
    [
        ({"cookie": "i18n_redirected=de; auth.session=x", "accept-language": "en"}, GENERIC_DE),
        ({"accept-language": "nl-NL,nl;q=0.9,en;q=0.5"}, SPEC_GENERIC_NL),
    ],
)
async def test_an_event_redis_cannot_lock_says_try_again_in_the_tabs_language(
    caplog: pytest.LogCaptureFixture, headers: dict[str, str], text: str
) -> None:
    async with processor(StateManagerRedis(redis=dead_redis())) as (process, tab):
        with caplog.at_level(logging.INFO, logger="app"):
            form = {"text": "Hallo", "client_id": "c" * 32}
            await process(SEND, {"form": form}, headers)

    assert tab.toasts() == [text]  # not Reflex's "An error occurred."
    ours = [r.getMessage() for r in caplog.records if r.name == "app.event_errors"]
    assert len(ours) == 1 and "Redis unreachable" in ours[0]
    assert [line for line in lines(caplog) if line[1]] == []  # no traceback


async def test_an_event_that_meets_the_database_away_says_try_again(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def database_down() -> None:
        raise database_refused()

    monkeypatch.setattr(actions.viewer, "autocommit_connection", database_down)
    headers = {"cookie": "i18n_redirected=nl; auth.session=a-session-token"}
    manager = StateManagerMemory()
    await tab_with_page(manager, headers)
    async with processor(manager) as (process, tab):
        with caplog.at_level(logging.INFO):
            await process(LOAD_LATEST, {}, headers)

    assert tab.toasts() == [SPEC_GENERIC_NL]
    assert lines(caplog) == [("ERROR", False)]
    assert "database unreachable" in caplog.text


async def test_a_bug_says_try_again_and_keeps_its_traceback(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def bug(*_args: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(state.chats, "current_viewer", bug)
    headers = {"accept-language": "de-DE"}
    manager = StateManagerMemory()
    await tab_with_page(manager, headers)
    async with processor(manager) as (process, tab):
        with caplog.at_level(logging.INFO):
            await process(LOAD_LATEST, {}, headers)

    assert tab.toasts() == [GENERIC_DE]
    assert lines(caplog) == [("ERROR", True)]
