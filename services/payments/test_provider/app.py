"""The built-in test provider: Mollie's v2 API (payments, methods, refunds) and a hosted
checkout page, served by our own server so the real Mollie client runs in every test and in
`make run`.

Beyond Mollie's API, two testing controls settle a payment later without the page:
POST /v2/payments/{id}/test-outcome `{"status": "paid", "webhook": "late"}` and
POST /v2/payments/{id}/test-chargeback `{"amount": {...}}` (amount optional: all that is left).
"""

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from models.member import utcnow
from models.test_payments import SandboxPayment, SandboxRefund
from services.payments.amounts import cents_of, money_of
from services.payments.provider import TEST_PROVIDER_KEY, test_provider_url
from services.payments.test_provider import store
from services.payments.test_provider.checkout import checkout_page, chosen, not_found_page
from services.payments.test_provider.methods import (
    CURRENCIES,
    icon_svg,
    lifetime,
    method_spec,
    offered,
)
from services.payments.test_provider.resources import (
    error,
    listing,
    method_json,
    payment_json,
    refund_json,
    resource,
)
from services.payments.test_provider.webhooks import Deliver, Timing, Webhooks, post_webhook
from services.payments.types import Money

log = logging.getLogger(__name__)
SWEEP_SECONDS = 5.0
MAX_BODY_BYTES = 16_384
MAX_URL_LENGTH = 500
_NOT_FOUND = "No payment exists with token {id}."


