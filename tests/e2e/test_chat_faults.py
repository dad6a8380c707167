"""A backend worker killed mid-conversation: no message lost, stored twice or charged twice.

Its own production server with Redis and 2 workers, on a PostgreSQL and a Redis database of
its own (the session's site keeps the shared ones). Member A writes to member B; both are
simulated tabs on the chat page (`bench/reflex_socket.py`). While A sends a stream of
messages, each with its own client id, the worker holding A's websocket gets SIGKILL (an
out-of-memory kill looks the same) at the worst moment: one of A's messages is committed but
its confirmation has not reached A. A's tab then reconnects, as the browser does, and sends
again every message it had not seen confirmed when the worker died, with the same client id.
B reconnects on the chat page afterwards (a new socket, hydrated, scrolled up to the start).
What the database holds and what B's reloaded tab shows are checked in the tests below; A reads
the site in German and is never shown an error, and the server's log holds no traceback.

The site must keep serving on its own: granian respawns the dead worker
(services/app_server.py). Should it go down, the fixture starts it again, as a process manager
would, so that the checks on the data still say what they found.
"""

import asyncio
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import socketio
from server import (
    REPO_ROOT,
    Server,
    SiteBuild,
    lock_warnings,
    run_in_own_loop,
    running_server,
    running_site,
    site_env,
    tracebacks,
)
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from actions.chat import PAGE_SIZE
from bench.reflex_socket import (
    SocketMember,
    children_of,
    process_holding,
    reflex_server,
)
from models.auth_session import start_session
from models.chat import Message, Outgoing, send_message
from models.credits import CreditEntry, grant_credits, ledger_sum
from models.db import make_engine
from models.member import Member
from models.site_settings import load_settings
from services.config import _sqlalchemy_url
from tests.factories import make_member
from tests.services import own_database, redis_database, require_services

DATABASE = "chat_faults"  # on DATABASE_URL's server
REDIS_DB = 2  # on REDIS_URL's server
WORKERS = 2
DEMO_MEMBERS = 4
A_LOCALE = "de"  # A's account language, locale cookie and Accept-Language
INITIAL_CREDITS = 1000
STREAM = 24  # A's messages; with the first one they fit one page of the chat
KILL_AFTER_CONFIRMED = 3  # A's sends confirmed before the worker is killed
KILL_WINDOW_SECONDS = 10.0
SEND_GAP_SECONDS = 0.05
SURVIVAL_SECONDS = 10.0  # how long the site may take to serve again without a restart
CONFIRM_SECONDS = 30.0
assert STREAM + 1 <= PAGE_SIZE, "A's reloaded tab must show every message to confirm retries"


@dataclass(frozen=True)
class Conversation:
    a_id: int
    b_id: int
    conversation_id: int
    sessions: tuple[str, str]
    message_credits: int


@dataclass(frozen=True)
class Crash:
    conversation: Conversation
    client_ids: list[str]  # A's stream, in order
    killed_worker: int
    workers_before: list[int]
    survived: bool  # the site served again without a restart
    confirmed_before_kill: set[str]  # client ids A had seen confirmed when the worker died
    stored_before_restart: set[str]  # client ids in the database once the worker was dead
    retried: list[str]
    confirmed_at_end: set[str]
    b_shown_ids: set[int]  # message ids B's reloaded tab showed
    a_toasts: list[str]  # every toast A's tab got
    a_errors: list[str]  # every error A's chat showed beside the composer
    server_log: str  # the server's log, and the restarted one's


def body_of(client_id: str) -> str:
    return f"Fault test {client_id}"


def start_conversation(engine: Engine) -> Conversation:
    """A (a German member) and B, logged in; A has credits and has written the first
    message."""
    with Session(engine, expire_on_commit=False) as db:
        a = make_member(db, "fault-a@example.com", language=A_LOCALE)
        b = make_member(db, "fault-b@example.com")
        grant_credits(db, a, INITIAL_CREDITS, "test")
        db.commit()
        settings = load_settings(db)
        first = Outgoing(a.id, b.id, "fault-first-0000", text="Hello B")
        conversation_id = send_message(db, first, settings).message.conversation_id
        sessions = (start_session(db, a.id), start_session(db, b.id))
        db.commit()
        return Conversation(a.id, b.id, conversation_id, sessions, settings.message_credits)


