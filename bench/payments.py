"""`python bench/payments.py [--members 200] [--smoke]`: the payment webhook under 50 concurrent
calls.

Serves our HTTP routes (`app.http_api.http_api()`, the built-in test provider mounted under
/testpay, the effect handlers the Reflex app registers) with granian, 1 worker, on a free port,
PUBLIC_URL pointing at it, on a temporary database: a fresh SQLite file, or with
`DATABASE_URL` naming a PostgreSQL server its database `bench_payments` (created when
missing, wiped), migrated with Alembic. Each of `--members` members starts a checkout as the
credits page does (`start_checkout`, the real Mollie client against the test provider), and
its payment is marked paid at the provider without a webhook (`test-outcome`, webhook
"none"). Then every payment's webhook, replayed so each order sees 5, is POSTed to
/api/payments/webhook in a shuffled order, 50 at a time, each as soon as one answers.

Beside it, in the same run: a bare Starlette handler on a second granian (1 worker, the same
test provider mounted on the same database) that does only the status fetch of the webhook:
GET the payment with the same MollieClient, nothing of ours in the database. The same
webhooks in the same order. Prints whether every member got their credits exactly once (and
one receipt), then latency (p50, p99) and webhooks a second for both, and the ratio.
`--smoke`: 4 members.
"""

import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
from alembic import command
from alembic.config import Config
from sqlalchemy import func
from sqlmodel import Session, select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, tests.*, models.*
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from server import BIN_DIR, free_port, stop

import state.transactions  # noqa: F401 - registers the Reflex app's effect handlers (and live's)
from actions.payment_flow import start_checkout
from actions.viewer import Viewer
from app.http_api import http_api
from bench.options import bench_parser, parse
from bench.reflex_socket import cpu_seconds, process_tree
from models.credits import CreditEntry
from models.db import make_engine
from models.member import Member, utcnow
from models.orders import Order
from services.config import _sqlalchemy_url, get_config
from services.mail import outbox_messages
from services.payments.provider import (
    TEST_PROVIDER_KEY,
    TEST_PROVIDER_PATH,
    WEBHOOK_PATH,
    payment_client,
)
from services.payments.test_provider import test_provider_app
from services.payments.types import ProviderError
from tests.factories import make_member
from tests.services import own_database, wipe_postgres_schema

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = 200
SMOKE_MEMBERS = 4
CONCURRENT = 50
WEBHOOKS_PER_ORDER = 5  # the paid payment's webhook and 4 replays
SETUP_AT_ONCE = 10  # checkouts started at the same time while setting up
WARM_UP = 2 * CONCURRENT  # webhooks for an unknown payment, before each measurement
TIER, METHOD, COUNTRY = "p1", "ideal", "NL"
DATABASE = "bench_payments"
BARE_PATH = "/bare/webhook"
READY_TIMEOUT = 30.0
RECEIPTS_TIMEOUT = 10.0
SERVED_BY = "real HTTP: granian (as Reflex serves in production), 1 worker, on 127.0.0.1"
CONTENT_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*(\d+)")
AUTH = {"Authorization": f"Bearer {TEST_PROVIDER_KEY}"}
SERVER_ENV_DROPPED = ("MOLLIE_API_KEY", "MOLLIE_API_URL", "REDIS_URL", "SMTP_URL")


# ----- the two servers (granian imports these factories) -----


def site_app() -> Starlette:
    """Our routes as the site mounts them in front of Reflex, the test provider included."""
    return http_api()


async def bare_webhook(request: Request) -> Response:
    """The baseline: the webhook's status fetch and nothing else."""
    ids = parse_qs((await request.body()).decode("latin-1")).get("id", [])
    if len(ids) != 1:
        return Response(status_code=400)
    try:
        await payment_client().get_payment(ids[0])
    except ProviderError as error:
        return Response(status_code=200 if 400 <= error.status < 500 else 503)
    return Response(status_code=200)


