"""The built-in test provider: Mollie's v2 API (payments, methods, refunds, chargebacks,
customers and their SEPA direct debit mandates) and a hosted checkout page, served by our own
server so the real Mollie client runs in every test and in `make run`.

A direct debit is charged on a mandate (sequenceType "recurring"): it starts pending, with no
checkout page, and is collected `collection_days` later (the sweeper pays it, with a webhook).

Beyond Mollie's API, two testing controls settle a payment without the page:
POST /v2/payments/{id}/test-outcome `{"status": "paid", "webhook": "late"}` (a direct debit may
fail at once for a bank's reason: `{"status": "failed", "reason": "AC04"}`) and
POST /v2/payments/{id}/test-chargeback `{"amount": {...}, "reason": "MD06"}` (both optional:
all that is left, no reason).
"""

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import cache

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from models.member import utcnow
from models.test_payments import SandboxPayment
from services.payments.provider import TEST_PROVIDER_KEY, test_provider_url
from services.payments.test_provider import store
from services.payments.test_provider.bodies import (
    Refusal,
    bank_reason,
    cents,
    json_body,
    money,
    new_customer,
    new_mandate,
    new_payment,
    origin,
    timing,
)
from services.payments.test_provider.checkout import checkout_page, chosen, not_found_page
from services.payments.test_provider.direct_debit import COLLECTION_DAYS, mandate_details
from services.payments.test_provider.methods import CURRENCIES, icon_svg, method_spec, offered
from services.payments.test_provider.resources import (
    chargeback_json,
    customer_json,
    error,
    listing,
    mandate_json,
    method_json,
    payment_json,
    refund_json,
    resource,
)
from services.payments.test_provider.webhooks import Deliver, Timing, Webhooks, post_webhook

log = logging.getLogger(__name__)
FORGET_EVERY = timedelta(hours=1)
OUTCOMES = frozenset({"open", "pending", "paid", "failed", "canceled", "expired"})


class Missing(LookupError):
    """Mollie's 404: no `kind` (payment, customer, mandate) with that id."""

    def __init__(self, token: str, kind: str = "payment") -> None:
        super().__init__(token)
        self.detail = f"No {kind} exists with token {token}."


