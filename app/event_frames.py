"""Websocket frames are bounded before engine.io or Reflex parse them: their size, their kind
and their rate per socket.

A frame carries one socket.io packet: an event with its payload and router data, or the
connect packet with the page's hydrate. The largest a page sends is a chat text (the state
cuts it at 20,000 characters before the rules refuse it; JSON escaping can double it) or a
hydrate with the browser-storage drafts (a dozen values of at most 2,000 characters): well
under MAX_FRAME. Uploads go over HTTP (`/_upload`, app/upload_guard.py). A larger frame is
refused unread: the socket is closed with code 1009 (message too big; the browser reconnects)
and the refusal is logged by app/drop_log.py in a bounded line (a line per client and reason a
minute, naming the event, never the payload). Engine.io has the same bound
(`bound_engine_io`), but checks it only after taking the frame and refuses without either.

Reflex's frontend never sends binary packets, whose header may announce attachments the server
collects until they arrive: a binary frame, an engine.io base64 one ("b…") or a socket.io binary
event or ack ("45…", "46…": engine.io's message type 4, then socket.io's type 5 or 6) closes the
socket with code 1003 (unsupported data).

Every frame, whatever it names (an event, an ack, a ping's answer, an event name Reflex does not
handle), takes one token from its socket's bucket (app/event_rate.SOCKET_RATE); a frame over it
is dropped unparsed and logged the same way.
"""

import re
import time
from collections.abc import Callable

from reflex_base.constants.event import Endpoint
from socketio import AsyncServer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.drop_log import DROPS
from app.event_rate import socket_bucket
from services.client_address import scope_client

MAX_FRAME = 64 * 1024  # characters of one websocket frame
TOO_BIG = 1009  # the websocket close code for a message too big to process
UNSUPPORTED = 1003  # the websocket close code for data the endpoint does not accept
BINARY_PREFIXES = ("b", "45", "46")  # engine.io base64 binary; socket.io binary event, ack
SOCKET_PATH = f"/{Endpoint.EVENT.value}"
# The event's name, when it is near the frame's start: the only part of a frame logged.
EVENT_NAME = re.compile(r'"name"\s*:\s*"([\w.]{1,120})')
NAME_SEARCHED = 400  # characters of the frame's start searched for the name


def bound_engine_io(sio: AsyncServer) -> None:
    """Engine.io refuses a larger frame too, behind this middleware."""
    sio.eio.max_http_buffer_size = MAX_FRAME


class EventFrames:
    """ASGI middleware on Reflex's websocket: frames over MAX_FRAME or binary ones end the
    connection; frames over the socket's rate are dropped."""

    def __init__(self, app: ASGIApp, clock: Callable[[], float] = time.monotonic) -> None:
        self.app, self.clock = app, clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not scope["path"].startswith(SOCKET_PATH):
            await self.app(scope, receive, send)
            return
        client, bucket = scope_client(scope), socket_bucket(self.clock())

        async def bounded_receive() -> Message:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                frame = message.get("text") or message.get("bytes") or ""
                if refusal := _refusal(message, frame):
                    code, reason = refusal
                    DROPS.note(client, reason, _event_name(frame))
                    await send({"type": "websocket.close", "code": code})
                    return {"type": "websocket.disconnect", "code": code}
                if bucket.take(self.clock()):
                    return message
                DROPS.note(client, "over the socket's frame rate", _event_name(frame))

        await self.app(scope, bounded_receive, send)


def _refusal(message: Message, frame: str | bytes) -> tuple[int, str] | None:
    if len(frame) > MAX_FRAME:
        return TOO_BIG, f"a websocket frame over {MAX_FRAME} characters (refused unread)"
    if message.get("bytes") is not None or frame.startswith(BINARY_PREFIXES):
        return UNSUPPORTED, "a binary websocket frame (refused unread)"
    return None


def _event_name(frame: str | bytes) -> str:
    if isinstance(frame, bytes):
        return "-"
    found = EVENT_NAME.search(frame[:NAME_SEARCHED])
    return found.group(1) if found else "-"
