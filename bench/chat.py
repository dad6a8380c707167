"""`python bench/chat.py [--members 200] [--rate 20] [--seconds 30] [--smoke] [--site-build
PORT:WEB_DIR]`: live chat delivery.

Builds and serves this site in production mode with Redis and 2 backend workers
(`GRANIAN_WORKERS=2`) on PostgreSQL: the server of `DATABASE_URL` (default
postgresql://postgres@127.0.0.1:5432), in its own database `bench_chat`, created when missing
and wiped, migrated and seeded on every run; Redis is `REDIS_URL`'s server (default
redis://127.0.0.1:6379) in its own database number, so its tab registry (keyed by member id)
never mixes with another site's. The members come in pairs, premium and with plenty of
credits, each pair with one conversation.

Every member is a simulated tab (`bench/reflex_socket.py`): a python-socketio websocket that
hydrates `/chats/{id}` as the browser does and posts each text to `/api/chat.php` as the chat
page does (`ChatsState.send_text` through the tab's state should that refuse it, and for every
text with `--through-state`, as the page sent before texts went over HTTP). The members
together send `--rate` messages a second, each in turn, for `--seconds`. A message's latency
runs from its send until the delta with it reaches the partner's tab. Server memory per idle
connected member is the server's RSS (its whole process tree, from /proc) with every member
connected and idle, minus its RSS before any connected, divided by the members.

Beside it, in the same run: a bare python-socketio relay (an ASGI app on granian, 2 workers,
rooms shared through Redis as python-socketio's AsyncRedisManager does) with the same
clients, pairs and schedule, relaying each message to the partner. Prints both side by side
and the budget verdict: p99 at most 250 ms, p50 at most 3x the relay's, at most 6 ms of server
CPU per delivered message, at most 0.5 MB of server memory per idle connected member. It never
fails on the budget. Beside the figures it prints the CPUs the server, the clients and
PostgreSQL kept busy while the members sent (on a small machine they all share the same CPUs),
and the server's CPU in the 10 s before, every member connected and idle (their refresh ticks,
the tab keeper): a message's CPU is what sending adds to that. `--smoke`: 2 members, 2
messages a second for 1 s, no verdict; `--site-build` serves that build instead of building
(bench/options.py).
"""

import argparse
import asyncio
import gc
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import httpx
import redis
import socketio
from sqlmodel import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, tests.*, models.*
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from server import BIN_DIR, SiteBuild, free_port, running_site, stop

from bench.options import add_site_build, bench_parser, parse
from bench.reflex_socket import (
    SocketMember,
    cpu_seconds,
    process_tree,
    processes_named,
    reflex_server,
    rss_bytes,
)
from models.auth_session import start_session
from models.chat import Outgoing, send_message
from models.credits import grant_credits
from models.db import make_engine
from models.site_settings import load_settings
from services.config import _sqlalchemy_url
from services.heap import freeze_heap
from services.place_names import WARMED_UP
from tests.factories import make_member
from tests.services import own_database, redis_database

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
DATABASE = "bench_chat"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
REDIS_DB = 1
WORKERS = 2
MEMBERS, RATE, SECONDS = 200, 20.0, 30.0
SMOKE = {"members": 2, "rate": 2.0, "seconds": 1.0}  # --smoke
CREDITS = 1_000_000
DEMO_MEMBERS = 4
CONNECT_AT_ONCE = 20  # members hydrating at the same time while all connect
SETTLE_SECONDS = 3.0  # after connecting, before memory is read
# Sent at once by each member of the warm-up pair before the measured sends: a fresh server's
# first sends open its database connections and threads, 200-350 ms late, not steady state.
WARM_UP_SENDS = 8
GRACE_SECONDS = 10.0  # after the last send, for the last deliveries
READY_TIMEOUT = 30.0
WARM_UP_TIMEOUT = 120.0  # a busy machine (CI's smoke runs) stretches the workers' seconds
BUDGET_P99_MS = 250.0
BUDGET_P50_RATIO = 3.0
BUDGET_MB_PER_MEMBER = 0.5
BUDGET_CPU_MS = 6.0  # server CPU per delivered message, beyond what the idle members cost
IDLE_SECONDS = 10.0  # every member connected and idle: what the server's CPU does anyway
MB = 1024 * 1024