class Refusal(Exception):
    """A request Mollie would refuse with 422, blaming `field`."""

    def __init__(self, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail, self.field = detail, field


class TestProvider:
    """One test provider: its Starlette `app`, its webhooks, its clock.

    `deliver` posts webhooks (tests capture them instead); `clock` is the provider's now;
    `after_seconds` / `late_seconds` delay webhooks sent after the redirect / late;
    `refund_seconds` is how long a refund stays queued; `public_url` the address of the mount
    (e.g. "https://example.org/testpay"), else taken from each request. With a `public_url`,
    redirect and webhook addresses must be on its origin: the provider serves that site only."""

    __test__ = False  # not a pytest test class

    def __init__(
        self,
        *,
        api_key: str = TEST_PROVIDER_KEY,
        deliver: Deliver = post_webhook,
        clock: Callable[[], datetime] = utcnow,
        after_seconds: float = 1.0,
        late_seconds: float = 5.0,
        refund_seconds: float = 3.0,
        public_url: str | None = None,
    ) -> None:
        self.api_key, self.clock, self.public_url = api_key, clock, public_url
        self.origin = _origin(public_url) if public_url else None
        self.refund_delay = timedelta(seconds=refund_seconds)
        self.webhooks = Webhooks(deliver, after_seconds, late_seconds)
        api = [
            ("/v2/payments", self.create_payment, "POST"),
            ("/v2/payments/{id}", self.get_payment, "GET"),
            ("/v2/methods", self.list_methods, "GET"),
            ("/v2/payments/{id}/refunds", self.create_refund, "POST"),
            ("/v2/payments/{id}/refunds", self.list_refunds, "GET"),
            ("/v2/payments/{id}/refunds/{refund_id}", self.get_refund, "GET"),
            ("/v2/payments/{id}/test-outcome", self.test_outcome, "POST"),
            ("/v2/payments/{id}/test-chargeback", self.test_chargeback, "POST"),
        ]
        self.app = Starlette(
            routes=[
                *(Route(path, self._authorised(handler), methods=[m]) for path, handler, m in api),
                Route("/checkout/{id}", self.checkout, methods=["GET"]),
                Route("/checkout/{id}", self.choose, methods=["POST"]),
                Route("/icons/{method}.svg", self.icon, methods=["GET"]),
            ]
        )
        self.app.state.provider = self

    async def sweep(self) -> int:
        """Expire overdue open payments and settle due refunds, with their webhooks."""
        changed = await asyncio.to_thread(store.sweep, self.clock())
        for payment in changed:
            self.webhooks.later(payment.webhook_url, payment.id)
        return len(changed)

    async def sweep_forever(self, interval: float = SWEEP_SECONDS) -> None:
        """The background task the server registers (Reflex `register_lifespan_task`)."""
        try:
            while True:
                try:
                    await self.sweep()
                except Exception:
                    log.exception("test provider sweep failed; retrying next round")
                await asyncio.sleep(interval)
        finally:
            self.webhooks.cancel()

    # -- Mollie's API ------------------------------------------------------------------

    async def create_payment(self, request: Request) -> Response:
        body = await _json_body(request)
        new = _new_payment(body, self.origin)
        key = request.headers.get("idempotency-key")
        payment = await asyncio.to_thread(store.create, new, key, self.clock())
        return resource(payment_json(payment, self._base(request)), 201)

    async def get_payment(self, request: Request) -> Response:
        payment = await self._look(request.path_params["id"])
        return resource(payment_json(payment, self._base(request)))

    async def list_methods(self, request: Request) -> Response:
        query = request.query_params
        currency = query.get("amount[currency]")
        cents = _cents(query.get("amount[value]"))
        if currency is not None and currency not in CURRENCIES:
            raise Refusal(f"The currency {currency} is not supported", "amount.currency")
        base, locale = self._base(request), query.get("locale")
        methods = offered(cents, currency, query.get("billingCountry"))
        items = [method_json(m, base, locale, currency or "EUR") for m in methods]
        return resource(listing("methods", items, f"{base}/v2/methods"))

    async def create_refund(self, request: Request) -> Response:
        payment = await self._look(request.path_params["id"])
        body = await _json_body(request)
        amount = _money(body.get("amount"), "amount")
        if amount.currency != payment.currency:
            raise Refusal("The refund currency must match the payment's", "amount.currency")
        refund = await asyncio.to_thread(
            store.refund,
            payment.id,
            amount.cents,
            str(body.get("description") or ""),
            request.headers.get("idempotency-key"),
            self.clock() + self.refund_delay,
        )
        if refund is None:
            raise Refusal("The amount is higher than the amount that can be refunded", "amount")
        return resource(refund_json(refund, self._base(request)), 201)

    async def list_refunds(self, request: Request) -> Response:
        refunds = await self._refunds(request.path_params["id"])
        base = self._base(request)
        href = f"{base}/v2/payments/{request.path_params['id']}/refunds"
        return resource(listing("refunds", [refund_json(r, base) for r in refunds], href))

    async def get_refund(self, request: Request) -> Response:
        refund_id = request.path_params["refund_id"]
        for refund in await self._refunds(request.path_params["id"]):
            if refund.id == refund_id:
                return resource(refund_json(refund, self._base(request)))
        return error(404, "Not Found", f"No refund exists with token {refund_id}.")

    # -- testing controls ----------------------------------------------------------------

    async def test_outcome(self, request: Request) -> Response:
        body = await _json_body(request)
        status = body.get("status")
        if status not in {"open", "pending", "paid", "failed", "canceled", "expired"}:
            raise Refusal("Unknown status", "status")
        timing = _timing(body.get("webhook", Timing.BEFORE))
        payment = await self._settle(request.path_params["id"], status, timing)
        if payment.status != status and status != "open":
            raise Refusal(f"The payment is {payment.status} and cannot become {status}", "status")
        return resource(payment_json(payment, self._base(request)))

    async def test_chargeback(self, request: Request) -> Response:
        body = await _json_body(request)
        amount = body.get("amount")
        cents = _money(amount, "amount").cents if amount else None
        payment_id = request.path_params["id"]
        looked = await asyncio.to_thread(store.chargeback, payment_id, cents)
        if looked.payment is None:
            return error(404, "Not Found", _NOT_FOUND.format(id=payment_id))
        if not looked.changed:
            raise Refusal("Nothing is left to charge back on this payment", "amount")
        await self.webhooks.send(looked.payment.webhook_url, payment_id, Timing.BEFORE)
        return resource(payment_json(looked.payment, self._base(request)))

    # -- hosted checkout -----------------------------------------------------------------

    async def checkout(self, request: Request) -> Response:
        try:
            payment = await self._look(request.path_params["id"])
        except LookupError:
            return HTMLResponse(not_found_page(), status_code=404)
        return HTMLResponse(checkout_page(payment, self._base(request)))

    async def choose(self, request: Request) -> Response:
        form = await request.form()
        choice = chosen({k: v for k, v in form.items() if isinstance(v, str)})
        if choice is None:
            return HTMLResponse(not_found_page(), status_code=400)
        try:
            payment = await self._settle(request.path_params["id"], *choice)
        except LookupError:
            return HTMLResponse(not_found_page(), status_code=404)
        return RedirectResponse(payment.redirect_url, status_code=303)

    async def icon(self, request: Request) -> Response:
        spec = method_spec(request.path_params["method"])
        if spec is None:
            return Response(status_code=404)
        headers = {"Cache-Control": "public, max-age=86400"}
        return Response(icon_svg(spec), media_type="image/svg+xml", headers=headers)

    # -- helpers ---------------------------------------------------------------------------

    def _authorised(self, handler: Callable) -> Callable:
        async def checked(request: Request) -> Response:
            scheme, _, key = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or key != self.api_key:
                detail = "Missing authentication, or failed to authenticate"
                return error(401, "Unauthorized Request", detail)
            try:
                return await handler(request)
            except Refusal as refusal:
                return error(422, "Unprocessable Entity", refusal.detail, refusal.field)
            except LookupError:
                return error(404, "Not Found", _NOT_FOUND.format(id=request.path_params["id"]))

        return checked

    def _base(self, request: Request) -> str:
        """The address of our mount as the client reached it (or as configured)."""
        if self.public_url:
            return self.public_url.rstrip("/")
        root = request.scope.get("root_path", "")
        return f"{request.url.scheme}://{request.url.netloc}{root}"

    async def _look(self, payment_id: str) -> SandboxPayment:
        """The payment after expiry and refunds had their say (webhook if they changed it)."""
        looked = await asyncio.to_thread(store.look, payment_id, self.clock())
        if looked.payment is None:
            raise LookupError(payment_id)
        if looked.changed:
            self.webhooks.later(looked.payment.webhook_url, payment_id)
        return looked.payment

    async def _refunds(self, payment_id: str) -> list[SandboxRefund]:
        looked, refunds = await asyncio.to_thread(store.refunds, payment_id, self.clock())
        if looked.payment is None:
            raise LookupError(payment_id)
        if looked.changed:
            self.webhooks.later(looked.payment.webhook_url, payment_id)
        return refunds

    async def _settle(self, payment_id: str, status: str, timing: Timing) -> SandboxPayment:
        """Apply an outcome; its webhook as timed when it changed the payment, but none for a
        payment left open or pending (Mollie calls no webhook for those)."""
        looked = await asyncio.to_thread(store.settle, payment_id, status, self.clock())
        payment = looked.payment
        if payment is None:
            raise LookupError(payment_id)
        if looked.changed and payment.status not in {"open", "pending"}:
            await self.webhooks.send(payment.webhook_url, payment_id, timing)
        return payment


async def _json_body(request: Request) -> dict[str, Any]:
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise Refusal("The request body is too large")
    try:
        body = json.loads(bytes(raw) or b"{}")
    except ValueError as exc:
        raise Refusal("The request body is not valid JSON") from exc
    if not isinstance(body, dict):
        raise Refusal("The request body must be a JSON object")
    return body


def _cents(value: str | None) -> int | None:
    try:
        return None if value is None else cents_of(value)
    except ValueError as exc:
        raise Refusal("The amount is invalid", "amount.value") from exc


def _money(value: object, field: str) -> Money:
    try:
        money = money_of(value)
    except ValueError as exc:
        raise Refusal("The amount is invalid", field) from exc
    if money.cents <= 0:
        raise Refusal("The amount must be more than zero", field)
    return money


def _timing(value: object) -> Timing:
    try:
        return Timing(str(value))
    except ValueError as exc:
        raise Refusal("Unknown webhook timing", "webhook") from exc


def _text(body: dict[str, Any], field: str, *, required: bool = True) -> str | None:
    value = body.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise Refusal(f"The {field} is missing or empty", field)
    return value


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _url(body: dict[str, Any], field: str, origin: str | None, *, required: bool) -> str | None:
    """An http(s) address, on `origin` when the provider serves one site: its checkout page
    links to it and redirects there, its webhooks post there."""
    value = _text(body, field, required=required)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or len(value) > MAX_URL_LENGTH:
        raise Refusal(f"The {field} is not a valid URL", field)
    if origin is not None and _origin(value) != origin:
        raise Refusal(f"The {field} must be on {origin}", field)
    return value


def _new_payment(body: dict[str, Any], origin: str | None) -> store.NewPayment:
    """Check a create-payment body as Mollie does: the first thing wrong refused by field."""
    amount = _money(body.get("amount"), "amount")
    if amount.currency not in CURRENCIES:
        raise Refusal(f"The currency {amount.currency} is not supported", "amount.currency")
    description = _text(body, "description")
    redirect_url = _url(body, "redirectUrl", origin, required=True)
    method = body.get("method")
    if method is not None:
        spec = method_spec(method)
        if spec is None:
            raise Refusal("The payment method is invalid", "method")
        if refusal := spec.refusal(amount.cents, amount.currency):
            raise Refusal(refusal, "amount")
    metadata = body.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise Refusal("The metadata must be a JSON object", "metadata")
    return store.NewPayment(
        amount_cents=amount.cents,
        currency=amount.currency,
        description=str(description)[:255],
        method=method,
        locale=_text(body, "locale", required=False) or "en_US",
        redirect_url=str(redirect_url),
        webhook_url=_url(body, "webhookUrl", origin, required=False),
        metadata=metadata,
        lifetime=lifetime(method),
    )


@cache
def default_test_provider() -> TestProvider:
    """The server's one test provider: webhooks over HTTP, links on PUBLIC_URL."""
    return TestProvider(public_url=test_provider_url())


def test_provider_app(provider: TestProvider | None = None) -> Starlette:
    """The provider's Starlette app (default: the server's), to mount at TEST_PROVIDER_PATH."""
    return (provider or default_test_provider()).app
