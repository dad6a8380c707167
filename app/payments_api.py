"""The payment routes outside the websocket: the provider's webhook and the discount-code
lookup of spec section 7."""

import re
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from actions.code_tries import try_code
from actions.payment_flow import sync_payment
from actions.payment_reads import welcome_offer
from actions.runner import act, read
from app.request_auth import (
    authentication_required,
    bounded_body,
    request_client,
    request_viewer,
)
from services.metrics import WEBHOOKS
from translations.catalog import gettext
from translations.errors import TOO_MANY_CODES

PAYMENT_ID = re.compile(r"tr_[A-Za-z0-9]{1,40}")
MAX_WEBHOOK_BYTES = 1024
_NO_STORE = {"Cache-Control": "no-store"}


async def payment_webhook(request: Request) -> Response:
    """The provider says a payment changed; the POST carries only its id, so nothing it says is
    trusted: the status is fetched from the provider. 200 for ids we do not know (nothing to
    tell a guesser); 503 when the provider could not be asked, so it calls again later."""
    body = await bounded_body(request, MAX_WEBHOOK_BYTES)
    ids = parse_qs((body or b"").decode("latin-1")).get("id", [])
    if len(ids) != 1 or not PAYMENT_ID.fullmatch(ids[0]):
        WEBHOOKS.labels("malformed").inc()
        return Response(status_code=400)
    if await sync_payment(ids[0]) is None:
        WEBHOOKS.labels("provider_unreachable").inc()
        return Response(status_code=503)
    WEBHOOKS.labels("applied").inc()
    return Response(status_code=200)


async def discount_code(request: Request) -> Response:
    """`?code=…` checks a code for this member (throttled per member and address:
    actions/code_tries.py); `?welcome=true` gives the welcome code (404 without one, which the
    page ignores)."""
    viewer = await request_viewer(request)
    if viewer is None:
        return authentication_required()
    if request.query_params.get("welcome") == "true":
        offer = await read(welcome_offer, viewer)
        if offer is None:
            return JSONResponse({"error": "not_found"}, status_code=404, headers=_NO_STORE)
        return _code_json(offer.code, offer.percentage)
    query = request.query_params
    answer = await act(
        try_code,
        viewer,
        query.get("code"),
        query.get("country"),
        viewer.language,
        request_client(request),
    )
    if answer.error:
        message = gettext(viewer.language, answer.error, **dict(answer.error_params))
        status = 429 if answer.error == TOO_MANY_CODES else 404
        return JSONResponse({"error": message}, status_code=status, headers=_NO_STORE)
    return _code_json(answer.code, answer.percentage)


def _code_json(code: str, percentage: int) -> JSONResponse:
    body = {
        "discountcode": {"code": code, "value_percentage": percentage, "percentage": percentage}
    }
    return JSONResponse(body, headers=_NO_STORE)
