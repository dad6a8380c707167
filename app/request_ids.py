"""Each HTTP request gets an id: the X-Request-ID a proxy sent when well-formed, else a fresh
one. It is echoed in the response and stamped on every log line written while serving it
(services/request_ids.py, services/logs.py); the request is counted by method and status
class (services/metrics.py)."""

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.metrics import http_request
from services.request_ids import REQUEST_ID, request_id_from

HEADER = "X-Request-ID"


class RequestIds:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(Headers(scope=scope).get(HEADER))
        token = REQUEST_ID.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = request_id
                http_request(scope["method"], message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            REQUEST_ID.reset(token)
