"""Redis restarted and PostgreSQL stopped in the middle of a conversation: nothing lost or
stored twice, the ledger equal to the balance, live delivery back without a reload.

Its own production server with 2 workers, on a Redis of its own (a private `redis-server` on a
free port, restarted for real: its data is gone, as in a real restart) and on a PostgreSQL
database of its own reached through a TCP proxy in this test, which is cut for the outage
(every connection closed, new ones refused): the shared PostgreSQL and Redis keep running.
Member A writes to member B; both are simulated tabs on the chat page (`bench/reflex_socket.py`)
that stay open throughout, as browsers would. A message whose send was not confirmed is sent
again with the same client id, as the composer keeps the draft and its id. A reads the site in
German: what each send during an outage is told comes in A's language, and the server's log
holds one line per failure, no traceback. A's account speaks Dutch: the tab's state, which
Reflex rebuilds without the browser's cookies on A's first send after Redis lost it, keeps the
locale cookie's German.
"""

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from redis import Redis
from server import Server, SiteBuild, free_port, run_in_own_loop, running_site, tracebacks
from sqlalchemy import Engine, func, make_url
from sqlmodel import Session, select
from test_chat_faults import (
    A_LOCALE,
    INITIAL_CREDITS,
    Conversation,
    body_of,
    confirmed_ids,
    messages_of_a,
    start_conversation,
    worker_of,
)

from actions.chat import PAGE_SIZE
from bench.reflex_socket import Answer, SocketMember
from models.chat import Message
from models.credits import ledger_sum
from models.db import make_engine
from models.member import Member
from services.config import _sqlalchemy_url
from tests.network import CuttableProxy
from tests.services import IN_CI, own_database, require_services

DATABASE = "service_faults"  # on DATABASE_URL's server
WORKERS = 2
BEFORE, DURING = 3, 3  # A's messages before each outage, and sent while it lasts
REDIS_OUTAGE_SECONDS = 3.5
POSTGRES_OUTAGE_SECONDS = 8.0
BACK_WITHIN_SECONDS = 10.0  # live delivery again after the service returns
RETRY_EVERY_SECONDS = 1.0
PLACING_ATTEMPTS = 30  # reconnects of B until a worker other than A's holds its websocket
ANSWER_SECONDS = 10.0  # at most until a send during an outage is told it failed
# The site's generic text (the spec's "Er is een fout opgetreden, probeer het later opnieuw."),
# and the chat's own, in German.
TRY_AGAIN_DE = "Etwas ist schiefgelaufen, bitte versuche es später noch einmal."
NOT_SENT_DE = "Deine Nachricht wurde nicht gesendet. Bitte versuche es noch einmal."
A_ACCOUNT_LANGUAGE = "nl"  # not A's cookie's
assert 1 + 2 * (2 * BEFORE + DURING + 1) <= PAGE_SIZE, "B's open chat must hold every message"


# ----- the services, and their outages -----


class PrivateRedis:
    """A redis-server of this test's own on a free port, without persistence."""

    def __init__(self, work_dir: Path) -> None:
        self.port, self.work_dir = free_port(), work_dir
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen | None = None

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--dir", str(self.work_dir)]
        self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        client, deadline = Redis(port=self.port), time.monotonic() + 10
        while time.monotonic() < deadline:
            with suppress(Exception):
                if client.ping():
                    return
            time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(timeout=10)
            self._process = None


def proxied(database_url: str, proxy_port: int) -> str:
    """database_url with the proxy as its server."""
    url = make_url(_sqlalchemy_url(database_url)).set(host="127.0.0.1", port=proxy_port)
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


# ----- the scenario -----


@dataclass
class Outcome:
    conversation: Conversation
    client_ids: list[str] = field(default_factory=list)  # all of A's, in order
    redis_back_after: float | None = None  # seconds from Redis's return to B showing all
    postgres_back_after: float | None = None
    live_after_redis: bool = False  # a later message reached B's tab live; A saw it confirmed
    tabs_rebuilt: bool = False  # both tabs hydrated again before the database went away
    unconfirmed: set[str] = field(default_factory=set)
    b_shown_ids: set[int] = field(default_factory=set)
    rehydrated: tuple[int, int] = (0, 0)  # times A's and B's tabs were told to hydrate again
    redis_answers: list[Answer | None] = field(default_factory=list)  # A's sends during it
    postgres_answers: list[Answer | None] = field(default_factory=list)
    a_toasts: list[str] = field(default_factory=list)  # every toast A's tab got
    server_log: str = ""


