"""Who sent an HTTP request and what it may carry: the member behind its session cookie, and
JSON only from our own pages, for our HTTP routes."""

import json

from starlette.requests import Request
from starlette.responses import JSONResponse

from actions.viewer import SESSION_COOKIE, SIGNED_IN, Viewer, viewer_now
from services.client_address import scope_client
from services.config import get_config

MAX_JSON_BYTES = 8192


async def request_viewer(request: Request, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """The one viewer check (actions.viewer) for an HTTP request: its own session cookie."""
    return await viewer_now(request.cookies.get(SESSION_COOKIE), allowed)


def request_client(request: Request) -> str:
    """The key a client's throttles count under, as for a websocket (services/client_address)."""
    return scope_client(request.scope)


def authentication_required() -> JSONResponse:
    """The answer that makes our pages log out (spec section 4)."""
    return JSONResponse(
        {"error": "authentication_required"},
        status_code=403,
        headers={"Cache-Control": "no-store"},
    )


def from_our_origin(request: Request) -> bool:
    """Sent by our own pages: browsers name the sending page's origin on every POST (a missing
    Origin still counts when the browser vouches the request is same-origin). The Host header
    proves nothing: whoever sends the request chooses it."""
    origin = request.headers.get("origin")
    if origin is None:
        return request.headers.get("sec-fetch-site") == "same-origin"
    return origin == get_config().public_origin


def from_our_pages(request: Request) -> bool:
    """JSON sent by our own pages: an HTML form on another site can send neither this content
    type nor our Origin, and our CORS policy lets no other origin's script send it. A request
    without Origin is no browser's cross-site request, so it may come from our tools."""
    if not request.headers.get("content-type", "").startswith("application/json"):
        return False
    return "origin" not in request.headers or from_our_origin(request)


async def bounded_body(request: Request, limit: int = MAX_JSON_BYTES) -> bytes | None:
    """The body, read only up to `limit` bytes: a longer one is refused before it is kept."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


async def json_body(request: Request, limit: int = MAX_JSON_BYTES) -> dict | None:
    """The JSON object our pages posted (at most `limit` bytes), or None."""
    if not from_our_pages(request):
        return None
    body = await bounded_body(request, limit)
    if body is None:
        return None
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