def worker_of(member: SocketMember, port: int) -> tuple[int, list[int]]:
    """The worker process holding the member's websocket (else the first), and all workers."""
    supervisor = reflex_server(port)
    assert supervisor is not None, "the server's process is gone"
    workers = children_of(supervisor)
    assert len(workers) == WORKERS, f"expected {WORKERS} workers, found {workers}"
    client_port = member.local_port()
    holder = process_holding(workers, port, client_port) if client_port else None
    return holder or workers[0], workers


def serves_again(site: Server) -> bool:
    """Whether the server, still running, answers /ping within SURVIVAL_SECONDS of the kill
    (a moment first: granian needs one to notice the dead worker)."""
    time.sleep(2)
    deadline = time.monotonic() + SURVIVAL_SECONDS
    with httpx.Client(timeout=2) as client:
        while time.monotonic() < deadline:
            with suppress(httpx.HTTPError):
                answer = client.get(f"{site.url}/ping")
                if answer.status_code == 200 and reflex_server(site.port) is not None:
                    return True
            time.sleep(0.5)
    return False


async def stream(a: SocketMember, client_ids: list[str]) -> None:
    """A's messages one after the other without waiting for confirmations, until all are
    sent or A's socket is gone."""
    for client_id in client_ids:
        if not a.connected:
            return
        try:
            await a.send_text(body_of(client_id), client_id)
        except (ConnectionError, socketio.exceptions.SocketIOError):
            return  # the socket died under the send: unconfirmed, sent again later
        await asyncio.sleep(SEND_GAP_SECONDS)


async def kill_between_commit_and_confirmation(
    a: SocketMember, engine: Engine, client_ids: list[str], sender_id: int, worker: int
) -> set[str]:
    """SIGKILL the worker once A has seen KILL_AFTER_CONFIRMED sends confirmed and another
    one is in the database but not yet confirmed to A: the moment a retry is most likely to
    store or charge twice (or after KILL_WINDOW_SECONDS, whatever the moment). Returns the
    client ids A had seen confirmed when the worker died."""
    deadline = time.monotonic() + KILL_WINDOW_SECONDS
    while time.monotonic() < deadline:
        stored = await asyncio.to_thread(stored_client_ids, engine, sender_id)
        confirmed = confirmed_ids(a, client_ids)  # no await from here to the kill
        if len(confirmed) >= KILL_AFTER_CONFIRMED and stored & set(client_ids) - confirmed:
            break
        await asyncio.sleep(0.002)
    confirmed = confirmed_ids(a, client_ids)
    os.kill(worker, signal.SIGKILL)
    return confirmed


async def retry_unconfirmed(a: SocketMember, unconfirmed: list[str]) -> None:
    """A's tab after reconnecting: every unconfirmed message again, same client id."""
    await a.open()
    for client_id in unconfirmed:
        await a.send_text(body_of(client_id), client_id)
        await asyncio.sleep(SEND_GAP_SECONDS)
    everything = {body_of(client_id) for client_id in unconfirmed}
    await a.until(lambda: everything <= a.confirmed.keys(), CONFIRM_SECONDS)


async def reload_all(b: SocketMember) -> set[int]:
    """B's tab reloaded on the chat page, scrolled up to the first message."""
    await b.open()
    while b.more_before:
        assert await b.load_earlier(), "B's tab did not load earlier messages"
    return set(b.shown_ids)


def server_logs(site: Server) -> str:
    """The site's log, and the log of the server the fixture restarted, if it did."""
    logs = [site.log_path, site.log_path.with_name("restart.log")]
    return "".join(path.read_text(errors="replace") for path in logs if path.exists())