def bare_app() -> Starlette:
    return Starlette(
        routes=[
            Route(BARE_PATH, bare_webhook, methods=["POST"]),
            Mount(TEST_PROVIDER_PATH, app=test_provider_app()),
        ]
    )


def wait_until_ready(url: str, process: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    with httpx.Client(timeout=2, headers=AUTH) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            with suppress(httpx.HTTPError):
                if client.get(f"{url}{TEST_PROVIDER_PATH}/v2/methods").status_code == 200:
                    return
            time.sleep(0.2)
    tail = log_path.read_text()[-3000:] if log_path.exists() else ""
    raise RuntimeError(f"{url} did not come up (exit {process.poll()}):\n{tail}")


@dataclass(frozen=True)
class Served:
    url: str
    pid: int  # granian's supervisor; its worker is a child

    def cpu_seconds(self) -> float:
        return cpu_seconds(process_tree(self.pid))


@contextmanager
def served(factory: str, env: dict[str, str], work_dir: Path) -> Iterator[Served]:
    """granian serving `bench.payments:<factory>()` with PUBLIC_URL on itself."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = work_dir / f"{factory}.log"
    args = [
        str(BIN_DIR / "granian"), "--interface", "asgi", "--factory", "--workers", "1",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
        f"bench.payments:{factory}",
    ]  # fmt: skip
    with log_path.open("w") as log:
        process = subprocess.Popen(
            args, cwd=ROOT, env={**env, "PUBLIC_URL": url}, stdout=log,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    try:
        wait_until_ready(url, process, log_path)
        yield Served(url, process.pid)
    finally:
        stop(process)


# ----- the database and the paid checkouts -----


def bench_database(work_dir: Path) -> str:
    """A fresh database, migrated: SQLite in work_dir, or `bench_payments` on DATABASE_URL's
    PostgreSQL server, wiped."""
    server = os.environ.get("DATABASE_URL", "")
    if server.startswith("postgres"):
        url = own_database(server, DATABASE)
        wipe_postgres_schema(url)
    else:
        url = f"sqlite:///{work_dir / 'app.db'}"
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = _sqlalchemy_url(url)
    command.upgrade(config, "head")
    return url


def add_members(count: int) -> list[Viewer]:
    """Members past the welcome window (no time bonus), with no credits."""
    engine = make_engine(get_config().database_url)
    viewers = []
    with Session(engine) as db:
        for index in range(count):
            member = make_member(
                db, f"payer{index}@bench.example", signup_date=utcnow() - timedelta(days=2)
            )
            viewers.append(Viewer(member.id, member.status, "en", member.paid_user))
    engine.dispose()
    return viewers


async def paid_checkouts(viewers: list[Viewer], site_url: str) -> list[str]:
    """Each member starts a checkout; the provider marks its payment paid, sending no webhook.
    The payments' ids."""
    gate = asyncio.Semaphore(SETUP_AT_ONCE)
    async with httpx.AsyncClient(base_url=site_url, headers=AUTH, timeout=30) as provider:

        async def pay(viewer: Viewer) -> str:
            async with gate:
                started = await start_checkout(viewer, TIER, METHOD, COUNTRY, None)
                if started.error:
                    raise RuntimeError(f"checkout of member {viewer.member_id}: {started.error}")
                payment_id = httpx.URL(started.checkout_url).path.rsplit("/", 1)[-1]
                outcome = await provider.post(
                    f"{TEST_PROVIDER_PATH}/v2/payments/{payment_id}/test-outcome",
                    json={"status": "paid", "webhook": "none"},
                )
                outcome.raise_for_status()
                return payment_id

        return await asyncio.gather(*(pay(viewer) for viewer in viewers))


# ----- firing the webhooks -----


@dataclass(frozen=True)
class Figures:
    latencies_ms: list[float]
    seconds: float
    statuses: Counter
    server_cpu: float = 0.0  # CPUs the server kept busy (1.0: one CPU)
    client_cpu: float = 0.0  # the same for this process, which sends every webhook

    def percentile(self, cut: int) -> float:
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[cut - 1]

    @property
    def per_second(self) -> float:
        return len(self.latencies_ms) / self.seconds


class Connection:
    """One keep-alive HTTP/1.1 connection that POSTs webhooks: far lighter than httpx, so the
    process sending them all keeps up with the servers it measures."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, url: str):
        self.reader, self.writer = reader, writer
        parts = urlsplit(url)
        self.head = (
            f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
        )

    @classmethod
    async def open(cls, url: str) -> "Connection":
        parts = urlsplit(url)
        return cls(*await asyncio.open_connection(parts.hostname, parts.port), url)

    async def post(self, payment_id: str) -> int:
        """POST `id=payment_id`; the answer's status."""
        body = f"id={payment_id}"
        self.writer.write(f"{self.head}Content-Length: {len(body)}\r\n\r\n{body}".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        length = CONTENT_LENGTH.search(head)
        if length is None:
            raise RuntimeError(f"an answer without Content-Length: {head!r}")
        await self.reader.readexactly(int(length[1]))
        return int(head.split(b" ", 2)[1])

    def close(self) -> None:
        self.writer.close()


async def post_all(connections: list[Connection], ids: list[str]) -> Figures:
    """POST `id=` for each of ids, one per connection at a time, the next as soon as it answers."""
    pending = iter(ids)
    latencies: list[float] = []
    statuses: Counter = Counter()

    async def worker(connection: Connection) -> None:
        for payment_id in pending:
            start = time.perf_counter()
            statuses[await connection.post(payment_id)] += 1
            latencies.append((time.perf_counter() - start) * 1000)

    started = time.perf_counter()
    await asyncio.gather(*(worker(connection) for connection in connections))
    return Figures(latencies, time.perf_counter() - started, statuses)


async def measure(server: Served, path: str, ids: list[str]) -> Figures:
    """Warm up (connections, code paths) with webhooks for an unknown payment, then measure."""
    opening = (Connection.open(server.url + path) for _ in range(CONCURRENT))
    connections = list(await asyncio.gather(*opening))
    try:
        await post_all(connections, [f"tr_warmup{n}" for n in range(WARM_UP)])
        server_before, client_before = server.cpu_seconds(), time.process_time()
        figures = await post_all(connections, ids)
        server_busy = server.cpu_seconds() - server_before
        client_busy = time.process_time() - client_before
    finally:
        for connection in connections:
            connection.close()
    return replace(
        figures, server_cpu=server_busy / figures.seconds, client_cpu=client_busy / figures.seconds
    )


# ----- checking and printing -----


@dataclass(frozen=True)
class Check:
    members: int
    exactly_once: int  # paid, one ledger line for the order, balance = the order's credits
    receipts: int


async def check_credits(viewers: list[Viewer]) -> Check:
    """What each member got, once the receipts (mailed after the commit) stopped coming."""
    seen, deadline = -1, time.monotonic() + RECEIPTS_TIMEOUT
    while (count := len(receipts())) != seen or count < len(viewers):
        if time.monotonic() > deadline:
            break
        seen = count
        await asyncio.sleep(0.5)
    engine = make_engine(get_config().database_url)
    with Session(engine) as db:
        good = sum(_credited_once(db, viewer.member_id) for viewer in viewers)
    engine.dispose()
    return Check(len(viewers), good, len(receipts()))


def _credited_once(db: Session, member_id: int) -> bool:
    member = db.get(Member, member_id)
    orders = db.exec(select(Order).where(Order.member_id == member_id)).all()
    if member is None or len(orders) != 1 or orders[0].status != "paid":
        return False
    lines = db.exec(select(CreditEntry).where(CreditEntry.member_id == member_id)).all()
    booked = db.exec(
        select(func.count()).where(CreditEntry.reference == f"order:{orders[0].id}")
    ).one()
    return booked == 1 and member.credits == orders[0].credits == sum(e.amount for e in lines)


def receipts() -> list:
    return [m for m in outbox_messages() if "A-" in m["Subject"]]


def print_figures(check: Check, ours: Figures, bare: Figures, database: str) -> None:
    orders = check.members
    print(f"\nPayment webhook: {orders} paid orders, {WEBHOOKS_PER_ORDER} webhooks each")
    print(f"  ({len(ours.latencies_ms)} in all), {CONCURRENT} at a time; {SERVED_BY}")
    print(f"  database: {database}; server and client share this machine's {os.cpu_count()} CPUs")
    extra = check.receipts - orders
    print(f"\nCredited exactly once: {check.exactly_once}/{orders} members", end=" ")
    print("(all)" if check.exactly_once == orders else "(NOT all)")
    print(f"Receipt mails: {check.receipts} for {orders} orders", end=" ")
    print("(one each)" if not extra else f"({extra:+d}: NOT one each)")
    print(f"\n{'':<22}{'ours':>12}{'bare fetch':>12}{'ratio':>9}")
    for label, value, unit in (
        ("p50", lambda f: f.percentile(50), "ms"),
        ("p99", lambda f: f.percentile(99), "ms"),
        ("webhooks/s", lambda f: f.per_second, "/s"),
    ):
        a, b = value(ours), value(bare)
        print(f"{label:<22}{a:>10.1f}{unit}{b:>10.1f}{unit}{a / b:>8.2f}x")
    for label, busy in (("server CPU", "server_cpu"), ("client CPU", "client_cpu")):
        a, b = getattr(ours, busy), getattr(bare, busy)
        print(f"{label:<22}{a:>8.2f}CPU{b:>8.2f}CPU")
    for name, figures in (("ours", ours), ("bare fetch", bare)):
        answers = ", ".join(f"{code}: {n}" for code, n in sorted(figures.statuses.items()))
        print(f"HTTP answers, {name}: {answers}")


# ----- the run -----


def bench_env(work_dir: Path, database_url: str) -> dict[str, str]:
    """What the servers and this process read: the bench's database and data directory, the
    built-in test provider, no Redis, mail to the outbox."""
    env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV_DROPPED}
    path = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
    return {
        **env,
        "DATABASE_URL": database_url,
        "DATA_DIR": str(work_dir),
        "PYTHONPATH": path,
        "DEMO_DATA": "0",
    }


def run(members: int, work_dir: Path) -> None:
    database_url = bench_database(work_dir)
    env = bench_env(work_dir, database_url)
    with served("site_app", env, work_dir) as site, served("bare_app", env, work_dir) as bare:
        for name in SERVER_ENV_DROPPED:
            os.environ.pop(name, None)
        os.environ.update({**env, "PUBLIC_URL": site.url})  # this process checks out at the site
        get_config.cache_clear()
        viewers = add_members(members)
        started = time.monotonic()
        ids = asyncio.run(paid_checkouts(viewers, site.url))
        print(f"Set-up: {members} members, checkouts paid in {time.monotonic() - started:.1f} s")
        webhooks = ids * WEBHOOKS_PER_ORDER
        random.Random(12).shuffle(webhooks)
        ours = asyncio.run(measure(site, WEBHOOK_PATH, webhooks))
        check = asyncio.run(check_credits(viewers))
        baseline = asyncio.run(measure(bare, BARE_PATH, webhooks))
    kind = "PostgreSQL" if database_url.startswith("postgres") else "SQLite (temporary file)"
    print_figures(check, ours, baseline, kind)


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--members", type=int, default=MEMBERS, help="paid orders, one each")
    args = parse(parser, {"members": SMOKE_MEMBERS})
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-payments-") as temp:
        run(args.members, Path(temp))
    print(f"({time.monotonic() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