class TestProvider:
    """One test provider: its Starlette `app`, its webhooks, its clock.

    `deliver` posts webhooks (tests capture them instead); `clock` is the provider's now;
    `after_seconds` / `late_seconds` delay webhooks sent after the redirect / late;
    `refund_seconds` is how long a refund stays queued; `collection_days` how long a direct
    debit stays pending before it is collected; `public_url` the address of the mount (e.g.
    "https://example.org/testpay"), else taken from each request. With a `public_url`,
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
        collection_days: float = COLLECTION_DAYS,
        public_url: str | None = None,
    ) -> None:
        self.api_key, self.clock, self.public_url = api_key, clock, public_url
        self.origin = origin(public_url) if public_url else None
        self.refund_delay = timedelta(seconds=refund_seconds)
        self.collection_delay = timedelta(days=collection_days)
        self.webhooks = Webhooks(deliver, after_seconds, late_seconds)
        self._forgotten_at: datetime | None = None
        api = [
            ("/v2/payments", self.create_payment, "POST"),
            ("/v2/payments/{id}", self.get_payment, "GET"),
            ("/v2/methods", self.list_methods, "GET"),
            ("/v2/payments/{id}/refunds", self.create_refund, "POST"),
            ("/v2/payments/{id}/refunds", self.list_refunds, "GET"),
            ("/v2/payments/{id}/refunds/{refund_id}", self.get_refund, "GET"),
            ("/v2/payments/{id}/chargebacks", self.list_chargebacks, "GET"),
            ("/v2/payments/{id}/test-outcome", self.test_outcome, "POST"),
            ("/v2/payments/{id}/test-chargeback", self.test_chargeback, "POST"),
            ("/v2/customers", self.create_customer, "POST"),
            ("/v2/customers/{id}", self.get_customer, "GET"),
            ("/v2/customers/{id}/mandates", self.create_mandate, "POST"),
            ("/v2/customers/{id}/mandates/{mandate_id}", self.get_mandate, "GET"),
            ("/v2/customers/{id}/mandates/{mandate_id}", self.revoke_mandate, "DELETE"),
            ("/v2/customers/{id}/payments", self.list_customer_payments, "GET"),
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
        """Expire overdue open payments, collect due direct debits and settle due refunds,
        with their webhooks."""
        now = self.clock()
        changed = await asyncio.to_thread(store.sweep, now)
        for payment in changed:
            self.webhooks.later(payment.webhook_url, payment.id)
        if self._forgotten_at is None or now - self._forgotten_at >= FORGET_EVERY:
            await asyncio.to_thread(store.forget_old, now)  # long-settled payments go
            self._forgotten_at = now
        return len(changed)

    # -- Mollie's API ------------------------------------------------------------------

    async def create_payment(self, request: Request) -> Response:
        new = new_payment(await json_body(request), self.origin)
        if new.sequence_type == "recurring":
            new = await self._on_mandate(new)
        key = request.headers.get("idempotency-key")
        payment = await asyncio.to_thread(store.create, new, key, self.clock())
        return resource(payment_json(payment, self._base(request)), 201)

    async def get_payment(self, request: Request) -> Response:
        payment = await self._look(request.path_params["id"])
        return resource(payment_json(payment, self._base(request)))

    async def list_methods(self, request: Request) -> Response:
        query = request.query_params
        currency = query.get("amount[currency]")
        amount = cents(query.get("amount[value]"))
        if currency is not None and currency not in CURRENCIES:
            raise Refusal(f"The currency {currency} is not supported", "amount.currency")
        base, locale = self._base(request), query.get("locale")
        methods = offered(amount, currency, query.get("billingCountry"))
        items = [method_json(m, base, locale, currency or "EUR") for m in methods]
        return resource(listing("methods", items, f"{base}/v2/methods"))

    async def create_refund(self, request: Request) -> Response:
        payment = await self._look(request.path_params["id"])
        body = await json_body(request)
        amount = money(body.get("amount"), "amount")
        if amount.currency != payment.currency:
            raise Refusal("The refund currency must match the payment's", "amount.currency")
        asked = await asyncio.to_thread(
            store.refund,
            payment.id,
            amount.cents,
            str(body.get("description") or ""),
            request.headers.get("idempotency-key"),
            self.clock() + self.refund_delay,
        )
        if asked.refund is None:
            raise Refusal("The amount is higher than the amount that can be refunded", "amount")
        if asked.new:  # the payment changed (amountRefunded): its webhook, as Mollie calls it
            await self.webhooks.send(payment.webhook_url, payment.id, Timing.BEFORE)
        return resource(refund_json(asked.refund, self._base(request)), 201)

    async def list_refunds(self, request: Request) -> Response:
        refunds = await self._with(store.refunds, request.path_params["id"])
        base = self._base(request)
        href = f"{base}/v2/payments/{request.path_params['id']}/refunds"
        return resource(listing("refunds", [refund_json(r, base) for r in refunds], href))

    async def get_refund(self, request: Request) -> Response:
        refund_id = request.path_params["refund_id"]
        for refund in await self._with(store.refunds, request.path_params["id"]):
            if refund.id == refund_id:
                return resource(refund_json(refund, self._base(request)))
        return error(404, "Not Found", f"No refund exists with token {refund_id}.")

    async def list_chargebacks(self, request: Request) -> Response:
        chargebacks = await self._with(store.chargebacks, request.path_params["id"])
        base = self._base(request)
        href = f"{base}/v2/payments/{request.path_params['id']}/chargebacks"
        items = [chargeback_json(c, base) for c in chargebacks]
        return resource(listing("chargebacks", items, href))

    async def create_customer(self, request: Request) -> Response:
        new = new_customer(await json_body(request))
        key = request.headers.get("idempotency-key")
        customer = await asyncio.to_thread(store.create_customer, new, key, self.clock())
        return resource(customer_json(customer, self._base(request)), 201)

    async def get_customer(self, request: Request) -> Response:
        customer_id = request.path_params["id"]
        customer = await asyncio.to_thread(store.customer, customer_id)
        if customer is None:
            raise Missing(customer_id, "customer")
        return resource(customer_json(customer, self._base(request)))

    async def create_mandate(self, request: Request) -> Response:
        customer_id = request.path_params["id"]
        new = new_mandate(await json_body(request), self.clock().date())
        key = request.headers.get("idempotency-key")
        mandate = await asyncio.to_thread(store.create_mandate, customer_id, new, key, self.clock())
        if mandate is None:
            raise Missing(customer_id, "customer")
        return resource(mandate_json(mandate, self._base(request)), 201)

    async def get_mandate(self, request: Request) -> Response:
        mandate_id = request.path_params["mandate_id"]
        mandate = await asyncio.to_thread(store.mandate, request.path_params["id"], mandate_id)
        if mandate is None:
            raise Missing(mandate_id, "mandate")
        return resource(mandate_json(mandate, self._base(request)))

    async def revoke_mandate(self, request: Request) -> Response:
        mandate_id = request.path_params["mandate_id"]
        customer_id = request.path_params["id"]
        if not await asyncio.to_thread(store.revoke_mandate, customer_id, mandate_id):
            raise Missing(mandate_id, "mandate")
        return Response(status_code=204)

    async def list_customer_payments(self, request: Request) -> Response:
        customer_id = request.path_params["id"]
        if await asyncio.to_thread(store.customer, customer_id) is None:
            raise Missing(customer_id, "customer")
        payments = await asyncio.to_thread(store.customer_payments, customer_id)
        base = self._base(request)
        href = f"{base}/v2/customers/{customer_id}/payments"
        return resource(listing("payments", [payment_json(p, base) for p in payments], href))

    # -- testing controls ----------------------------------------------------------------

    async def test_outcome(self, request: Request) -> Response:
        body = await json_body(request)
        status = body.get("status")
        if status not in OUTCOMES:
            raise Refusal("Unknown status", "status")
        when = timing(body.get("webhook", Timing.BEFORE))
        reason = bank_reason(body.get("reason"))
        payment = await self._settle(request.path_params["id"], status, when, reason)
        if payment.status != status and status != "open":
            raise Refusal(f"The payment is {payment.status} and cannot become {status}", "status")
        return resource(payment_json(payment, self._base(request)))

    async def test_chargeback(self, request: Request) -> Response:
        body = await json_body(request)
        amount = body.get("amount")
        taken = money(amount, "amount").cents if amount else None
        reason = bank_reason(body.get("reason"))
        payment_id = request.path_params["id"]
        looked = await asyncio.to_thread(store.chargeback, payment_id, taken, reason, self.clock())
        if looked.payment is None:
            raise Missing(payment_id)
        if not looked.changed:
            raise Refusal("Nothing is left to charge back on this payment", "amount")
        await self.webhooks.send(looked.payment.webhook_url, payment_id, Timing.BEFORE)
        return resource(payment_json(looked.payment, self._base(request)))

    # -- hosted checkout -----------------------------------------------------------------

    async def checkout(self, request: Request) -> Response:
        try:
            payment = await self._checkout_payment(request.path_params["id"])
        except LookupError:
            return HTMLResponse(not_found_page(), status_code=404)
        return HTMLResponse(checkout_page(payment, self._base(request)))

    async def choose(self, request: Request) -> Response:
        form = await request.form()
        choice = chosen({k: v for k, v in form.items() if isinstance(v, str)})
        if choice is None:
            return HTMLResponse(not_found_page(), status_code=400)
        try:
            await self._checkout_payment(request.path_params["id"])
            payment = await self._settle(request.path_params["id"], *choice)
        except LookupError:
            return HTMLResponse(not_found_page(), status_code=404)
        return RedirectResponse(str(payment.redirect_url), status_code=303)

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
            except Missing as missing:
                return error(404, "Not Found", missing.detail)

        return checked

    def _base(self, request: Request) -> str:
        """The address of our mount as the client reached it (or as configured)."""
        if self.public_url:
            return self.public_url.rstrip("/")
        root = request.scope.get("root_path", "")
        return f"{request.url.scheme}://{request.url.netloc}{root}"

    async def _on_mandate(self, new: store.NewPayment) -> store.NewPayment:
        """A payment charged on the customer's valid mandate: pending, collected later."""
        customer_id = str(new.customer_id)
        if await asyncio.to_thread(store.customer, customer_id) is None:
            raise Refusal("The customer id is invalid", "customerId")
        mandate = await asyncio.to_thread(store.mandate, customer_id, new.mandate_id)
        if mandate is None or mandate.status != "valid":
            raise Refusal("The customer has no valid mandate for direct debit", "mandateId")
        return dataclasses.replace(
            new,
            status="pending",
            mandate_id=mandate.id,
            collects_at=self.clock() + self.collection_delay,
            details=mandate_details(mandate),
        )

    async def _look(self, payment_id: str) -> SandboxPayment:
        """The payment after time had its say (webhook if that changed it)."""
        looked = await asyncio.to_thread(store.look, payment_id, self.clock())
        return self._seen(looked, payment_id)

    async def _with(self, read: Callable, payment_id: str) -> list:
        """A payment's refunds or chargebacks, after time had its say about the payment."""
        looked, rows = await asyncio.to_thread(read, payment_id, self.clock())
        self._seen(looked, payment_id)
        return rows

    def _seen(self, looked: store.Looked, payment_id: str) -> SandboxPayment:
        if looked.payment is None:
            raise Missing(payment_id)
        if looked.changed:
            self.webhooks.later(looked.payment.webhook_url, payment_id)
        return looked.payment

    async def _checkout_payment(self, payment_id: str) -> SandboxPayment:
        """A payment the checkout page is for: none is charged on a mandate."""
        payment = await self._look(payment_id)
        if payment.sequence_type != "oneoff":
            raise Missing(payment_id)
        return payment

    async def _settle(
        self, payment_id: str, status: str, when: Timing, reason: str | None = None
    ) -> SandboxPayment:
        """Apply an outcome; its webhook as timed when it changed the payment, but none for a
        payment left open or pending (Mollie calls no webhook for those)."""
        looked = await asyncio.to_thread(store.settle, payment_id, status, self.clock(), reason)
        payment = looked.payment
        if payment is None:
            raise Missing(payment_id)
        if looked.changed and payment.status not in {"open", "pending"}:
            await self.webhooks.send(payment.webhook_url, payment_id, when)
        return payment


@cache
def default_test_provider() -> TestProvider:
    """The server's one test provider: webhooks over HTTP, links on PUBLIC_URL."""
    return TestProvider(public_url=test_provider_url())


def test_provider_app(provider: TestProvider | None = None) -> Starlette:
    """The provider's Starlette app (default: the server's), to mount at TEST_PROVIDER_PATH."""
    return (provider or default_test_provider()).app
