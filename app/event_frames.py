"""The size bound on websocket frames, applied before engine.io or Reflex parse them.

A frame carries one socket.io packet: an event with its payload and router data, or the
connect packet with the page's hydrate. The largest a page sends is a chat text (the state
cuts it at 20,000 characters before the rules refuse it; JSON escaping can double it) or a
hydrate with the browser-storage drafts (a dozen values of at most 2,000 characters): well
under MAX_FRAME. Uploads go over HTTP (`/_upload`, app/upload_guard.py). A larger frame is
refused unread: the socket is closed (code 1009, the browser reconnects) and the refusal is
logged by app/drop_log.py (a line per client a minute, naming the event, never the payload).
Engine.io is given the same bound (`bound_engine_io`), which it announces in its handshake, so
Reflex's frontend refuses to send a larger hydrate itself.
"""

import re

from reflex_base.constants.event import Endpoint
from socketio import AsyncServer
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.drop_log import DROPS
from services.client_address import client_key, forwarded_client
from services.config import get_config

MAX_FRAME = 64 * 1024  # characters of one websocket frame
TOO_BIG = 1009  # the websocket close code for a message too big to process
SOCKET_PATH = f"/{Endpoint.EVENT.value}"
# The event's name, when it is near the frame's start: the only part of a frame logged.
EVENT_NAME = re.compile(r'"name"\s*:\s*"([\w.]{1,120})')
NAME_SEARCHED = 400  # characters of the frame's start searched for the name


def bound_engine_io(sio: AsyncServer) -> None:
    """Engine.io refuses a larger frame too, and tells the browser the bound when it connects."""
    sio.eio.max_http_buffer_size = MAX_FRAME


class EventFrames:
    """ASGI middleware: frames over MAX_FRAME on Reflex's websocket end the connection."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not scope["path"].startswith(SOCKET_PATH):
            await self.app(scope, receive, send)
            return

        async def bounded_receive() -> Message:
            message = await receive()
            frame = message.get("text") or message.get("bytes") or ""
            if message["type"] == "websocket.receive" and len(frame) > MAX_FRAME:
                _log_refused(scope, frame)
                await send({"type": "websocket.close", "code": TOO_BIG})
                return {"type": "websocket.disconnect", "code": TOO_BIG}
            return message

        await self.app(scope, bounded_receive, send)


def _log_refused(scope: Scope, frame: str | bytes) -> None:
    start = frame[:NAME_SEARCHED]
    found = EVENT_NAME.search(start if isinstance(start, str) else start.decode(errors="replace"))
    reason = f"a websocket frame over {MAX_FRAME} characters (refused unread)"
    DROPS.note(_client(scope), reason, found.group(1) if found else "-")


def _client(scope: Scope) -> str:
    peer = (scope.get("client") or ("",))[0]
    forwarded = Headers(scope=scope).get("x-forwarded-for", "")
    return client_key(forwarded_client(peer, forwarded, get_config().trusted_proxy_hops))
