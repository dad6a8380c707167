"""`python bench/push.py [--subscriptions 1000] [--members 20] [--rate 10] [--seconds 20]
[--smoke] [--site-build PORT:WEB_DIR]`

Web Push: the sender alone, and a member's message round trip while pushes go out.

The push service is tests/push_service.py over HTTP in a process of its own: it checks every
push's VAPID token and decrypts its body with the subscription's keys, so a counted push is one
a browser could read.

1. The sender: one push to each of --subscriptions subscriptions, all at once, through the
   site's own sender as a message's pushes go out: one actions/push_notify.deliver_all per
   recipient of 10 subscriptions (encrypted for each, signed, one HTTP exchange each). Beside it,
   the same pushes encrypted and signed beforehand and only posted on the same clients (one per
   recipient): what the transport and the push service manage alone.

2. The member who writes while pushes go out: the site built and served in production mode
   with Redis and 2 workers on PostgreSQL (bench/chat.py's set-up, its own databases), --members
   members in pairs, each with 10 subscriptions at the push service (10 is what a member's
   pushes go to). The members send --rate messages a second for --seconds; a message's round
   trip runs from its send until the sender's own tab shows it stored. Measured twice in the
   same run: pushes switched off for everyone, then on (every message sends 10 pushes in the
   background). Prints p50/p95 both ways and the pushes a second the service received.

Prints the figures; never fails on them (the issue names no budget for pushes). `--smoke`: 20
subscriptions, 2 members, 2 messages a second for 1 s; `--site-build` serves that build instead
of building (bench/options.py).

"""

import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from sqlmodel import Session, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, tests.*, models.*
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from server import SiteBuild, log_tail, running_site

from bench.chat import (
    DEFAULT_REDIS,
    DEFAULT_SERVER,
    WORKERS,
    Pair,
    add_pairs,
    sending_arguments,
    sending_parser,
)
from bench.reflex_socket import SocketMember
from models.db import make_engine
from models.member import Member
from models.notification_prefs import save_preferences
from models.push_subscription import save_subscription
from services.config import _sqlalchemy_url
from tests.services import own_database, redis_database

DATABASE = "bench_push"
REDIS_DB = 2
SUBSCRIPTIONS, MEMBERS, RATE, SECONDS = 1000, 20, 10.0, 20.0
SMOKE_SUBSCRIPTIONS = 20  # --smoke, with bench/chat.py's members, rate and seconds
PER_MEMBER = 10  # models/push_subscription.MAX_PUSHED_SUBSCRIPTIONS
DEMO_MEMBERS = 4
GRACE_SECONDS = 15.0
Target = tuple[str, str, str]  # endpoint, p256dh, auth


# ----- the push service, in its own process -----


def _serve(conn: Connection, count: int) -> None:
    from tests.push_service import serving

    with serving() as service:
        browsers = [service.subscribe(f"s{number}") for number in range(count)]
        conn.send((service.origin, [(b.endpoint, b.p256dh, b.auth) for b in browsers]))
        while conn.recv() != "stop":
            conn.send(len(service.received))


@dataclass
class PushService:
    origin: str
    targets: list[Target]
    conn: Connection

    def received(self) -> int:
        self.conn.send("count")
        return self.conn.recv()


@contextmanager
def push_service(subscriptions: int) -> Iterator[PushService]:
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    process = multiprocessing.get_context("spawn").Process(
        target=_serve, args=(theirs, subscriptions)
    )
    process.start()
    origin, targets = ours.recv()
    try:
        yield PushService(origin, targets, ours)
    finally:
        ours.send("stop")
        process.join(10)


# ----- 1. the sender -----


async def sender_burst(service: PushService) -> tuple[float, float]:
    """Pushes a second through deliver_all() per recipient, and the same pushes made
    beforehand and only posted, on the same clients (one per recipient)."""
    from actions.push_notify import MESSAGE, deliver_all, push_message, ready_pushes
    from services.web_push import PushTarget, ReadyPush, post_push, push_client

    targets = [PushTarget(*target) for target in service.targets]
    recipients = [targets[at : at + PER_MEMBER] for at in range(0, len(targets), PER_MEMBER)]
    message = push_message(MESSAGE, "en", "/chats/1")
    before, start = service.received(), time.perf_counter()
    await asyncio.gather(*(deliver_all(recipient, message) for recipient in recipients))
    ours = (service.received() - before) / (time.perf_counter() - start)

    async def post(pushes: list[ReadyPush | None]) -> None:
        async with push_client() as client:
            await asyncio.gather(*(post_push(client, push) for push in pushes if push))

    ready = [ready_pushes(recipient, message) for recipient in recipients]
    before, start = service.received(), time.perf_counter()
    await asyncio.gather(*(post(pushes) for pushes in ready))
    bare = (service.received() - before) / (time.perf_counter() - start)
    return ours, bare


# ----- 2. the member who writes -----


@dataclass(frozen=True)
class RoundTrips:
    sent: int
    confirmed_ms: list[float]
    pushes_per_second: float

    def percentile(self, cut: int) -> float:
        if len(self.confirmed_ms) < 2:
            return self.confirmed_ms[0] if self.confirmed_ms else float("nan")
        return statistics.quantiles(self.confirmed_ms, n=100, method="inclusive")[cut - 1]


def subscribe_members(database_url: str, service: PushService) -> None:
    engine = make_engine(database_url)
    with Session(engine) as db:
        ids = list(db.exec(select(Member.id).where(Member.email.like("chat%@bench.example"))))
        for index, member_id in enumerate(ids):
            for target in service.targets[index * PER_MEMBER : (index + 1) * PER_MEMBER]:
                save_subscription(db, member_id, *target)
        db.commit()
    engine.dispose()


