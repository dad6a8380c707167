"""Sending the conversions noted for the traffic networks (models/postback.py): a GET to each
postback's resolved address, marked sent on a 2xx answer, otherwise tried again after 1 minute,
5 minutes, 30 minutes, 2 hours and 12 hours, and failed after the sixth attempt.

Every worker runs the round every few seconds (a lifespan task); a round claims at most BATCH
due postbacks with FOR UPDATE SKIP LOCKED on PostgreSQL and moves them LEASE ahead before it
sends, so two workers never send the same one (SQLite serves one worker). A worker that dies
while sending leaves its claim to run again once the lease is over: the network may hear a
postback twice then, with the same transaction id ({tid}), never a second conversion. The
answer is recorded only while the claim holds (the row's attempts still the claim's): a worker
whose claim ran out never overwrites what the next claim recorded. A send has DEADLINE_SECONDS
in all, redirects included. Redirects are followed only on the same host; the answer's body is
never read; an address the setting's rules no longer allow here is not sent to.
Also `python -m services.postbacks`: one round now."""

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urljoin, urlsplit

import httpx
from sqlalchemy import update
from sqlmodel import col, select

from models.member import utcnow
from models.postback import ERROR_MAX, Postback, PostbackStatus
from models.setting_postbacks import allowed_address, runs_locally
from services.config import get_config
from services.database import transaction
from services.jobs import periodic
from services.tls import tls_context

log = logging.getLogger(__name__)

BATCH = 20
TIMEOUT_SECONDS = 10  # each connect, read or write
DEADLINE_SECONDS = 15  # a whole send, redirects included
LEASE = timedelta(minutes=2)  # far beyond a send's longest, DEADLINE_SECONDS
BACKOFF = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=12),
)
ATTEMPTS_MAX = len(BACKOFF) + 1
REDIRECTS_MAX = 3


@dataclass(frozen=True)
class Due:
    id: int
    url: str
    attempts: int  # the row's count when claimed: the claim holds while it is still that


@dataclass(frozen=True)
class Answer:
    status_code: int | None  # None: no answer at all
    error: str = ""

    @property
    def accepted(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def claim_due(now: datetime, limit: int = BATCH) -> tuple[Due, ...]:
    """The pending postbacks due at `now`, oldest first, claimed: their attempt counted and their
    next one moved LEASE ahead, in one transaction whose rows other workers skip."""
    query = (
        select(Postback)
        .where(Postback.status == PostbackStatus.PENDING, Postback.next_attempt_at <= now)
        .order_by(col(Postback.next_attempt_at), col(Postback.id))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    with transaction() as db:
        rows = db.exec(query).all()
        for row in rows:
            row.attempts += 1
            row.next_attempt_at = now + LEASE
            db.add(row)
        return tuple(Due(row.id, row.url, row.attempts) for row in rows if row.id is not None)


def record(due: Due, answer: Answer, now: datetime) -> bool:
    """The answer to a claimed postback, in one UPDATE taking effect only while the claim holds:
    sent on a 2xx; else due again after its backoff, or failed after ATTEMPTS_MAX attempts.
    False when the claim no longer held (nothing recorded)."""
    values: dict[str, object] = {
        "last_status_code": answer.status_code,
        "last_error": answer.error[:ERROR_MAX],
    }
    if answer.accepted:
        values |= {"status": PostbackStatus.SENT, "sent_at": now}
    elif due.attempts >= ATTEMPTS_MAX:
        values |= {"status": PostbackStatus.FAILED}
    else:
        values |= {"next_attempt_at": now + BACKOFF[max(due.attempts, 1) - 1]}
    claimed = update(Postback).where(
        col(Postback.id) == due.id,
        col(Postback.status) == PostbackStatus.PENDING,
        col(Postback.attempts) == due.attempts,
    )
    with transaction() as db:
        held = db.exec(claimed.values(**values)).rowcount == 1  # type: ignore[attr-defined]
    if not held:
        log.warning("postback %s: claim %s ran out before its answer", due.id, due.attempts)
    elif values.get("status") == PostbackStatus.FAILED:
        log.warning("postback %s failed after %s attempts", due.id, due.attempts)
    return held


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme, parts.hostname or "", parts.port


async def send(client: httpx.AsyncClient, url: str) -> Answer:
    """GET `url` if the rules allow it here, all within DEADLINE_SECONDS."""
    if not allowed_address(url, runs_locally(get_config().public_url)):
        return Answer(None, "address not allowed")
    try:
        return await asyncio.wait_for(_get(client, url), DEADLINE_SECONDS)
    except TimeoutError:
        return Answer(None, f"no answer within {DEADLINE_SECONDS} s")


async def _get(client: httpx.AsyncClient, url: str) -> Answer:
    """GET `url`, following at most REDIRECTS_MAX redirects within its scheme, host and port;
    the body is never read."""
    origin = _origin(url)
    try:
        for _ in range(REDIRECTS_MAX + 1):
            async with client.stream("GET", url) as response:
                location = response.headers.get("location")
                if not response.is_redirect or not location:
                    return Answer(response.status_code)
            url = urljoin(url, location)
            if _origin(url) != origin:
                return Answer(response.status_code, "redirect to another host")
        return Answer(response.status_code, "too many redirects")
    except (httpx.HTTPError, httpx.InvalidURL) as error:
        return Answer(None, f"{type(error).__name__}: {error}")


def client(transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        verify=tls_context(), timeout=TIMEOUT_SECONDS, follow_redirects=False, transport=transport
    )


async def send_due_postbacks(
    now: datetime, transport: httpx.AsyncBaseTransport | None = None
) -> int:
    """One round: claim the due postbacks, send them at once, record each answer. Returns how
    many the networks accepted."""
    due = await asyncio.to_thread(claim_due, now)
    if not due:
        return 0
    async with client(transport) as http:
        answers = await asyncio.gather(*(send(http, d.url) for d in due))
    for d, answer in zip(due, answers, strict=True):
        await asyncio.to_thread(record, d, answer, now)
    return sum(answer.accepted for answer in answers)


@periodic("send_postbacks", cron="* * * * * */5")
async def send_postbacks() -> None:
    """A round every five seconds, once across every worker and instance."""
    await send_due_postbacks(utcnow())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    print(f"sent {asyncio.run(send_due_postbacks(utcnow()))} postbacks")
