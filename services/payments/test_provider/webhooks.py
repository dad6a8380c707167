"""How the test provider calls a payment's webhookUrl: a form POST carrying only `id`, as
Mollie does, before the redirect, after it, twice, late, or not at all.

Delivery is injectable (`Deliver`) so tests capture webhooks instead of posting them."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum

import httpx

log = logging.getLogger(__name__)

Deliver = Callable[[str, str], Awaitable[None]]  # (webhook_url, payment_id)
ATTEMPTS = 3
RETRY_SECONDS = 1.0


class Timing(StrEnum):
    BEFORE = "before"  # delivered before the checkout page redirects (or the API answers)
    AFTER = "after"  # shortly after the redirect
    TWICE = "twice"  # before and again after
    LATE = "late"  # seconds later
    NONE = "none"


async def post_webhook(url: str, payment_id: str) -> None:
    """POST `id=<payment_id>` form-encoded; retried a few times on no answer or non-2xx."""
    async with httpx.AsyncClient(timeout=10.0) as client:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                response = await client.post(url, data={"id": payment_id})
                if response.is_success:
                    return
                reason = f"HTTP {response.status_code}"
            except httpx.HTTPError as error:
                reason = f"{type(error).__name__}: {error}"
            log.warning("webhook %s for %s failed (%s), try %d", url, payment_id, reason, attempt)
            await asyncio.sleep(RETRY_SECONDS * attempt)


class Webhooks:
    """Sends webhooks now or later; keeps the later ones so they can be awaited or cancelled."""

    def __init__(self, deliver: Deliver, after_seconds: float, late_seconds: float) -> None:
        self._deliver = deliver
        self._delays = {Timing.AFTER: after_seconds, Timing.LATE: late_seconds}
        self._pending: set[asyncio.Task[None]] = set()

    async def send(self, url: str | None, payment_id: str, timing: Timing) -> None:
        if not url or timing == Timing.NONE:
            return
        if timing in (Timing.BEFORE, Timing.TWICE):
            await self._safely(url, payment_id)
        if timing in (Timing.AFTER, Timing.TWICE):
            self.later(url, payment_id, self._delays[Timing.AFTER])
        if timing == Timing.LATE:
            self.later(url, payment_id, self._delays[Timing.LATE])

    def later(self, url: str | None, payment_id: str, seconds: float = 0.0) -> None:
        if not url:
            return
        task = asyncio.get_running_loop().create_task(self._after(seconds, url, payment_id))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def drain(self) -> None:
        """Wait until every webhook scheduled so far (and any they led to) was delivered."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    def cancel(self) -> None:
        for task in self._pending:
            task.cancel()

    async def _after(self, seconds: float, url: str, payment_id: str) -> None:
        await asyncio.sleep(seconds)
        await self._safely(url, payment_id)

    async def _safely(self, url: str, payment_id: str) -> None:
        try:
            await self._deliver(url, payment_id)
        except Exception:
            log.exception("webhook %s for %s could not be delivered", url, payment_id)