def switch_pushes(database_url: str, on: bool) -> None:
    engine = make_engine(database_url)
    with Session(engine) as db:
        for member_id in db.exec(select(Member.id).where(Member.email.like("chat%@bench.example"))):
            save_preferences(db, member_id, {"push_messages": on})
        db.commit()
    engine.dispose()


async def round_trips(
    tabs: list[SocketMember], service: PushService, rate: float, seconds: float, tag: str
) -> RoundTrips:
    """Send on schedule, the tabs in turn; each message's time until its sender shows it."""
    sent_at: dict[str, tuple[SocketMember, float]] = {}
    count, pushes_before = int(rate * seconds), service.received()
    start = time.perf_counter()
    for number in range(count):
        await asyncio.sleep(max(0.0, start + number / rate - time.perf_counter()))
        tab, marker = tabs[number % len(tabs)], f"bench-{tag}-{number:05d}"
        sent_at[marker] = (tab, time.perf_counter())
        await tab.send_text(marker, marker)
    deadline = time.perf_counter() + GRACE_SECONDS
    while time.perf_counter() < deadline and any(
        marker not in tab.confirmed for marker, (tab, _) in sent_at.items()
    ):
        await asyncio.sleep(0.1)
    pushes = (service.received() - pushes_before) / (time.perf_counter() - start)
    confirmed = [
        (tab.confirmed[marker] - at) * 1000
        for marker, (tab, at) in sent_at.items()
        if marker in tab.confirmed
    ]
    return RoundTrips(count, confirmed, pushes)


async def both_ways(
    url: str,
    database_url: str,
    pairs: list[Pair],
    service: PushService,
    rate: float,
    seconds: float,
) -> tuple[RoundTrips, RoundTrips]:
    """The same tabs send with pushes off, then with pushes on."""
    tabs = [
        SocketMember(url, pair.sessions[side], pair.conversation_id)
        for pair in pairs
        for side in (0, 1)
    ]
    for start in range(0, len(tabs), 10):
        await asyncio.gather(*(tab.open() for tab in tabs[start : start + 10]))
    await asyncio.to_thread(switch_pushes, database_url, False)
    off = await round_trips(tabs, service, rate, seconds, "off")
    await asyncio.to_thread(switch_pushes, database_url, True)
    on = await round_trips(tabs, service, rate, seconds, "on")
    await asyncio.gather(*(tab.close() for tab in tabs))
    return off, on


def measure_site(
    service: PushService,
    members: int,
    rate: float,
    seconds: float,
    work_dir: Path,
    build: SiteBuild | None,
) -> tuple[RoundTrips, RoundTrips]:
    """Both ways on this site on its own databases, built here or serving `build`."""
    database_url = own_database(os.environ.get("DATABASE_URL") or DEFAULT_SERVER, DATABASE)
    redis_url = redis_database(os.environ.get("REDIS_URL") or DEFAULT_REDIS, REDIS_DB)
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=redis_url)  # what the server gets
    push_host = service.origin.removeprefix("http://")
    with running_site(
        work_dir,
        external=True,
        demo_members=DEMO_MEMBERS,
        workers=WORKERS,
        build=build,
        PUSH_SERVICE_HOSTS=push_host,
    ) as site:
        url = _sqlalchemy_url(database_url)
        pairs = add_pairs(url, members // 2)
        subscribe_members(url, service)
        off, on = asyncio.run(both_ways(site.url, url, pairs, service, rate, seconds))
        if len(off.confirmed_ms) < off.sent or len(on.confirmed_ms) < on.sent:
            print(f"(the site's log, last lines:)\n{log_tail(site.log_path, 40)}")
    return off, on


# ----- the report -----


def print_round_trips(name: str, figures: RoundTrips) -> None:
    print(
        f"  {name:<10} p50 {figures.percentile(50):7.1f} ms   p95 {figures.percentile(95):7.1f} ms"
        f"   {len(figures.confirmed_ms)}/{figures.sent} confirmed"
        f"   pushes received {figures.pushes_per_second:6.1f}/s"
    )


def main() -> None:
    parser = sending_parser(__doc__, MEMBERS, RATE, SECONDS)
    parser.add_argument("--subscriptions", type=int, default=SUBSCRIPTIONS)
    args = sending_arguments(parser, subscriptions=SMOKE_SUBSCRIPTIONS)
    wanted = max(args.subscriptions, args.members * PER_MEMBER)
    with tempfile.TemporaryDirectory(prefix="bench-push-") as temp, push_service(wanted) as service:
        os.environ.update(
            DATA_DIR=str(Path(temp) / "site"), PUSH_SERVICE_HOSTS=service.origin[len("http://") :]
        )
        burst = PushService(service.origin, service.targets[: args.subscriptions], service.conn)
        ours, bare = asyncio.run(sender_burst(burst))
        print(f"Web Push to a local push service, {args.subscriptions} subscriptions at once:")
        print(f"  the site's sender {ours:7.1f} pushes/s (encrypt, sign, post each)")
        print(f"  posting only      {bare:7.1f} pushes/s (encrypted and signed beforehand)")
        off, on = measure_site(
            service, args.members, args.rate, args.seconds, Path(temp) / "site", args.site_build
        )
    print(
        f"The sender's message round trip, {args.members} members sending {args.rate:g} "
        f"messages/s for {args.seconds:g} s, each with {PER_MEMBER} subscriptions:"
    )
    print_round_trips("push off", off)
    print_round_trips("push on", on)
    load = os.getloadavg()[0]
    print(
        f"This machine has {os.cpu_count()} CPUs (load {load:.1f}); the site, PostgreSQL, "
        "Redis, the push service and this script share them."
    )


if __name__ == "__main__":
    main()
