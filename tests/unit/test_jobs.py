"""Jobs (services/jobs.py) on SQLite and PostgreSQL: deferred in a transaction, they run if and
only if it committed; a retried mail goes out once; a periodic job runs once per tick whatever
the number of workers (PostgreSQL)."""

import asyncio
import time

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from actions.effects import settle
from actions.runner import Done, act
from services import jobs
from services.database import transaction
from services.job_engine import work
from services.mail import MailDeliveryError, OutgoingMail
from services.mail_job import mail_later, send_once
from services.outages import TIMED_OUT, find_outage
from tests.concurrency import postgres_only

RAN: list[str] = []


async def _note(text: str) -> None:
    RAN.append(text)


@pytest.fixture
def note_job(engine, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setitem(jobs._kinds, "test_note", jobs.JobKind("test_note", _note, ()))
    RAN.clear()
    return RAN


def _noting(text: str, fail: bool) -> Done[None]:
    with transaction() as db:
        jobs.defer(db, "test_note", text=text)
        if fail:
            raise RuntimeError("the action failed after deferring")
    return Done(None)


async def test_a_job_runs_if_and_only_if_its_transaction_committed(note_job: list[str]) -> None:
    with pytest.raises(RuntimeError):
        await act(_noting, "rolled back", True)
    await act(_noting, "committed", False)
    await settle()
    assert note_job == ["committed"]


def test_a_job_that_waited_too_long_to_be_stored_fails_as_the_actions_statements_do(
    engine, note_job: list[str]
) -> None:
    """Callers tell an outage by SQLAlchemy's errors (a chat send says "not sent"); the job
    engine writes on the driver's own connection, whose errors must read the same."""
    postgres_only(engine)
    with engine.connect() as holder:
        holder.execute(text("LOCK TABLE procrastinate_jobs IN ACCESS EXCLUSIVE MODE"))
        with pytest.raises(OperationalError) as failed, transaction() as db:
            db.execute(text("SET LOCAL lock_timeout = 50"))
            jobs.defer(db, "test_note", text="waited")
        holder.rollback()
    outage = find_outage(failed.value)
    assert outage is not None and (outage.service, outage.state) == ("database", TIMED_OUT)


def _mail(to: str = "anna@example.com") -> OutgoingMail:
    return OutgoingMail(to, "Hello", "text", "<p>html</p>", "Site", "en", ("http://x/a",))


def _mailing() -> Done[None]:
    with transaction() as db:
        mail_later(db, _mail())
    return Done(None)


async def test_a_mail_refused_once_is_sent_once_on_its_retry(
    engine, outbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = jobs._kinds["send_mail"]
    monkeypatch.setitem(jobs._kinds, "send_mail", jobs.JobKind(kind.name, kind.run, (0.0,)))
    real, tries = send_once.__globals__["send_mail"], []

    def refused_once(mail: OutgoingMail) -> None:
        tries.append(mail.to)
        if len(tries) == 1:
            raise MailDeliveryError("the server is away")
        real(mail)

    monkeypatch.setitem(send_once.__globals__, "send_mail", refused_once)
    await act(_mailing)
    await settle()
    await settle()  # PostgreSQL: the retry, due at once
    assert len(tries) == 2 and [m["To"] for m in outbox()] == ["anna@example.com"]


async def test_a_mail_job_run_again_after_it_sent_sends_nothing(engine, outbox) -> None:
    await asyncio.to_thread(send_once, "mail:k1", _mail())
    await asyncio.to_thread(send_once, "mail:k1", _mail())  # a worker died before finishing
    assert len(outbox()) == 1


async def test_a_periodic_job_runs_once_per_tick_with_two_workers(
    engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two procrastinate workers (two instances), one tick a second: one job, and one run, each
    tick. A run may start late on a busy machine, so the runs are counted against the jobs the
    workers deferred (kept for the count), not against the seconds they ran in."""
    postgres_only(engine)
    ticks: list[float] = []
    started = int(time.time())

    async def tick() -> None:
        ticks.append(time.time())

    monkeypatch.setattr(
        jobs, "_kinds", {"test_tick": jobs.JobKind("test_tick", tick, (), "* * * * * *")}
    )
    workers = [
        asyncio.create_task(
            work(
                engine.url, listen_notify=False, fetch_job_polling_interval=0.1, delete_jobs="never"
            )
        )
        for _ in range(2)
    ]
    await asyncio.sleep(3.5)
    for worker in workers:
        worker.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    jobs_by_tick = _jobs_of(engine, "test_tick", started)
    succeeded = [tick for tick, status in jobs_by_tick if status == "succeeded"]
    assert len({tick for tick, _ in jobs_by_tick}) == len(jobs_by_tick), jobs_by_tick
    # a run the cancel caught before its job was marked done counts as a run, not a success
    assert 2 <= len(succeeded) <= len(ticks) <= len(jobs_by_tick) <= 5, (ticks, jobs_by_tick)


def _jobs_of(engine: Engine, task_name: str, since: int) -> list[tuple[int, str]]:
    """(tick timestamp, status) of each job procrastinate deferred for the periodic task."""
    query = text(
        "SELECT (args->>'timestamp')::bigint, status::text FROM procrastinate_jobs"
        " WHERE task_name = :task AND (args->>'timestamp')::bigint >= :since"
    )
    with engine.connect() as connection:
        rows = connection.execute(query, {"task": task_name, "since": since})
        return [(tick, status) for tick, status in rows]