class Chat:
    """A writing to B through their open tabs."""

    def __init__(self, site: Server, conversation: Conversation, outcome: Outcome) -> None:
        a_session, b_session = conversation.sessions
        self.a = SocketMember(site.url, a_session, conversation.conversation_id, locale=A_LOCALE)
        self.b = SocketMember(site.url, b_session, conversation.conversation_id)
        self.outcome = outcome

    def new_ids(self, count: int) -> list[str]:
        ids = [
            f"svc-{len(self.outcome.client_ids) + n:04d}-{os.urandom(3).hex()}"
            for n in range(count)
        ]
        self.outcome.client_ids += ids
        return ids

    async def send(self, client_ids: list[str]) -> None:
        for client_id in client_ids:
            with suppress(Exception):  # a send into the outage may fail on the spot
                await self.a.send_text(body_of(client_id), client_id)

    async def send_answered(self, client_ids: list[str]) -> list[Answer | None]:
        """A sends one message after the other, each once it was told about the one before."""
        return [
            await self.a.send_answered(body_of(client_id), client_id, ANSWER_SECONDS)
            for client_id in client_ids
        ]

    def unconfirmed(self) -> list[str]:
        return [c for c in self.outcome.client_ids if body_of(c) not in self.a.confirmed]

    def b_shows_all(self) -> bool:
        return all(body_of(client_id) in self.b.received for client_id in self.outcome.client_ids)

    async def until_all_shown(self, since: float) -> float | None:
        """A sends again what was not confirmed, every second, until B's tab shows all of A's
        messages; the seconds from `since` to then, None after BACK_WITHIN_SECONDS."""
        deadline = since + BACK_WITHIN_SECONDS
        while time.monotonic() < deadline:
            await self.send(self.unconfirmed())
            if await self.b.until(self.b_shows_all, RETRY_EVERY_SECONDS):
                return time.monotonic() - since
        return None

    async def rebuilt(self) -> bool:
        """Both tabs were told to hydrate again (Redis lost their states) and their pages
        hydrated: no page load of theirs is still to come when the database goes away."""
        return all(
            [
                await tab.until(
                    lambda tab=tab: tab.rehydrations and tab.hydrated, BACK_WITHIN_SECONDS
                )
                for tab in (self.a, self.b)
            ]
        )

    async def exchange(self, count: int) -> bool:
        """A writes `count` messages with both services up; whether B got them live and A saw
        each confirmed. B's tab may show a message before A's confirmation arrives (a lean push
        goes out at the commit), and a confirmation still to come would pass for the answer to
        A's next send (`send_answered`)."""
        ids = self.new_ids(count)
        await self.send(ids)
        shown = await self.b.until(self.b_shows_all, BACK_WITHIN_SECONDS)
        return shown and await self.a.until(
            lambda: confirmed_ids(self.a, ids) == set(ids), BACK_WITHIN_SECONDS
        )


async def on_another_worker(site: Server, member: SocketMember, other: SocketMember) -> None:
    """Open member's tab on a worker other than the one holding other's: a push then crosses
    workers through Redis, the harder way back after a restart."""
    taken = worker_of(other, site.port)[0]
    for _ in range(PLACING_ATTEMPTS):
        await member.open()
        if worker_of(member, site.port)[0] != taken:
            return
    pytest.fail(f"every websocket of B went to worker {taken}", pytrace=False)


async def survive_outages(
    site: Server, conversation: Conversation, redis: PrivateRedis, proxy: CuttableProxy
) -> Outcome:
    outcome = Outcome(conversation)
    chat = Chat(site, conversation, outcome)
    try:
        await chat.a.open()
        await on_another_worker(site, chat.b, chat.a)
        assert await chat.exchange(BEFORE), "no live delivery before any outage"

        redis.stop()
        outcome.redis_answers = await chat.send_answered(chat.new_ids(DURING))
        await asyncio.sleep(REDIS_OUTAGE_SECONDS)  # the outage itself
        redis.start()
        outcome.redis_back_after = await chat.until_all_shown(time.monotonic())
        outcome.live_after_redis = await chat.exchange(BEFORE)
        outcome.tabs_rebuilt = await chat.rebuilt()

        proxy.cut()
        outcome.postgres_answers = await chat.send_answered(chat.new_ids(DURING))
        await asyncio.sleep(POSTGRES_OUTAGE_SECONDS)
        proxy.restore()
        outcome.postgres_back_after = await chat.until_all_shown(time.monotonic())

        outcome.unconfirmed = set(chat.unconfirmed())
        outcome.b_shown_ids = set(chat.b.shown_ids)
        outcome.rehydrated = chat.a.rehydrations, chat.b.rehydrations
        outcome.a_toasts = list(chat.a.toasts)
        outcome.server_log = site.log_path.read_text(errors="replace")
        return outcome
    finally:
        await chat.a.close()
        await chat.b.close()


def set_language(engine: Engine, member_id: int, language: str) -> None:
    with Session(engine) as db:
        member = db.get(Member, member_id)
        member.language = language
        db.add(member)
        db.commit()


