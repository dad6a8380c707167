"""The built-in test provider wired up for tests: the real Mollie client talking to it in
process (httpx.ASGITransport), its webhooks captured instead of posted, and its clock in the
test's hands.

Use in a test module: `pytest_plugins = ["tests.payments_fixtures"]`, then the fixtures
`provider_client`, `testpay`, `testpay_clock`, `testpay_http`, `testpay_webhooks`.
`testpay_webhooks` records (url, payment_id); pass `deliver=asgi_deliver(app)` to a
TestProvider of your own to hand webhooks to an ASGI app (our real webhook route) instead.
`signed_mandate` registers a customer and a SEPA mandate; `Shop.outcome` / `Shop.collect`
settle a direct debit at once (paid, or failed for a bank reason) or after its collection days.
"""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import ASGIApp

import actions.direct_debit_flow as direct_debit_flow
import actions.payment_flow as payment_flow
import models.test_payments  # noqa: F401 - registers the test provider's tables
from actions.effects import settle
from app.http_api import http_api
from services.config import get_config
from services.payments.mollie import MollieClient
from services.payments.provider import TEST_PROVIDER_KEY, TEST_PROVIDER_PATH
from services.payments.test_provider import Deliver, TestProvider
from services.payments.types import ProviderMandate

ORIGIN = "http://testserver"
CLIENT_USERS = (payment_flow, direct_debit_flow)  # the modules that ask the provider
API_URL = f"{ORIGIN}{TEST_PROVIDER_PATH}/v2"
TEST_IBAN = "NL91ABNA0417164300"
AUTHORISED = {"Authorization": f"Bearer {TEST_PROVIDER_KEY}"}


@dataclass
class FakeClock:
    """The provider's now; `advance` moves it on (expiry, refunds) without waiting."""

    now: datetime = field(default_factory=lambda: datetime(2026, 3, 1, 12, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class CapturedWebhooks:
    calls: list[tuple[str, str]] = field(default_factory=list)

    async def deliver(self, url: str, payment_id: str) -> None:
        self.calls.append((url, payment_id))

    def ids(self) -> list[str]:
        return [payment_id for _, payment_id in self.calls]


def asgi_deliver(app: ASGIApp) -> Deliver:
    """Webhooks POSTed (form-encoded `id`) to `app` at the webhook URL's path, in process."""

    async def deliver(url: str, payment_id: str) -> None:
        parts = urlsplit(url)
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=f"{parts.scheme}://{parts.netloc}"
        ) as client:
            await client.post(parts.path, data={"id": payment_id})

    return deliver


def mounted(provider: TestProvider) -> Starlette:
    """The provider under TEST_PROVIDER_PATH, as the site mounts it."""
    return Starlette(routes=[Mount(TEST_PROVIDER_PATH, app=provider.app)])


def provider_transport(provider: TestProvider) -> httpx.ASGITransport:
    return httpx.ASGITransport(app=mounted(provider))


def make_provider_client(provider: TestProvider, api_key: str = TEST_PROVIDER_KEY) -> MollieClient:
    """A MollieClient that reaches `provider` in process at API_URL."""
    return MollieClient(api_key, API_URL, transport=provider_transport(provider))


async def signed_mandate(
    client: MollieClient,
    name: str = "Anna de Vries",
    iban: str = TEST_IBAN,
    reference: str = "AMR-7-K2M9",
    signed_on: date = date(2026, 3, 1),
) -> tuple[str, ProviderMandate]:
    """A customer and their SEPA direct debit mandate: (customer id, mandate)."""
    customer = await client.create_customer(name, "anna@example.org", "nl_NL", {"member": "7"})
    return customer, await client.create_mandate(customer, name, iban, signed_on, reference)


@pytest.fixture
def testpay_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def testpay_webhooks() -> CapturedWebhooks:
    return CapturedWebhooks()


@pytest.fixture
async def testpay(engine, testpay_clock, testpay_webhooks) -> AsyncIterator[TestProvider]:
    """A test provider on the test's database; webhooks after/late come after 10/50 ms."""
    provider = TestProvider(
        deliver=testpay_webhooks.deliver,
        clock=testpay_clock,
        after_seconds=0.01,
        late_seconds=0.05,
        refund_seconds=3,
    )
    yield provider
    provider.webhooks.cancel()


@pytest.fixture
async def provider_client(testpay) -> AsyncIterator[MollieClient]:
    client = make_provider_client(testpay)
    yield client
    await client.aclose()


@pytest.fixture
async def testpay_http(testpay) -> AsyncIterator[httpx.AsyncClient]:
    """A browser-like client for the checkout page and the testing controls (key sent)."""
    async with httpx.AsyncClient(
        transport=provider_transport(testpay),
        base_url=ORIGIN,
        headers=AUTHORISED,
    ) as client:
        yield client


class Shop:
    """The provider, the browser's view of its checkout page, and our site's webhook route."""

    def __init__(
        self, provider: TestProvider, browser: httpx.AsyncClient, client: MollieClient
    ) -> None:
        self.provider, self.browser, self.client = provider, browser, client

    async def pay(self, checkout_url: str, status: str = "paid", webhook: str = "before") -> str:
        """The member picks an outcome on the checkout page; where it sends them back."""
        path = httpx.URL(checkout_url).path
        answer = await self.browser.post(path, data={"outcome": status, "webhook": webhook})
        assert answer.status_code == 303
        await self._delivered()
        return answer.headers["location"]

    async def outcome(
        self, payment_id: str, status: str = "paid", reason: str | None = None
    ) -> httpx.Response:
        """The testing control settles the payment at once (a direct debit fails for the bank's
        `reason`); its webhook delivered and its effects dispatched."""
        body = {"status": status} | ({"reason": reason} if reason else {})
        path = f"{TEST_PROVIDER_PATH}/v2/payments/{payment_id}/test-outcome"
        answer = await self.browser.post(path, json=body, headers=AUTHORISED)
        await self._delivered()
        return answer

    async def collect(self, days: float = 3) -> int:
        """`days` pass at the provider: due direct debits are collected (paid, webhooked)."""
        self.provider.clock.advance(days=days)
        collected = await self.provider.sweep()
        await self._delivered()
        return collected

    async def _delivered(self) -> None:
        await self.provider.webhooks.drain()
        await settle()


@pytest.fixture
async def shop(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Shop]:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    get_config.cache_clear()
    provider = TestProvider(
        deliver=asgi_deliver(http_api()), clock=FakeClock(), after_seconds=0.01, late_seconds=0.02
    )
    client = make_provider_client(provider)
    for module in CLIENT_USERS:
        monkeypatch.setattr(module, "payment_client", lambda: client)
    async with httpx.AsyncClient(
        transport=provider_transport(provider), base_url="http://testserver"
    ) as browser:
        yield Shop(provider, browser, client)
    provider.webhooks.cancel()
    await client.aclose()
    get_config.cache_clear()