def confirmed_ids(member: SocketMember, client_ids: list[str]) -> set[str]:
    return {client_id for client_id in client_ids if body_of(client_id) in member.confirmed}


def stored_client_ids(engine: Engine, sender_id: int) -> set[str]:
    with Session(engine) as db:
        return set(db.exec(select(Message.client_id).where(Message.sender_id == sender_id)))


async def stream_and_kill(
    a: SocketMember, engine: Engine, client_ids: list[str], sender_id: int, worker: int
) -> set[str]:
    """A's stream with the worker killed under it; the client ids A had seen confirmed."""
    kill = kill_between_commit_and_confirmation(a, engine, client_ids, sender_id, worker)
    _, confirmed = await asyncio.gather(stream(a, client_ids), kill)
    await a.until(lambda: not a.connected, SURVIVAL_SECONDS)
    return confirmed


async def crash_and_recover(
    site: Server, engine: Engine, conversation: Conversation, restart: Callable[[], None]
) -> Crash:
    """The whole scenario; `restart()` brings the server back when it went down."""
    a_session, b_session = conversation.sessions
    a = SocketMember(site.url, a_session, conversation.conversation_id, locale=A_LOCALE)
    b = SocketMember(site.url, b_session, conversation.conversation_id)
    try:
        await a.open()
        await b.open()
        killed, workers = worker_of(a, site.port)
        client_ids = [f"fault-{number:04d}-{os.urandom(4).hex()}" for number in range(STREAM)]
        confirmed = await stream_and_kill(a, engine, client_ids, conversation.a_id, killed)
        survived = await asyncio.to_thread(serves_again, site)
        stored = stored_client_ids(engine, conversation.a_id)
        if not survived:
            await asyncio.to_thread(restart)
        retried = [client_id for client_id in client_ids if client_id not in confirmed]
        await retry_unconfirmed(a, retried)
        return Crash(
            conversation=conversation,
            client_ids=client_ids,
            killed_worker=killed,
            workers_before=workers,
            survived=survived,
            confirmed_before_kill=confirmed,
            stored_before_restart=stored,
            retried=retried,
            confirmed_at_end=confirmed_ids(a, client_ids),
            b_shown_ids=await reload_all(b),
            a_toasts=list(a.toasts),
            a_errors=list(a.errors),
            server_log=server_logs(site),
        )
    finally:
        await a.close()
        await b.close()


@pytest.fixture(scope="module")
def crash_db(
    tmp_path_factory: pytest.TempPathFactory, fault_build: SiteBuild
) -> Iterator[tuple[Crash, Engine]]:
    """The scenario run once on its own server: its outcome, and the server's database."""
    database_url, redis_url = require_services()
    own_db = own_database(database_url, DATABASE)
    work_dir: Path = tmp_path_factory.mktemp("chat-faults")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DATABASE_URL", own_db)  # what the server gets (base_env copies os.environ)
        env.setenv("REDIS_URL", redis_database(redis_url, REDIS_DB))
        with (
            running_site(
                work_dir,
                external=True,
                demo_members=DEMO_MEMBERS,
                workers=WORKERS,
                build=fault_build,
            ) as site,
            ExitStack() as restarted,
        ):

            def restart() -> None:
                """The server again on the same port, data and build, as a process manager
                would start it after the crash; stopped at the end of the module."""
                again = site_env(
                    site.port, work_dir, external=True, demo_members=DEMO_MEMBERS, workers=WORKERS
                )
                log_path = work_dir / "restart.log"
                restarted.enter_context(
                    running_server(REPO_ROOT, site.port, again, log_path, built_in=site.web_dir)
                )

            engine = make_engine(_sqlalchemy_url(own_db))
            try:
                conversation = start_conversation(engine)
                crash = run_in_own_loop(crash_and_recover(site, engine, conversation, restart))
                print(summary(crash))
                yield crash, engine
            finally:
                engine.dispose()


