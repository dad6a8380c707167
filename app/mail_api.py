"""The mail routes outside the websocket: the one-click unsubscribe of notification mails
(RFC 8058) and the mail provider's webhook for bounces and spam complaints.

Webhook: `POST /api/mail-events.php` with `Authorization: Bearer <MAIL_EVENTS_SECRET>` and a
JSON body `{"events": [{"type": "bounce", "email": "...", "permanent": true},
{"type": "complaint", "email": "..."}]}` (at most 100 events). A permanent bounce switches the
address's notification e-mails off with the reason "bounce", a complaint with "spam"; soft
bounces and other types are ignored. Answers `{"switched_off": n}`. Without the secret set, the
route answers 404."""

import hmac
import json

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from actions.notifications import mail_refused, unsubscribe
from actions.runner import act
from app.request_auth import bounded_body
from models.routes import url
from services.config import get_config

MAX_UNSUBSCRIBE_BYTES = 256
MAX_EVENT_BYTES = 64 * 1024
MAX_EVENTS = 100
ONE_CLICK = "List-Unsubscribe=One-Click"
_NO_STORE = {"Cache-Control": "no-store"}


def _key(request: Request) -> str:
    return request.query_params.get("key", "")[:64]


async def unsubscribe_page(request: Request) -> Response:
    """A person who opens the header's link sees the page that asks first: a GET changes
    nothing, so link scanners cannot unsubscribe anyone."""
    return RedirectResponse(url("unsubscribe", key=_key(request)), status_code=303)


async def one_click_unsubscribe(request: Request) -> Response:
    """The mail program's own unsubscribe button: a POST with `List-Unsubscribe=One-Click`,
    no cookies; the key in the URL names the account."""
    body = await bounded_body(request, MAX_UNSUBSCRIBE_BYTES)
    if body is None or ONE_CLICK not in body.decode("latin-1"):
        return Response(status_code=400, headers=_NO_STORE)
    done = await act(unsubscribe, _key(request))
    return Response(status_code=200 if done else 404, headers=_NO_STORE)


def _authorized(request: Request, secret: str) -> bool:
    """Exactly `Authorization: Bearer <secret>`: the scheme in any case (RFC 7235), one space,
    the secret compared in constant time (the header's bytes as they came: Starlette decodes
    them as latin-1)."""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    right = hmac.compare_digest(given.encode("latin-1"), secret.encode())
    return scheme.lower() == "bearer" and right


def _refusals(data: object) -> list[tuple[str, str]] | None:
    """(address, reason) for each event that switches e-mail off; None for a malformed body."""
    events = data.get("events") if isinstance(data, dict) else None
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        return None
    refusals = []
    for event in events:
        if not isinstance(event, dict) or not isinstance(event.get("email"), str):
            return None
        kind = event.get("type")
        if kind == "complaint":
            refusals.append((event["email"], "spam"))
        elif kind == "bounce" and event.get("permanent") is True:
            refusals.append((event["email"], "bounce"))
    return refusals


async def mail_events(request: Request) -> Response:
    secret = get_config().mail_events_secret
    if not secret:
        return Response(status_code=404)
    if not _authorized(request, secret):
        return JSONResponse({"error": "unauthorized"}, status_code=401, headers=_NO_STORE)
    body = await bounded_body(request, MAX_EVENT_BYTES)
    try:
        refusals = _refusals(json.loads(body)) if body else None
    except ValueError:
        refusals = None
    if refusals is None:
        return JSONResponse({"error": "invalid_events"}, status_code=400, headers=_NO_STORE)
    switched = [await act(mail_refused, email, reason) for email, reason in refusals]
    return JSONResponse({"switched_off": sum(switched)}, headers=_NO_STORE)