# The relay: every client joins its pair's room; what one says goes to the others there.
RELAY_APP = """import os

import socketio

sio = socketio.AsyncServer(
    async_mode="asgi",
    client_manager=socketio.AsyncRedisManager(os.environ["RELAY_REDIS_URL"]),
)
app = socketio.ASGIApp(sio, socketio_path="relay")


@sio.event
async def connect(sid, environ, auth):
    await sio.enter_room(sid, str(auth["pair"]))


@sio.on("say")
async def say(sid, data):
    await sio.emit("said", data, room=str(data["pair"]), skip_sid=sid)
"""
RELAY_PATH = "/relay"


# ----- members -----


@dataclass(frozen=True)
class Pair:
    index: int
    conversation_id: int
    sessions: tuple[str, str]  # each member's session cookie value
    members: tuple[int, int]


def add_pairs(database_url: str, count: int) -> list[Pair]:
    """`count` pairs of premium members with credits, each pair with one conversation."""
    engine = make_engine(database_url)
    pairs = []
    with Session(engine, expire_on_commit=False) as db:
        settings = load_settings(db)
        for index in range(count):
            a, b = (
                make_member(db, f"chat{index}{side}@bench.example", paid_user=True) for side in "ab"
            )
            for member in (a, b):
                grant_credits(db, member, CREDITS, "bench")
            db.commit()
            hello = Outgoing(a.id, b.id, f"hello-{index:04d}", text="Hello")
            conversation_id = send_message(db, hello, settings).message.conversation_id
            sessions = start_session(db, a.id), start_session(db, b.id)
            pairs.append(Pair(index, conversation_id, sessions, (a.id, b.id)))
            db.commit()
    engine.dispose()
    return pairs


# ----- the two kinds of clients -----


class Arrivals:
    """When each message was sent and when it reached the partner: the latencies."""

    def __init__(self) -> None:
        self.sent_at: dict[str, float] = {}
        self.latencies_ms: list[float] = []
        self.last_at = 0.0

    def sending(self, marker: str) -> None:
        self.sent_at[marker] = time.perf_counter()

    def arrived(self, marker: str, at: float) -> None:
        sent = self.sent_at.get(marker)
        if sent is not None:
            self.latencies_ms.append((at - sent) * 1000)
            self.last_at = max(self.last_at, at)


class Member(Protocol):
    async def open(self) -> None: ...

    async def say(self, marker: str) -> None: ...

    async def close(self) -> None: ...


class SiteMember:
    """A tab of this site on its pair's chat; a message's marker is its text and client id."""

    def __init__(
        self, base_url: str, pair: Pair, side: int, arrivals: Arrivals, over_http: bool = True
    ) -> None:
        self.over_http = over_http
        self.tab = SocketMember(
            base_url, pair.sessions[side], pair.conversation_id, on_arrival=arrivals.arrived
        )
        self.partner_id = pair.members[1 - side]

    async def open(self) -> None:
        await self.tab.open()

    async def say(self, marker: str) -> None:
        """As the chat page sends: over HTTP, else through the tab's state."""
        if not (self.over_http and await self.tab.send_over_http(marker, marker, self.partner_id)):
            await self.tab.send_text(marker, marker)

    async def close(self) -> None:
        await self.tab.close()