@contextmanager
def private_services(
    work_dir: Path, database_url: str
) -> Iterator[tuple[PrivateRedis, CuttableProxy]]:
    if shutil.which("redis-server") is None:
        reason = "the service fault tests need redis-server"
        if IN_CI:
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    redis = PrivateRedis(work_dir)
    proxy = CuttableProxy(make_url(_sqlalchemy_url(database_url)).port or 5432)
    redis.start()
    proxy.restore()
    try:
        yield redis, proxy
    finally:
        proxy.close()
        redis.stop()


@pytest.fixture(scope="module")
def outcome_db(
    tmp_path_factory: pytest.TempPathFactory, fault_build: SiteBuild
) -> Iterator[tuple[Outcome, Engine]]:
    database_url, _ = require_services()
    own_db = own_database(database_url, DATABASE)
    work_dir = tmp_path_factory.mktemp("service-faults")
    with private_services(work_dir, own_db) as (redis, proxy), pytest.MonkeyPatch.context() as env:
        env.setenv("DATABASE_URL", proxied(own_db, proxy.port))
        env.setenv("REDIS_URL", redis.url)
        with running_site(
            work_dir, external=True, demo_members=4, workers=WORKERS, build=fault_build
        ) as site:
            engine = make_engine(_sqlalchemy_url(own_db))
            try:
                conversation = start_conversation(engine)
                set_language(engine, conversation.a_id, A_ACCOUNT_LANGUAGE)
                yield run_in_own_loop(survive_outages(site, conversation, redis, proxy)), engine
            finally:
                engine.dispose()


@pytest.fixture(scope="module")
def outcome(outcome_db: tuple[Outcome, Engine]) -> Outcome:
    return outcome_db[0]


@pytest.fixture(scope="module")
def site_engine(outcome_db: tuple[Outcome, Engine]) -> Engine:
    return outcome_db[1]


# ----- the tests -----


def test_live_delivery_is_back_within_10_seconds_of_redis_returning(outcome: Outcome) -> None:
    assert outcome.redis_back_after is not None
    assert outcome.live_after_redis


def test_the_tabs_whose_state_redis_lost_rebuilt_it_and_the_worker_said_so(
    outcome: Outcome,
) -> None:
    assert outcome.tabs_rebuilt
    assert min(outcome.rehydrated) >= 1
    assert "Redis back" in outcome.server_log


def test_a_send_while_redis_is_down_says_try_again_in_the_members_language(
    outcome: Outcome,
) -> None:
    """Reflex cannot take the tab's state lock, so no handler runs: the site's generic text
    (not Reflex's English "An error occurred"), and no confirmation: the draft stays."""
    expected = Answer(errors=(), toasts=(TRY_AGAIN_DE,), confirmed=False)
    assert outcome.redis_answers == [expected] * DURING


def test_a_send_while_postgres_is_down_says_not_sent_in_the_members_language(
    outcome: Outcome,
) -> None:
    """The chat's own text, beside the composer; no confirmation: the draft stays."""
    expected = Answer(errors=(NOT_SENT_DE,), toasts=(), confirmed=False)
    assert outcome.postgres_answers == [expected] * DURING


def test_the_member_never_sees_reflexs_english_error(outcome: Outcome) -> None:
    assert set(outcome.a_toasts) <= {TRY_AGAIN_DE}


def test_the_log_has_one_line_per_failure_and_no_traceback(outcome: Outcome) -> None:
    log = outcome.server_log
    assert tracebacks(log) == []
    assert log.count("failed: Redis unreachable") >= DURING  # each send, in one line
    assert log.count("a message was not sent: database unreachable") >= DURING


def test_live_delivery_is_back_within_10_seconds_of_postgres_returning(outcome: Outcome) -> None:
    assert outcome.postgres_back_after is not None


def test_every_message_is_confirmed_and_stored_once(outcome: Outcome, site_engine: Engine) -> None:
    assert outcome.unconfirmed == set()
    stored = [message.client_id for message in messages_of_a(site_engine, outcome.conversation)]
    assert sorted(stored) == sorted(["fault-first-0000", *outcome.client_ids])
    with Session(site_engine) as db:
        twice = db.exec(
            select(Message.client_id)
            .group_by(Message.sender_id, Message.client_id)
            .having(func.count() > 1)
        ).all()
    assert twice == []


def test_the_ledger_equals_the_balance(outcome: Outcome, site_engine: Engine) -> None:
    a_id, cost = outcome.conversation.a_id, outcome.conversation.message_credits
    with Session(site_engine) as db:
        balance = db.get(Member, a_id).credits
        assert ledger_sum(db, a_id) == balance
    assert balance == INITIAL_CREDITS - len(messages_of_a(site_engine, outcome.conversation)) * cost


def test_b_open_chat_shows_every_message_without_a_reload(
    outcome: Outcome, site_engine: Engine
) -> None:
    with Session(site_engine) as db:
        query = select(Message.id).where(
            Message.conversation_id == outcome.conversation.conversation_id
        )
        stored = set(db.exec(query).all())
    assert stored - outcome.b_shown_ids == set()
