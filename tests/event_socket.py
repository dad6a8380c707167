"""Reflex's websocket in the test process: the app's backend with its event processor and our
middleware, spoken to frame by frame as the browser's socket.io client does (engine.io 4:
"40/_event,{auth}" connects the namespace with the hydrate, "42/_event,[...]" is an event; see
bench/reflex_socket.py for the protocol). The tab's stored state is read back through the
app's state manager, as Reflex pickles it."""

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from reflex.istate.manager.token import BaseStateToken
from reflex.state import State
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import Receive, Scope, Send

from app.event_frames import EventFrames
from services.config import get_config

ROOT = State.get_full_name()
HYDRATE = f"{ROOT}.hydrate_and_load"
NAMESPACE = "/_event"
NOWHERE = "/no-such-namespace"
OPEN_PACKET = "0"
HYDRATED = '"is_hydrated_rx_state_":true'


def router_data(address: str) -> dict[str, Any]:
    """What the frontend sends as an event's router data on `address` (path?query)."""
    path, _, query = address.partition("?")
    params = dict(pair.partition("=")[::2] for pair in query.split("&") if pair)
    return {"pathname": path, "asPath": address, "query": params}


class Tab:
    """One browser tab's socket: its client token and the frames it sends."""

    def __init__(self, ws: WebSocketTestSession, token: str) -> None:
        self.ws, self.token = ws, token

    def hydrate(self, address: str = "/", storage: dict[str, str] | None = None) -> None:
        """Connect the namespace with the page's hydrate, as the frontend's CONNECT does."""
        payload = {"vars": storage} if storage else {}
        event = {"name": HYDRATE, "payload": payload, "router_data": router_data(address)}
        self.send(f"40{NAMESPACE}," + json.dumps({"event": event}))
        while HYDRATED not in (frame := self.ws.receive_text()):  # on_load handlers have run
            if frame.startswith(f"44{NAMESPACE},"):
                raise ConnectionRefusedError(frame[:200])

    def emit(self, name: str, payload: dict[str, Any], address: str = "/") -> None:
        event = {"name": name, "payload": payload, "router_data": router_data(address)}
        self.send(f"42{NAMESPACE}," + json.dumps(["event", event]))

    def send(self, frame: str) -> None:
        self.ws.send_text(frame)

    def barrier(self) -> None:
        """Return once the server has handled every frame sent before: it handles a socket's
        frames in order, and answers a connect to a namespace it does not serve with an error."""
        self.send(f"40{NOWHERE},")
        while not self.ws.receive_text().startswith(f"44{NOWHERE},"):
            pass


class EventSocketSite:
    """The app's websocket with its event processor running (the lifespan Reflex gives it)."""

    def __init__(self) -> None:
        from app.app import app  # builds every page: only the tests that need it

        self.app = app
        self.frames = inner = EventFrames(app._api)

        async def with_contexts(scope: Scope, receive: Receive, send: Send) -> None:
            with app.set_contexts():  # what Reflex's own outermost middleware does
                await inner(scope, receive, send)

        @asynccontextmanager
        async def lifespan(_api: Starlette) -> AsyncIterator[None]:
            async with app._setup_event_processor():
                yield

        self.client = TestClient(Starlette(lifespan=lifespan, routes=[Mount("", with_contexts)]))

    @contextmanager
    def tab(self, headers: dict[str, str] | None = None, token: str | None = "") -> Iterator[Tab]:
        """A tab's socket; `token=None` connects without a token."""
        token = str(uuid.uuid4()) if token == "" else token
        sent = {"origin": get_config().public_origin, "upgrade": "websocket", **(headers or {})}
        url = f"{NAMESPACE}/?EIO=4&transport=websocket" + (f"&token={token}" if token else "")
        with self.client.websocket_connect(url, headers=sent) as ws:
            assert ws.receive_text().startswith(OPEN_PACKET)
            yield Tab(ws, token or "")

    def sid_of(self, tab: Tab) -> str:
        """The socket.io session id Reflex linked to the tab's token."""
        return self.app.event_namespace.token_to_sid[tab.token]

    def stored_size(self, token: str) -> int:
        """Bytes of the tab's root state as the state manager pickles it."""

        async def size() -> int:  # under the tab's lock: after the events it holds
            async with self.app.state_manager.modify_state(
                BaseStateToken(ident=token, cls=State)
            ) as state:
                return len(state._serialize())

        return self.client.portal.call(size)
