"""Two instances of the production build behind nginx (docs/deploy.md), sharing PostgreSQL,
Redis and an S3 bucket, each with a data folder of its own: a mail deferred once is sent once by
the two job workers; a payment webhook that reaches the instance that did not create the order
credits it once and sends one receipt; each tick of the periodic jobs is deferred once and run
once although both instances' workers defer them; a photo uploaded through one instance is
served by the other as its access check allows; two members on different instances chat live;
one instance is killed mid-conversation and its member's tab carries on through the other
within 10 s, nothing lost (how soon is printed).

The instances serve one build made for nginx's port (PUBLIC_URL is nginx's address, as behind a
real load balancer) and share what a deployment shares: the database, Redis, the bucket (on
moto's S3 server, tests/s3_server.py), the server secret and the push key. Browsers and tabs
(simulated websocket clients, `bench/reflex_socket.py`) are pinned to an instance by the test's
nginx (tests/e2e/load_balancer.py) while it is up. The kill comes last (pytest runs a module's
tests in their order); the tests that need both instances first see nginx reach each of them.
"""

import math
import os
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
from journeys import eventually, photo_file, wait_ready
from load_balancer import Instance, instances_behind_nginx, shared_settings
from playwright.sync_api import Page, expect
from purchases import choose
from server import SiteBuild, prepare_site, run_in_own_loop, signal_group, site_env
from sqlalchemy import Engine, bindparam, text
from sqlmodel import Session, select
from test_chat_faults import Conversation, start_conversation

from actions.viewer import SESSION_COOKIE
from bench.reflex_socket import SocketMember
from models.auth_session import start_session
from models.chat import Message
from models.credits import ledger_sum
from models.db import make_engine
from models.orders import Order
from models.photos import gallery_order
from services.config import _sqlalchemy_url
from services.mail import OutgoingMail, outbox_messages
from services.mail_job import mail_later
from services.payments.provider import TEST_PROVIDER_KEY, TEST_PROVIDER_PATH, WEBHOOK_PATH
from services.photo_pipeline import blurred_name
from services.photo_store_s3 import BucketFolder
from tests.factories import block_member, make_member
from tests.s3_server import new_bucket
from tests.services import own_database, redis_database, require_services

DATABASE = "two_instances"  # on DATABASE_URL's server
REDIS_DB = 3  # on REDIS_URL's server
INSTANCES = 2
CARRY_ON_SECONDS = 10.0  # for a killed instance's websocket to close
ARRIVAL_SECONDS = 20.0  # for a mail, a round of jobs, a chat message to arrive
CARRIED_ON_SECONDS = 10.0  # from the kill to the dead instance's tab's next message arriving


@dataclass(frozen=True)
class Pair:
    url: str  # nginx's
    instances: tuple[Instance, ...]
    engine: Engine  # the shared database
    photos: BucketFolder  # the shared bucket's photos, as the test reads them


@pytest.fixture(scope="module")
def pair(
    tmp_path_factory: pytest.TempPathFactory, fault_build: SiteBuild, s3_server: str
) -> Iterator[Pair]:
    database_url, redis_url = require_services()
    work_dir: Path = tmp_path_factory.mktemp("two-instances")
    database_url = own_database(database_url, DATABASE)
    bucket_settings, photos = new_bucket(s3_server)
    shared = shared_settings(work_dir, database_url, redis_database(redis_url, REDIS_DB))
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (shared | bucket_settings).items():
            patch.setenv(name, value)  # what the instances get (base_env copies os.environ)
        env = site_env(
            fault_build.port, work_dir / "instance0", external=True, demo_members=4, workers=1
        )
    prepare_site(env, work_dir / "prepare.log")
    engine = make_engine(_sqlalchemy_url(database_url))
    try:
        with instances_behind_nginx(fault_build, env, work_dir, INSTANCES) as cluster:
            yield Pair(cluster.url, cluster.instances, engine, photos)
    finally:
        engine.dispose()


def served_by(url: str, pin: int) -> str:
    """The instance (host:port) that answers a client pinned to instance `pin`: the last one
    nginx tried (X-Served-By lists each, once a dead one's fail_timeout is over)."""
    answer = httpx.get(f"{url}/ping", cookies={"pin": str(pin)}, timeout=10)
    assert answer.status_code == 200
    return answer.headers["x-served-by"].split(", ")[-1]


def addresses(pair: Pair) -> tuple[str, ...]:
    """Each instance's address (host:port), as X-Served-By names it."""
    return tuple(f"127.0.0.1:{instance.port}" for instance in pair.instances)


