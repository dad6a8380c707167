"""Who sent an HTTP request and what it may carry: the member behind its session cookie, and
JSON only from our own pages, for our HTTP routes."""

import json
from urllib.parse import urlsplit

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import JSONResponse

from actions.runner import read
from actions.viewer import SESSION_COOKIE, SIGNED_IN, Viewer, resolve_viewer
from models.auth_session import member_id_for_token
from services.config import get_config
from services.database import db_session

MAX_JSON_BYTES = 8192


async def request_viewer(request: Request, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """The one viewer check (actions.viewer) for an HTTP request: its own session cookie."""
    return await read(resolve_viewer, request.cookies.get(SESSION_COOKIE), allowed)


def viewer_id(db: Session, request: Request) -> int | None:
    return member_id_for_token(db, request.cookies.get(SESSION_COOKIE))


def request_member_id(request: Request) -> int | None:
    with db_session() as db:
        return viewer_id(db, request)


def authentication_required() -> JSONResponse:
    """The answer that makes our pages log out (spec section 4)."""
    return JSONResponse(
        {"error": "authentication_required"},
        status_code=403,
        headers={"Cache-Control": "no-store"},
    )


def from_our_pages(request: Request) -> bool:
    """JSON sent by our own pages: an HTML form on another site can send neither this content
    type nor our Origin, so a cookie-changing POST cannot be forged across sites."""
    if not request.headers.get("content-type", "").startswith("application/json"):
        return False
    origin = request.headers.get("origin")
    ours = {request.headers.get("host"), urlsplit(get_config().public_url).netloc}
    return origin is None or urlsplit(origin).netloc in ours


async def json_body(request: Request) -> dict | None:
    """The JSON object our pages posted, or None."""
    if not from_our_pages(request):
        return None
    body = await request.body()
    if len(body) > MAX_JSON_BYTES:
        return None
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