class RelayMember:
    """A client of the relay, in its pair's room."""

    def __init__(self, base_url: str, pair: Pair, arrivals: Arrivals) -> None:
        self.base_url, self.pair, self.arrivals = base_url, pair.index, arrivals
        self.client = socketio.AsyncClient(reconnection=False)
        self.client.on("said", self._said)

    async def _said(self, data: dict) -> None:
        self.arrivals.arrived(str(data["text"]), time.perf_counter())

    async def open(self) -> None:
        await self.client.connect(
            self.base_url,
            auth={"pair": self.pair},
            transports=["websocket"],
            socketio_path=RELAY_PATH,
            wait_timeout=READY_TIMEOUT,
        )

    async def say(self, marker: str) -> None:
        await self.client.emit("say", {"pair": self.pair, "text": marker})

    async def close(self) -> None:
        with suppress(Exception):
            await self.client.disconnect()


# ----- one measurement -----


@dataclass(frozen=True)
class Figures:
    sent: int
    latencies_ms: list[float]
    seconds: float  # from the first send until the last delivery
    server_bytes_per_member: float
    redis_bytes_per_member: float
    server_cpu: float  # CPUs the server kept busy while the members sent (1.0: one CPU)
    idle_server_cpu: float  # the same with every member connected and idle (refresh ticks)
    client_cpu: float  # the same for this process, which runs every member
    postgres_cpu: float  # the same for the PostgreSQL server on this machine, if it is here

    @property
    def delivered(self) -> int:
        return len(self.latencies_ms)

    def cpu_ms_per_message(self) -> float:
        """Server CPU a delivered message costs beyond the idle members' (ms)."""
        rate = self.delivered / self.seconds
        return 1000 * (self.server_cpu - self.idle_server_cpu) / rate if rate else float("nan")

    def percentile(self, cut: int) -> float:
        """The cut-th percentile of the latencies (50: the median), in ms."""
        if len(self.latencies_ms) < 2:
            return self.latencies_ms[0] if self.latencies_ms else float("nan")
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[cut - 1]


async def open_all(members: Sequence[Member]) -> None:
    """Connect every member, CONNECT_AT_ONCE at a time."""
    for start in range(0, len(members), CONNECT_AT_ONCE):
        await asyncio.gather(*(m.open() for m in members[start : start + CONNECT_AT_ONCE]))


async def send_schedule(
    members: Sequence[Member], arrivals: Arrivals, rate: float, seconds: float
) -> int:
    """`rate` messages a second for `seconds`, the senders in turn: all first members of the
    pairs, then all second ones. Returns how many were sent."""
    order = [*members[0::2], *members[1::2]]
    count, start = int(rate * seconds), time.perf_counter()
    tag = secrets.token_hex(3)
    saying = []  # a send over HTTP waits for its answer: the schedule goes on meanwhile
    for number in range(count):
        await asyncio.sleep(max(0.0, start + number / rate - time.perf_counter()))
        marker = f"m{number:06d}-{tag}"
        arrivals.sending(marker)
        saying.append(asyncio.create_task(order[number % len(order)].say(marker)))
    await asyncio.gather(*saying)
    return count


@contextmanager
def heap_frozen() -> Iterator[None]:
    """This process's heap so far (every member, connected) kept out of the collector's full
    passes while the members send: one pass over it took 120-280 ms, which every delivery due
    meanwhile waited out, on the bench's side."""
    freeze_heap()
    try:
        yield
    finally:
        gc.unfreeze()


async def wait_for_deliveries(arrivals: Arrivals, sent: int) -> None:
    deadline = time.perf_counter() + GRACE_SECONDS
    while len(arrivals.latencies_ms) < sent and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)


@dataclass(frozen=True)
class CpuClock:
    """CPU seconds used so far by the server, this process (every member) and PostgreSQL
    (when it runs on this machine; its backends that ended meanwhile are not counted)."""

    server: float
    client: float
    postgres: float

    @classmethod
    def read(cls, server_pids: list[int]) -> "CpuClock":
        postgres = cpu_seconds(processes_named("postgres"))
        return cls(cpu_seconds(server_pids), time.process_time(), postgres)