def both_up(pair: Pair) -> tuple[str, str]:
    """The two instances' addresses, once nginx is seen sending each pin to its own."""
    first, second = addresses(pair)
    assert (served_by(pair.url, 0), served_by(pair.url, 1)) == (first, second)
    return first, second


def pinned_page(new_page, pair: Pair, session: str, pin: int) -> Page:
    """A browser logged in with `session`, pinned to instance `pin`."""
    page = new_page()
    page.context.add_cookies(
        [{"name": name, "value": value, "url": pair.url}
         for name, value in ((SESSION_COOKIE, session), ("pin", str(pin)))]
    )  # fmt: skip
    return page


def _mails(pair: Pair) -> list[EmailMessage]:
    return [m for i in pair.instances for m in outbox_messages(i.data_dir / "outbox")]


def test_a_mail_deferred_once_is_sent_once_by_the_two_instances(pair: Pair) -> None:
    """Both instances run job workers on the shared queue: one of them sends it."""
    mail = OutgoingMail("pair-c@example.com", "Once", "text", "<p>html</p>", "Site", "en", ())
    with Session(pair.engine) as db:
        mail_later(db, mail)
        db.commit()
    assert _sent_once(pair, "pair-c@example.com")
    sent = [(m["To"], m["Subject"], m["Date"]) for m in _mails(pair)]
    assert len(sent) == len(set(sent))


def _order_of(engine: Engine, member_id: int) -> Order | None:
    with Session(engine) as db:
        query = select(Order).where(Order.member_id == member_id).order_by(Order.id.desc())
        return db.exec(query).first()


def test_a_payment_webhook_at_the_other_instance_credits_once(pair: Pair, new_page) -> None:
    """The order is made on instance 0 (the buyer's browser is pinned there); the provider
    settles the payment without calling back; its webhook then reaches instance 1 only."""
    both_up(pair)
    with Session(pair.engine, expire_on_commit=False) as db:
        buyer = make_member(db, "pair-buyer@example.com")
        session = start_session(db, buyer.id)
        db.commit()
        balance = ledger_sum(db, buyer.id)
    page = pinned_page(new_page, pair, session, 0)
    page.goto(f"{pair.url}/credits")
    wait_ready(page, "/credits")
    choose(page, "p1", "ideal")
    page.wait_for_url(re.compile(r".*/testpay/checkout/tr_\w+"))
    order = _order_of(pair.engine, buyer.id)
    assert order is not None and order.status == "open"
    settled = httpx.post(
        f"{pair.url}{TEST_PROVIDER_PATH}/v2/payments/{order.provider_payment_id}/test-outcome",
        json={"status": "paid", "webhook": "none"},
        headers={"authorization": f"Bearer {TEST_PROVIDER_KEY}"},
    )
    assert settled.status_code == 200 and _order_of(pair.engine, buyer.id).status == "open"
    other = f"http://127.0.0.1:{pair.instances[1].port}{WEBHOOK_PATH}"
    for _replay in range(2):  # a provider calls again when unsure
        answer = httpx.post(other, data={"id": order.provider_payment_id}, timeout=30)
        assert answer.status_code == 200
    assert _order_of(pair.engine, buyer.id).status == "paid"
    with Session(pair.engine) as db:
        assert ledger_sum(db, buyer.id) == balance + order.credits
    assert _sent_once(pair, "pair-buyer@example.com")  # the receipt


def _sent_once(pair: Pair, to: str) -> bool:
    """Whether one mail, and no second, reached `to` from either instance."""

    def sent() -> int:
        return sum(mail["To"] == to for mail in _mails(pair))

    deadline = time.monotonic() + ARRIVAL_SECONDS
    while not sent() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)  # room for a second sending, were there one
    return sent() == 1


# ----- the periodic rounds -----

