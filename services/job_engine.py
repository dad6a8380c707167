"""procrastinate, the job engine on PostgreSQL (docs/background-work.md): the jobs of
services/jobs.py as its tasks, deferring on an action's own connection, the worker, the schema.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import procrastinate
import psycopg
from procrastinate.exceptions import ConnectorException
from procrastinate.jobs import Job
from procrastinate.manager import JobManager
from procrastinate.retry import BaseRetryStrategy, RetryDecision
from procrastinate.schema import SchemaManager
from sqlalchemy import URL
from sqlalchemy.exc import DBAPIError

from models.db import libpq_url
from services.jobs import JobKind, kinds

QUEUE = "default"
CONCURRENCY = 4  # jobs one worker runs at once: mails and rounds wait on the network
# The deferring halves only: they write on the connection they are given and never open a pool.
_DEFERRER = JobManager(procrastinate.SyncPsycopgConnector())
_LOOP_DEFERRER = JobManager(procrastinate.PsycopgConnector())


def defer_on(connection: psycopg.Connection, name: str, kwargs: dict[str, Any]) -> None:
    """Insert the job on `connection`, inside its open transaction. The driver's error comes
    out as SQLAlchemy's, as the action's other statements' do: a lock timeout here is the same
    outage to the caller (a chat send says "not sent", not the generic error)."""
    with _as_sqlalchemy_error(name, kwargs):
        _DEFERRER.defer_job(_job(name, kwargs), connection=connection)


async def defer_on_loop(
    connection: psycopg.AsyncConnection, name: str, kwargs: dict[str, Any]
) -> None:
    """`defer_on` for a transaction on the event loop (services/loop_database.py)."""
    with _as_sqlalchemy_error(name, kwargs):
        await _LOOP_DEFERRER.defer_job_async(_job(name, kwargs), connection=connection)


def _job(name: str, kwargs: dict[str, Any]) -> Job:
    return Job(queue=QUEUE, lock=None, queueing_lock=None, task_name=name, task_kwargs=kwargs)


@contextmanager
def _as_sqlalchemy_error(name: str, kwargs: dict[str, Any]) -> Iterator[None]:
    try:
        yield
    except ConnectorException as error:
        driver_error = error.__cause__
        if not isinstance(driver_error, psycopg.Error):
            raise
        raise DBAPIError.instance(f"defer {name}", kwargs, driver_error, psycopg.Error) from error


class Delays(BaseRetryStrategy):
    """Retry after each of `delays` seconds in turn, then fail for good."""

    def __init__(self, delays: tuple[float, ...]) -> None:
        self.delays = delays

    def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
        if job.attempts >= len(self.delays):
            return None
        return RetryDecision(retry_in={"seconds": self.delays[job.attempts]})


def job_app(database_url: str | URL, *, periodic: bool = True) -> procrastinate.App:
    """An app with every registered job as a task; `periodic` also schedules the periodic
    ones (a worker that only drains the queue, as tests do, leaves them out)."""
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(
            conninfo=libpq_url(database_url), min_size=1, max_size=CONCURRENCY + 2
        )
    )
    for kind in kinds().values():
        _register(app, kind, periodic)
    return app


def _register(app: procrastinate.App, kind: JobKind, periodic: bool) -> None:
    retry = Delays(kind.delays)
    if kind.cron is None:
        app.task(name=kind.name, queue=QUEUE, retry=retry)(kind.run)
        return

    async def tick(timestamp: int) -> None:
        await kind.run()

    # One round at a time (lock), and never a second one waiting behind it (queueing lock).
    task = app.task(
        name=kind.name, queue=QUEUE, retry=retry, lock=kind.name, queueing_lock=kind.name
    )(tick)
    if periodic:
        app.periodic(cron=kind.cron, periodic_id=kind.name)(task)


async def work(database_url: str | URL, **options: Any) -> None:
    """Run a worker until cancelled: the jobs as they come, the periodic ones on their ticks."""
    app = job_app(database_url)
    options = {"delete_jobs": "successful", **options}
    async with app.open_async():
        await app.run_worker_async(
            concurrency=CONCURRENCY, install_signal_handlers=False, **options
        )


async def run_due(database_url: str | URL) -> None:
    """Run the jobs due now, and those they defer, then return (tests)."""
    if not await _has_due_jobs(database_url):
        return
    app = job_app(database_url, periodic=False)
    async with app.open_async():
        await app.run_worker_async(
            wait=False, install_signal_handlers=False, listen_notify=False, delete_jobs="successful"
        )


_DUE = (
    "SELECT 1 FROM procrastinate_jobs WHERE status = 'todo'"
    " AND coalesce(scheduled_at, now()) <= now() LIMIT 1"
)


async def _has_due_jobs(database_url: str | URL) -> bool:
    async with await psycopg.AsyncConnection.connect(libpq_url(database_url)) as connection:
        found = await connection.execute("SELECT to_regclass('procrastinate_jobs')")
        if (await found.fetchone()) == (None,):
            return False
        return (await (await connection.execute(_DUE)).fetchone()) is not None


def schema_sql() -> str:
    """procrastinate's schema (tables, functions, triggers), for the migration and tests."""
    return SchemaManager.get_schema()
