"""A form sent before the app runs gets its page back.

The prerendered pages show their forms before the JavaScript has run, and a visitor on a slow
phone may send one by then. Every form posts (components/forms.post_form), so its fields, a
password too, never go into the address, the history or a log, as a GET would put them; the
static files that serve the pages answer a post with 405. This middleware answers such a form
post with a 303 to the same address instead: the visitor sees the page again, by then working,
and nothing they typed was kept."""

from urllib.parse import quote

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _form_post(scope: Scope) -> bool:
    if scope["type"] != "http" or scope["method"] != "POST":
        return False
    content_type = Headers(scope=scope).get("content-type", "")
    return content_type.split(";")[0].strip().lower() in FORM_TYPES


# What a path or query may keep as it is; anything else (a backslash, a tab, a space) is
# percent-encoded, so no browser reads the address as another site's (`/\host` as `//host`).
_KEPT = "/%!$&'()*+,;=:@-._~"


def _same_address(scope: Scope) -> bytes:
    """The request's path and query, encoded, with one leading slash: always this site."""
    raw: bytes = scope.get("raw_path") or scope["path"].encode()
    path = "/" + quote(raw, safe=_KEPT).lstrip("/")
    query = quote(scope.get("query_string", b""), safe=_KEPT + "?")
    return (path + ("?" + query if query else "")).encode("ascii")


class EarlyFormPosts:
    """Turns the 405 a page answers a form post with into a 303 to the page."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _form_post(scope):
            await self.app(scope, receive, send)
            return
        refused = False

        async def send_unless_refused(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start" and message["status"] == 405:
                refused = True
            if not refused:
                await send(message)

        await self.app(scope, receive, send_unless_refused)
        if refused:
            await send(
                {
                    "type": "http.response.start",
                    "status": 303,
                    "headers": [(b"location", _same_address(scope)), (b"content-length", b"0")],
                }
            )
            await send({"type": "http.response.body", "body": b""})