# Every 5 s, so a few ticks take seconds: the postbacks' round and the test provider's sweep
# (services/postbacks.py, app/job_modules.py). The hourly purge is registered the same way
# (services/job_engine._register), so what holds for them holds for it.
FAST_ROUNDS = ("send_postbacks", "test_provider_sweep")
TICK_SECONDS = 5
TICKS = 3  # watched in a row
# What the test's triggers note about each tick of a round: both instances' deferrers try to
# defer it; one job is written, taken once and deleted once it succeeded (failed ones stay).
ONCE = (INSTANCES, ("deferred", "doing", "deleted"))
TRAIL = (
    "CREATE TABLE periodic_trail (id bigserial PRIMARY KEY, what text NOT NULL,"
    " task text NOT NULL, tick bigint, worker bigint)",
    # Row triggers BEFORE INSERT fire for a row ON CONFLICT DO NOTHING then skips: every try.
    """CREATE FUNCTION periodic_trail_try() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO periodic_trail (what, task, tick)
            VALUES ('try', NEW.task_name, NEW.defer_timestamp);
        RETURN NEW;
    END $$""",
    "CREATE TRIGGER periodic_trail_try BEFORE INSERT ON procrastinate_periodic_defers"
    " FOR EACH ROW EXECUTE FUNCTION periodic_trail_try()",
    """CREATE FUNCTION periodic_trail_job() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            INSERT INTO periodic_trail (what, task, tick)
                VALUES ('deferred', NEW.task_name, CAST(NEW.args ->> 'timestamp' AS bigint));
        ELSIF TG_OP = 'DELETE' THEN
            INSERT INTO periodic_trail (what, task, tick, worker)
                VALUES ('deleted', OLD.task_name, CAST(OLD.args ->> 'timestamp' AS bigint),
                        OLD.worker_id);
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
            INSERT INTO periodic_trail (what, task, tick, worker)
                VALUES (CAST(NEW.status AS text), NEW.task_name,
                        CAST(NEW.args ->> 'timestamp' AS bigint), NEW.worker_id);
        END IF;
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER periodic_trail_job AFTER INSERT OR UPDATE OR DELETE ON procrastinate_jobs"
    " FOR EACH ROW EXECUTE FUNCTION periodic_trail_job()",
)
UNTRAIL = "DROP FUNCTION periodic_trail_try, periodic_trail_job CASCADE"  # with their triggers


Trail = list[tuple[str, str, int, int | None]]  # (what, task, tick, worker) in order


def _trail(engine: Engine) -> Trail:
    """What the triggers noted about the fast rounds' ticks."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT what, task, tick, worker FROM periodic_trail"
                " WHERE task IN :tasks AND tick IS NOT NULL ORDER BY id"
            ).bindparams(bindparam("tasks", expanding=True)),
            {"tasks": list(FAST_ROUNDS)},
        )
        return [(what, task, tick, worker) for what, task, tick, worker in rows]