def redis_memory(url: str) -> int:
    return int(redis.Redis.from_url(url).info("memory")["used_memory"])


async def measure(
    make: Callable[[Pair, int, Arrivals], Member],
    pairs: list[Pair],
    server_pids: Callable[[], list[int]],
    redis_url: str,
    rate: float,
    seconds: float,
) -> Figures:
    """Warm the server up with one pair (connected, then sending at once), read its memory,
    connect everybody, read it again, then send on schedule and collect the deliveries."""
    arrivals = Arrivals()
    warm = [make(pairs[0], side, Arrivals()) for side in (0, 1)]
    await open_all(warm)
    tag = secrets.token_hex(3)
    await asyncio.gather(
        *(
            m.say(f"warm{n}{side}-{tag}")
            for side, m in enumerate(warm)
            for n in range(WARM_UP_SENDS)
        )
    )
    await asyncio.gather(*(m.close() for m in warm))
    await asyncio.sleep(SETTLE_SECONDS)
    idle_rss, idle_redis = rss_bytes(server_pids()), redis_memory(redis_url)

    members = [make(pair, side, arrivals) for pair in pairs for side in (0, 1)]
    await open_all(members)
    await asyncio.sleep(SETTLE_SECONDS)
    full_rss, full_redis = rss_bytes(server_pids()), redis_memory(redis_url)
    idle_seconds = min(IDLE_SECONDS, seconds)
    idle_before = CpuClock.read(server_pids())
    await asyncio.sleep(idle_seconds)
    idle_cpu = (CpuClock.read(server_pids()).server - idle_before.server) / idle_seconds

    with heap_frozen():
        first_send, cpu_before = time.perf_counter(), CpuClock.read(server_pids())
        sent = await send_schedule(members, arrivals, rate, seconds)
        await wait_for_deliveries(arrivals, sent)
        busy = time.perf_counter() - first_send
        cpu_after = CpuClock.read(server_pids())
    await asyncio.gather(*(m.close() for m in members))
    return Figures(
        sent=sent,
        latencies_ms=arrivals.latencies_ms,
        seconds=max(arrivals.last_at - first_send, 1e-9),
        server_bytes_per_member=(full_rss - idle_rss) / len(members),
        redis_bytes_per_member=(full_redis - idle_redis) / len(members),
        server_cpu=(cpu_after.server - cpu_before.server) / busy,
        idle_server_cpu=idle_cpu,
        client_cpu=(cpu_after.client - cpu_before.client) / busy,
        postgres_cpu=(cpu_after.postgres - cpu_before.postgres) / busy,
    )


# ----- the servers -----


def bench_redis_url() -> str:
    return redis_database(os.environ.get("REDIS_URL") or DEFAULT_REDIS, REDIS_DB)


def measure_site(
    pairs_count: int,
    rate: float,
    seconds: float,
    work_dir: Path,
    build: SiteBuild | None,
    over_http: bool = True,
) -> Figures:
    """This site on its own databases (running_site wipes, migrates and seeds bench_chat),
    built here or serving `build`; `over_http` False sends every text through the tabs'
    states."""
    database_url = own_database(os.environ.get("DATABASE_URL") or DEFAULT_SERVER, DATABASE)
    redis_url = bench_redis_url()
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=redis_url)  # what the server gets
    with running_site(
        work_dir, external=True, demo_members=DEMO_MEMBERS, workers=WORKERS, build=build
    ) as site:
        wait_for_warm_up(site.log_path)
        pairs = add_pairs(_sqlalchemy_url(database_url), pairs_count)

        def make(pair: Pair, side: int, arrivals: Arrivals) -> Member:
            return SiteMember(site.url, pair, side, arrivals, over_http)

        def pids() -> list[int]:  # granian's supervisor and its workers
            supervisor = reflex_server(site.port)
            return process_tree(supervisor) if supervisor else []

        figures = asyncio.run(measure(make, pairs, pids, redis_url, rate, seconds))
        if figures.delivered < figures.sent:
            print(f"(the site's log: {site.log_path})")
    return figures


