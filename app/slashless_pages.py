"""Pages at their own address, without a redirect.

React Router's prerender writes each page twice, as `members.html` and `members/index.html`.
Starlette's static files find the folder first and answer `/members` with a 307 to `/members/`,
so every page but the home page cost a visitor an extra round trip before anything loaded (on a
phone line, about half a second). This middleware answers such a request itself with what the
redirect points at; the address stays the one our links use."""

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_REDIRECTS = (301, 302, 307, 308)


def _adds_a_slash(message: Message, path: str) -> bool:
    """An answer that only sends the request to its own path with a slash added."""
    if message["type"] != "http.response.start" or message["status"] not in _REDIRECTS:
        return False
    location = urlsplit(Headers(raw=message["headers"]).get("location", ""))
    return location.path == path + "/"


class SlashlessPages:
    """Follows the static files' add-a-slash redirect of a GET or HEAD inside the server."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or path.endswith("/"):
            await self.app(scope, receive, send)
            return
        redirected = False

        async def send_unless_redirected(message: Message) -> None:
            nonlocal redirected
            redirected = redirected or _adds_a_slash(message, path)
            if not redirected:
                await send(message)

        await self.app(scope, receive, send_unless_redirected)
        if redirected:
            raw_path = scope.get("raw_path") or path.encode()
            slashed = {**scope, "path": path + "/", "raw_path": raw_path + b"/"}
            await self.app(slashed, receive, send)