def summary(crash: Crash) -> str:
    """What happened, for the log: how far A got and what the retries met."""
    committed_unconfirmed = set(crash.retried) & crash.stored_before_restart
    return (
        f"killed worker {crash.killed_worker} of {crash.workers_before}; "
        f"site {'kept serving' if crash.survived else 'went down and was restarted'}; "
        f"{len(crash.confirmed_before_kill)} of {STREAM} confirmed before the kill, "
        f"{len(crash.stored_before_restart & set(crash.client_ids))} stored; "
        f"{len(crash.retried)} sent again, {len(committed_unconfirmed)} of them already stored"
    )


@pytest.fixture(scope="module")
def crash(crash_db: tuple[Crash, Engine]) -> Crash:
    return crash_db[0]


@pytest.fixture(scope="module")
def site_engine(crash_db: tuple[Crash, Engine]) -> Engine:
    return crash_db[1]


def messages_of_a(engine: Engine, conversation: Conversation) -> list[Message]:
    """What A stored, oldest first."""
    with Session(engine) as db:
        query = select(Message).where(Message.sender_id == conversation.a_id)
        return list(db.exec(query.order_by(Message.id)).all())


# ----- the tests -----


def test_the_kill_hit_a_worker_between_a_commit_and_its_confirmation(crash: Crash) -> None:
    """The scenario did what it is for: a worker died (not the supervisor) while A's stream
    was under way, and A then sent again a message the database already had."""
    assert crash.killed_worker in crash.workers_before
    assert KILL_AFTER_CONFIRMED <= len(crash.confirmed_before_kill) < STREAM
    assert set(crash.retried) & crash.stored_before_restart, "no retry met a stored message"


def test_site_keeps_serving_after_a_worker_dies(crash: Crash) -> None:
    assert crash.survived


def test_every_message_is_confirmed_after_the_retries(crash: Crash) -> None:
    told = f"A was told {crash.a_errors or 'no error'}; retried {len(crash.retried)}"
    assert crash.confirmed_at_end == set(crash.client_ids), told


def test_every_confirmed_message_is_stored_exactly_once(crash: Crash, site_engine: Engine) -> None:
    stored = [message.client_id for message in messages_of_a(site_engine, crash.conversation)]
    for client_id in crash.confirmed_at_end:
        assert stored.count(client_id) == 1, client_id


def test_no_client_id_is_stored_twice(crash: Crash, site_engine: Engine) -> None:
    with Session(site_engine) as db:
        twice = db.exec(
            select(Message.sender_id, Message.client_id)
            .group_by(Message.sender_id, Message.client_id)
            .having(func.count() > 1)
        ).all()
    assert twice == []
    stored = {message.client_id for message in messages_of_a(site_engine, crash.conversation)}
    assert stored == {"fault-first-0000", *crash.client_ids}


def test_a_is_charged_exactly_once_per_stored_message(crash: Crash, site_engine: Engine) -> None:
    a_id, cost = crash.conversation.a_id, crash.conversation.message_credits
    stored = messages_of_a(site_engine, crash.conversation)
    with Session(site_engine) as db:
        balance = db.get(Member, a_id).credits
        charges = db.exec(
            select(CreditEntry).where(CreditEntry.member_id == a_id, CreditEntry.amount < 0)
        ).all()
        assert ledger_sum(db, a_id) == balance
    assert balance == INITIAL_CREDITS - len(stored) * cost
    assert sorted(entry.reference for entry in charges) == sorted(
        f"message:{message.id}" for message in stored
    )
    assert all(entry.amount == -cost for entry in charges)


def test_a_is_never_shown_an_error(crash: Crash) -> None:
    assert crash.a_toasts == [], [*tracebacks(crash.server_log), *lock_warnings(crash.server_log)]


def test_the_log_has_no_traceback(crash: Crash) -> None:
    assert tracebacks(crash.server_log) == []


def test_b_sees_every_stored_message_after_reconnecting(crash: Crash, site_engine: Engine) -> None:
    with Session(site_engine) as db:
        query = select(Message.id).where(
            Message.conversation_id == crash.conversation.conversation_id
        )
        stored = set(db.exec(query).all())
    assert stored - crash.b_shown_ids == set()
