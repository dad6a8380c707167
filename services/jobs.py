"""Durable background work on procrastinate (docs/background-work.md), one facade for both
databases.

A job is an async function registered by name with `@job(name, delays)`, or with
`@periodic(name, cron)` for work done once per period. An action defers a job inside its
transaction, `defer(db, name, **kwargs)` (JSON-able arguments):

- on PostgreSQL the job is a procrastinate row written on the action's own connection, so it
  exists if and only if the action committed; a worker (in the web process, or
  `python -m app.worker`) runs it, again after each of `delays` while it raises, and defers each
  periodic job once per tick across every worker and instance;
- on SQLite (the embedded default) the same function runs in this process once the transaction
  committed, with the same delays; the periodic jobs run in process (`run_jobs`).
"""

import asyncio
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from croniter import croniter
from sqlalchemy import event
from sqlmodel import Session

from services import database
from services.config import get_config
from services.loop_database import LoopTransaction
from services.metrics import JOBS_FAILED, JOBS_RUNNING
from services.outages import log_failure

log = logging.getLogger(__name__)
JobFunction = Callable[..., Awaitable[None]]
F = TypeVar("F", bound=JobFunction)
_PENDING = "deferred_jobs"  # Session.info key: SQLite jobs waiting for the commit


@dataclass(frozen=True)
class JobKind:
    name: str
    run: JobFunction
    delays: tuple[float, ...]  # seconds before each retry; after the last, it failed for good
    cron: str | None = None  # periodic: croniter syntax, a 6th field for seconds


@dataclass(frozen=True)
class Call:
    name: str
    kwargs: dict[str, Any] = field(default_factory=dict)


_kinds: dict[str, JobKind] = {}


def job(name: str, delays: tuple[float, ...] = ()) -> Callable[[F], F]:
    """Register the decorated coroutine function as the job `name`."""
    return _registering(name, delays, None)


def periodic(name: str, cron: str, delays: tuple[float, ...] = ()) -> Callable[[F], F]:
    """Register the decorated coroutine function (no arguments) to run once per `cron` tick."""
    return _registering(name, delays, cron)


def _registering(name: str, delays: tuple[float, ...], cron: str | None) -> Callable[[F], F]:
    def register(run: F) -> F:
        if name in _kinds and _kinds[name].run is not run:
            raise ValueError(f"job {name!r} registered twice")
        _kinds[name] = JobKind(name, run, delays, cron)
        return run

    return register


def kinds() -> dict[str, JobKind]:
    return dict(_kinds)


def _checked(name: str, kwargs: dict[str, Any]) -> None:
    if name not in _kinds:
        raise KeyError(f"no job {name!r}")
    json.dumps(kwargs)  # arguments that cannot be stored fail here, in the action


def defer(db: Session, name: str, **kwargs: Any) -> None:
    """Defer the job `name` in `db`'s transaction: it runs once that commits, never if not."""
    _checked(name, kwargs)
    if db.get_bind().dialect.name == "postgresql":
        from services.job_engine import defer_on  # procrastinate only where it runs

        defer_on(db.connection().connection.driver_connection, name, kwargs)
        return
    pending = db.info.setdefault(_PENDING, [])
    if not pending:
        event.listen(db, "after_commit", _committed)
        event.listen(db, "after_rollback", _rolled_back)
    pending.append(Call(name, kwargs))


async def defer_on_loop(transaction: LoopTransaction, name: str, **kwargs: Any) -> None:
    """`defer` in a transaction on the event loop's own connection (PostgreSQL only)."""
    _checked(name, kwargs)
    from services.job_engine import defer_on_loop as defer_job

    await defer_job(transaction.connection, name, kwargs)


def _committed(db: Session) -> None:
    if not db.in_nested_transaction():  # the outermost commit, not a savepoint's
        _hand_over(db.info.pop(_PENDING, []))


def _rolled_back(db: Session) -> None:
    if not db.in_nested_transaction():
        db.info.pop(_PENDING, None)


