"""An ASGI `send` that adds a Set-Cookie line to the answer's headers."""

from starlette.datastructures import MutableHeaders
from starlette.types import Message, Send


def sending_cookie(send: Send, set_cookie: str) -> Send:
    async def send_with_cookie(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(raw=list(message["headers"]))
            headers.append("set-cookie", set_cookie)
            message = {**message, "headers": headers.raw}
        await send(message)

    return send_with_cookie