def _watch_ticks(engine: Engine) -> tuple[list[int], Trail]:
    """TICKS ticks in a row, the first over a second after the triggers exist (a deferrer tries
    half a second after a tick), and the trail once the rounds of the tick after them have
    succeeded: both deferrers have passed the watched ticks by then."""
    with engine.begin() as connection:
        for statement in TRAIL:
            connection.execute(text(statement))
    try:
        first = (math.floor(time.time() + 1) // TICK_SECONDS + 1) * TICK_SECONDS
        ticks = [first + number * TICK_SECONDS for number in range(TICKS)]
        after = ticks[-1] + TICK_SECONDS
        done = {("deleted", task, after) for task in FAST_ROUNDS}

        def finished() -> Trail | None:
            trail = _trail(engine)
            return trail if done <= {entry[:3] for entry in trail} else None

        wait = after - time.time() + ARRIVAL_SECONDS
        return ticks, eventually(finished, "the rounds of the watched ticks", wait)
    finally:
        with engine.begin() as connection:
            connection.execute(text(UNTRAIL))


def test_each_periodic_tick_runs_once_across_the_two_instances(pair: Pair) -> None:
    """Both instances' job workers defer the periodic jobs (docs/background-work.md): each
    tick is tried by both, deferred once, taken by one worker and run once."""
    both_up(pair)
    ticks, trail = _watch_ticks(pair.engine)

    def noted(task: str, tick: int) -> tuple[int, tuple[str, ...]]:
        about = [what for what, t, at, _worker in trail if (t, at) == (task, tick)]
        return about.count("try"), tuple(what for what in about if what != "try")

    seen = {(task, tick): noted(task, tick) for task in FAST_ROUNDS for tick in ticks}
    assert seen == dict.fromkeys(seen, ONCE)
    runners = sorted({worker for what, *_rest, worker in trail if what == "doing"})
    print(f"{len(seen)} rounds run once each, by the workers {runners}")


# ----- photos in the shared bucket -----


def _photo_through(pair: Pair, pin: int, name: str, session: str | None) -> httpx.Response:
    """/media/photos/{name} through nginx pinned to instance `pin`, as the member logged in
    with `session` (None: a visitor)."""
    cookies = {"pin": str(pin)} | ({SESSION_COOKIE: session} if session else {})
    return httpx.get(f"{pair.url}/media/photos/{name}", cookies=cookies, timeout=10)


def _served(answer: httpx.Response) -> tuple[int, str | None, str | None]:
    return answer.status_code, answer.headers.get("x-served-by"), answer.headers.get("content-type")


def test_a_photo_uploaded_through_one_instance_is_served_by_the_other(
    pair: Pair, new_page, tmp_path: Path
) -> None:
    """Two photos uploaded in the settings through instance 0 are stored in the bucket only.
    Instance 1 answers the second one's original to a member (free members see the first three
    of a gallery), its blurred rendition to a visitor (made there, into the bucket) and 404 to
    a member the owner blocked (docs/photos.md)."""
    first, second = both_up(pair)
    with Session(pair.engine, expire_on_commit=False) as db:
        owner, member, blocked = (
            make_member(db, f"pair-{who}@example.com") for who in ("owner", "member", "blocked")
        )
        block_member(db, owner.id, blocked.id)
        sessions = [start_session(db, who.id) for who in (owner, member, blocked)]
        db.commit()
    page = pinned_page(new_page, pair, sessions[0], 0)
    page.goto(f"{pair.url}/settings?tab=photos")
    wait_ready(page, "/settings")
    files = [photo_file(tmp_path, f"pair-{number}.jpg") for number in range(2)]
    with page.expect_response(lambda answer: answer.url.endswith("/_upload")) as upload:
        page.get_by_test_id("photo-upload").locator("input[type=file]").set_input_files(files)
    assert upload.value.all_headers().get("x-served-by") == first
    expect(page.get_by_test_id("photo-tile")).to_have_count(2)
    with Session(pair.engine) as db:
        name = gallery_order(db, owner.id)[1].filename
    original = pair.photos.get(name)
    assert original is not None
    assert not [i for i in pair.instances if (i.data_dir / "media" / "photos" / name).exists()]
    seen, visitor, refused = (
        _photo_through(pair, 1, name, session) for session in (sessions[1], None, sessions[2])
    )
    assert _served(seen) == (200, second, "image/jpeg") and seen.content == original
    assert _served(visitor) == (200, second, "image/jpeg")
    assert visitor.content == pair.photos.get(blurred_name(name)) != original
    assert (refused.status_code, refused.headers["x-served-by"]) == (404, second)


# ----- the chat, and the instance killed -----


@dataclass(frozen=True)
class Outcome:
    before_kill: set[str]  # what B's tab received while A and B were on different instances
    after_kill: set[str]  # what B received once A's instance had died
    carried_on_seconds: float  # from the kill to B seeing A's next message
    stored: list[str]  # A's messages in the database, in order


async def _send(a: SocketMember, b: SocketMember, text: str) -> bool:
    await a.send_text(text, f"pair-{os.urandom(6).hex()}")
    return await b.until(lambda: text in b.received, ARRIVAL_SECONDS)


async def _scenario(pair: Pair, members: Conversation) -> Outcome:
    a_session, b_session = members.sessions
    a = SocketMember(pair.url, a_session, members.conversation_id, cookies={"pin": "0"})
    b = SocketMember(pair.url, b_session, members.conversation_id, cookies={"pin": "1"})
    try:
        await a.open()
        await b.open()
        for number in range(3):
            assert await _send(a, b, f"Across instances {number}")
        before = set(b.received)
        signal_group(pair.instances[0].process, signal.SIGKILL)
        killed_at = time.monotonic()
        assert await a.until(lambda: not a.connected, CARRY_ON_SECONDS)
        await a.open()  # as the browser reconnects: nginx sends it to the instance left
        assert await _send(a, b, "After the crash")
        carried_on = time.monotonic() - killed_at
        print(f"A's next message reached B {carried_on:.2f} s after A's instance died")
        with Session(pair.engine) as db:
            query = select(Message.body).where(Message.sender_id == members.a_id)
            stored = list(db.exec(query.order_by(Message.id)).all())
        return Outcome(before, set(b.received) - before, carried_on, stored)
    finally:
        await a.close()
        await b.close()


@pytest.fixture(scope="module")
def outcome(pair: Pair) -> Outcome:
    both_up(pair)
    return run_in_own_loop(_scenario(pair, start_conversation(pair.engine)))


def test_members_on_two_instances_chat_live(outcome: Outcome) -> None:
    assert {f"Across instances {number}" for number in range(3)} <= outcome.before_kill


def test_a_dead_instances_tab_carries_on_through_the_other(pair: Pair, outcome: Outcome) -> None:
    """Within CARRIED_ON_SECONDS: the figure is printed; it is about 0.5 s, up to Reflex's
    state lock expiry (5 s, rxconfig.py) more when the instance died holding the lock of a state
    on the other instance (docs/deploy.md)."""
    assert outcome.after_kill == {"After the crash"}
    assert outcome.carried_on_seconds < CARRIED_ON_SECONDS
    assert served_by(pair.url, 0) == addresses(pair)[1]  # the backup


def test_nothing_is_lost_or_stored_twice(outcome: Outcome) -> None:
    sent = ["Hello B", *(f"Across instances {number}" for number in range(3)), "After the crash"]
    assert outcome.stored == sent