# -- running jobs in this process (SQLite) --------------------------------------------------

_collector = threading.local()
_tasks: set[asyncio.Task] = set()
_waiting: deque[Call] = deque()  # committed on a thread with no event loop (appends are atomic)
WAITING_POLL_SECONDS = 1.0
RESTART_SECONDS = 10.0


@contextmanager
def collecting() -> Iterator[list[Call]]:
    """Jobs committed on this thread inside the block are collected into the list, for the
    caller to `start` on its event loop (actions/runner.py)."""
    outer = getattr(_collector, "calls", None)
    _collector.calls = calls = []
    try:
        yield calls
    finally:
        _collector.calls = outer


def _hand_over(calls: list[Call]) -> None:
    collected = getattr(_collector, "calls", None)
    if collected is not None:
        collected.extend(calls)
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a thread of no event loop: the process's job loop takes them
        _waiting.extend(calls)
        return
    start(calls)


def _start_waiting() -> None:
    while _waiting:
        start([_waiting.popleft()])


def start(calls: list[Call]) -> None:
    """Run each call in the background on the running loop."""
    for call in calls:
        task = asyncio.ensure_future(run_now(call))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)


async def run_now(call: Call) -> bool:
    """Run the job, again after each of its delays while it raises; whether it succeeded."""
    with JOBS_RUNNING.track_inprogress():
        succeeded = await _run_with_retries(call)
    if not succeeded:
        JOBS_FAILED.labels(call.name).inc()
    return succeeded


async def _run_with_retries(call: Call) -> bool:
    kind = _kinds[call.name]
    for delay in (*kind.delays, None):
        try:
            await kind.run(**call.kwargs)
        except Exception as error:
            if delay is None:
                log_failure(log, f"job {call.name} failed for good", error=error)
                return False
            log_failure(log, f"job {call.name} failed; again in {delay:g} s", error=error)
            await asyncio.sleep(delay)
        else:
            return True
    return False


async def settle_local() -> None:
    """Wait for the jobs this loop started (tests)."""
    _start_waiting()
    loop = asyncio.get_running_loop()
    _tasks.difference_update([task for task in _tasks if task.get_loop().is_closed()])
    while pending := [task for task in _tasks if not task.done() and task.get_loop() is loop]:
        await asyncio.gather(*pending, return_exceptions=True)


# -- the worker ------------------------------------------------------------------------------


async def run_jobs() -> None:
    """The worker (`python -m app.worker`, and `run_jobs_here` in the web process): on
    PostgreSQL a procrastinate worker; on SQLite the periodic jobs on their ticks (the deferred
    ones run after their commit wherever that was)."""
    config = get_config()
    if config.uses_postgres:
        from services.job_engine import work

        await work(config.database_url)
        return
    periodic_jobs = (_every_tick(kind) for kind in _kinds.values() if kind.cron)
    await asyncio.gather(_take_waiting(), *periodic_jobs)


async def _take_waiting() -> None:
    while True:
        _start_waiting()
        await asyncio.sleep(WAITING_POLL_SECONDS)


async def run_jobs_here() -> None:
    """The web process's lifespan task: `run_jobs` unless JOB_WORKER=off; a worker that fails
    (the database away) starts again after a pause."""
    while get_config().job_worker:
        try:
            await run_jobs()
        except Exception as error:
            log_failure(log, "the job worker stopped; starting again", error=error)
        await asyncio.sleep(RESTART_SECONDS)


async def _every_tick(kind: JobKind) -> None:
    ticks = croniter(kind.cron, time.time())
    while True:
        await asyncio.sleep(max(0.0, ticks.get_next(float) - time.time()))
        await run_now(Call(kind.name))


async def settle() -> None:
    """Run every job deferred so far, and those they defer, until none is due (tests)."""
    await settle_local()
    engine = database.get_engine()
    if engine.dialect.name == "postgresql":
        from services.job_engine import run_due

        await run_due(engine.url)