def wait_for_warm_up(*log_paths: Path) -> None:
    """Until every worker of each server (its log) built its place names, seconds of CPU after
    its start: built during the idle window, they would count as idle CPU and make a message
    look cheaper; before the memory is read, as more memory per member."""
    deadline = time.monotonic() + WARM_UP_TIMEOUT
    while any(path.read_text(errors="replace").count(WARMED_UP) < WORKERS for path in log_paths):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the workers did not warm up in {WARM_UP_TIMEOUT:g} s")
        time.sleep(0.2)


def wait_for_port(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    with httpx.Client(timeout=2) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the relay exited {process.returncode}")
            with suppress(httpx.HTTPError):
                client.get(f"http://127.0.0.1:{port}{RELAY_PATH}/?EIO=4&transport=polling")
                return
            time.sleep(0.3)
    raise RuntimeError(f"the relay did not answer within {READY_TIMEOUT:.0f} s")


@contextmanager
def running_relay(work_dir: Path, redis_url: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """The relay app served by granian with WORKERS workers: (url, process)."""
    work_dir.mkdir(parents=True, exist_ok=True)
    (work_dir / "relay_app.py").write_text(RELAY_APP)
    port = free_port()
    args = [
        str(BIN_DIR / "granian"), "--interface", "asgi", "--workers", str(WORKERS),
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "relay_app:app",
    ]  # fmt: skip
    env = {**os.environ, "RELAY_REDIS_URL": redis_url}
    with (work_dir / "relay.log").open("w") as log:
        process = subprocess.Popen(
            args, cwd=work_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}", process
    finally:
        stop(process)


def measure_relay(pairs_count: int, rate: float, seconds: float, work_dir: Path) -> Figures:
    redis_url = bench_redis_url()
    pairs = [Pair(index, 0, ("", ""), (0, 0)) for index in range(pairs_count)]
    with running_relay(work_dir, redis_url) as (url, process):

        def make(pair: Pair, _side: int, arrivals: Arrivals) -> Member:
            return RelayMember(url, pair, arrivals)

        def pids() -> list[int]:
            return process_tree(process.pid)

        return asyncio.run(measure(make, pairs, pids, redis_url, rate, seconds))


# ----- the report -----


def verdict(ok: bool) -> str:
    return "within" if ok else "OVER"


def print_figures(site: Figures, relay: Figures, members: int, rate: float, seconds: float) -> None:
    """The two side by side."""
    print(
        f"\nChat delivery: {members} members ({members // 2} pairs), {rate:g} messages/s for "
        f"{seconds:g} s, {WORKERS} workers, Redis; {os.cpu_count()} CPUs shared with the clients"
    )
    rows = (
        ("messages sent", lambda f: f"{f.sent}"),
        ("delivered", lambda f: f"{f.delivered}"),
        ("delivered per second", lambda f: f"{f.delivered / f.seconds:.1f}"),
        ("latency p50", lambda f: f"{f.percentile(50):.0f} ms"),
        ("latency p99", lambda f: f"{f.percentile(99):.0f} ms"),
        ("latency max", lambda f: f"{max(f.latencies_ms, default=float('nan')):.0f} ms"),
        ("server memory / idle member", lambda f: f"{f.server_bytes_per_member / MB:.3f} MB"),
        ("Redis memory / idle member", lambda f: f"{f.redis_bytes_per_member / MB:.3f} MB"),
        ("server CPU while idle", lambda f: f"{f.idle_server_cpu:.3f} CPU"),
        ("server CPU while sending", lambda f: f"{f.server_cpu:.3f} CPU"),
        ("server CPU / message", lambda f: f"{f.cpu_ms_per_message():.1f} ms"),
        ("clients' CPU while sending", lambda f: f"{f.client_cpu:.2f} CPU"),
        ("PostgreSQL CPU while sending", lambda f: f"{f.postgres_cpu:.2f} CPU"),
    )
    print(f"{'':<30}{'Amorly':>14}{'bare relay':>14}")
    for label, cell in rows:
        print(f"{label:<30}{cell(site):>14}{cell(relay):>14}")


def print_budget(site: Figures, relay: Figures) -> None:
    p99, p50, relay_p50 = site.percentile(99), site.percentile(50), relay.percentile(50)
    memory = site.server_bytes_per_member / MB
    print("\nBudget")
    print(f"  p99 <= {BUDGET_P99_MS:.0f} ms: {p99:.0f} ms, {verdict(p99 <= BUDGET_P99_MS)}")
    print(
        f"  p50 <= {BUDGET_P50_RATIO:g}x relay p50: {p50 / relay_p50:.1f}x, "
        f"{verdict(p50 <= BUDGET_P50_RATIO * relay_p50)}"
    )
    cpu, relay_cpu = site.cpu_ms_per_message(), relay.cpu_ms_per_message()
    ratio = cpu / relay_cpu if relay_cpu > 0 else float("nan")
    print(
        f"  server CPU <= {BUDGET_CPU_MS:g} ms per message beyond idle: {cpu:.1f} ms "
        f"({ratio:.1f}x the relay's {relay_cpu:.1f} ms, a yardstick across machines), "
        f"{verdict(cpu <= BUDGET_CPU_MS)}"
    )
    print(
        f"  server memory <= {BUDGET_MB_PER_MEMBER} MB per idle connected member: "
        f"{memory:.3f} MB, {verdict(memory <= BUDGET_MB_PER_MEMBER)}"
    )
    if site.delivered < site.sent or relay.delivered < relay.sent:
        print(
            f"  not delivered within {GRACE_SECONDS:.0f} s: Amorly {site.sent - site.delivered}, "
            f"relay {relay.sent - relay.delivered}"
        )


def sending_parser(
    doc: str, members: int = MEMBERS, rate: float = RATE, seconds: float = SECONDS
) -> argparse.ArgumentParser:
    """The command line of a benchmark whose members send messages in pairs on this site."""
    parser = bench_parser(doc)
    add_site_build(parser)
    parser.add_argument("--members", type=int, default=members, help="an even number")
    parser.add_argument("--rate", type=float, default=rate, help="messages per second, all")
    parser.add_argument("--seconds", type=float, default=seconds, help="how long they send")
    return parser


def sending_arguments(parser: argparse.ArgumentParser, **smoke: object) -> argparse.Namespace:
    """The arguments; --smoke sends SMOKE's load, and `smoke` more defaults of its own."""
    args = parse(parser, SMOKE | smoke)
    if args.members < 2 or args.members % 2:
        parser.error("--members must be an even number of at least 2")
    return args


def main() -> None:
    parser = sending_parser(__doc__)
    parser.add_argument(
        "--through-state",
        action="store_true",
        help="send every text through the tab's state (ChatsState.send_text), not over HTTP",
    )
    args = sending_arguments(parser)
    started = time.monotonic()
    pairs = args.members // 2
    with tempfile.TemporaryDirectory(prefix="bench-chat-") as temp:
        site = measure_site(
            pairs,
            args.rate,
            args.seconds,
            Path(temp) / "site",
            args.site_build,
            not args.through_state,
        )
        relay = measure_relay(pairs, args.rate, args.seconds, Path(temp) / "relay")
    print_figures(site, relay, args.members, args.rate, args.seconds)
    if not args.smoke:
        print_budget(site, relay)
    built = "serving a build made before" if args.site_build else "including the production build"
    print(f"({time.monotonic() - started:.0f} s, {built})")


if __name__ == "__main__":
    main()
