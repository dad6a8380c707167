"""PostgreSQL on the serving event loop: a small psycopg pool the loop owns, for the one-statement
checks every event, request and live push makes (actions/viewer.viewer_now,
actions/chat.arrived) and for a chat text's send (actions/chat.send_outside, a few statements in
one transaction). Such work through the thread pool costs a hop to a database thread and back,
and SQLAlchemy's execution, several times the statements' own CPU (docs/chat.md); here each is
a prepared statement on the loop.

The pool lives on the web process's loop (`serve_on_loop`, a lifespan task). Whatever it cannot
serve at once goes `ELSEWHERE`, and the caller runs the same statement on the thread path
(SQLAlchemy's pool): on any other loop (a test's, a script's), on SQLite, when all its
connections are busy, and when its connection turns out lost (a database restart: the thread
path's pool reconnects at once, where psycopg's reconnects with a backoff). So what runs here
must be safe to run twice: a read, a write that sets what it sets, or a transaction that a
second run finds done (a send's client id).
"""

import asyncio
import enum
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import psycopg
from psycopg.rows import namedtuple_row
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import Executable
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.exc import DBAPIError

from models.db import SERVING_TIMEOUTS, libpq_url
from services import database
from services.outages import UNREACHABLE, find_outage

# Checks take well under a millisecond, a text's send a few: two connections serve a busy worker
# (bench/capacity.py's 90 messages a second), and what finds both busy takes the thread path.
# Each is held for good, per worker: PostgreSQL's max_connections is shared with every other
# pool (docs/deploy.md; CI's 100 ran out at 4 a worker).
POOL_SIZE = 2
# A free connection can be taken by another task between the look and the checkout; it comes
# back within a statement's time, so this is only a bound.
CHECKOUT_SECONDS = 1.0
APPLICATION_NAME = "loop-checks"  # how its connections show in pg_stat_activity
# How long psycopg tries to replace a lost connection before it gives up (its default);
# `_start_again` then sets it trying again.
RECONNECT_SECONDS = 300.0
_DIALECT = PGDialect_psycopg()
T = TypeVar("T")
Processor = Callable[[Any], Any]


class Elsewhere(enum.Enum):
    ELSEWHERE = "run it on the thread path"


ELSEWHERE = Elsewhere.ELSEWHERE


@dataclass(frozen=True)
class LoopStatement:
    """A SQLAlchemy statement compiled once for psycopg: its SQL, the values of the parameters
    it fixes itself (an IN list), the caller passes the named ones; and for a SELECT its
    columns' result processing (a UTC datetime), as SQLAlchemy's own results apply it."""

    sql: str
    fixed: Mapping[str, Any]
    processors: tuple[Processor | None, ...] = ()

    @classmethod
    def of(cls, statement: Executable) -> "LoopStatement":
        compiled = statement.compile(dialect=_DIALECT)
        named = {name: None for name, bind in compiled.binds.items() if bind.required}
        expanded = compiled.construct_expanded_state(named)
        fixed = {name: value for name, value in expanded.parameters.items() if name not in named}
        columns = getattr(statement, "selected_columns", ())
        processors = tuple(
            column.type.dialect_impl(_DIALECT).result_processor(_DIALECT, None)
            for column in columns
        )
        return cls(expanded.statement, fixed, processors if any(processors) else ())

    async def first(self, connection: psycopg.AsyncConnection, params: Mapping[str, Any]) -> Any:
        """The first row on `connection` as the driver gives it, or None."""
        cursor = await connection.execute(self.sql, {**self.fixed, **params}, prepare=True)
        return await cursor.fetchone()

    def processed(self, row: Sequence[Any]) -> tuple:
        if not self.processors:
            return tuple(row)
        return tuple(
            value if process is None else process(value)
            for process, value in zip(self.processors, row, strict=True)
        )


_serving: tuple[asyncio.AbstractEventLoop, AsyncConnectionPool] | None = None


def on_this_loop() -> AsyncConnectionPool | None:
    """The pool, when the running loop is the one that serves with it."""
    if _serving is None:
        return None
    loop, pool = _serving
    return pool if loop is asyncio.get_running_loop() else None


@asynccontextmanager
async def serve_on_loop(*, wait: bool = False) -> AsyncIterator[None]:
    """The web process's lifespan task: the pool on PostgreSQL, for as long as the app serves.
    It connects in the background (a database that is away delays no start-up) unless told to
    `wait` for its connections (tests)."""
    global _serving
    engine = database.get_engine()
    if engine.dialect.name != "postgresql":
        yield
        return
    pool = AsyncConnectionPool(
        libpq_url(engine.url),
        min_size=POOL_SIZE,
        max_size=POOL_SIZE,
        timeout=CHECKOUT_SECONDS,
        kwargs={
            "autocommit": True,
            "row_factory": namedtuple_row,
            "options": SERVING_TIMEOUTS,
            "application_name": APPLICATION_NAME,
        },
        reconnect_timeout=RECONNECT_SECONDS,
        reconnect_failed=_start_again,
        open=False,
    )
    await pool.open(wait=wait)
    _serving = (asyncio.get_running_loop(), pool)
    try:
        yield
    finally:
        _serving = None
        await pool.close()


async def _start_again(pool: AsyncConnectionPool) -> None:
    """psycopg gives a connection up after RECONNECT_SECONDS of a database away and would stay
    short of it for good (the checks then never ask it for one): `check` starts it growing
    again."""
    await pool.check()


async def loop_row(statement: LoopStatement, params: Mapping[str, Any]) -> Any:
    """The statement's first row (a named tuple) or None, committed (autocommit); `ELSEWHERE`
    when this loop cannot run it now. The driver's other errors come out as SQLAlchemy's, as on
    the thread path: services/outages reads both alike."""
    return await _on_connection(partial(statement.first, params=params))


class LoopTransaction:
    """A transaction on one of the loop's connections (`in_loop_transaction`)."""

    def __init__(self, connection: psycopg.AsyncConnection) -> None:
        self.connection = connection

    async def row(self, statement: LoopStatement, params: Mapping[str, Any]) -> tuple | None:
        """The statement's first row, its columns processed, or None."""
        row = await statement.first(self.connection, params)
        return statement.processed(row) if row is not None else None


async def in_loop_transaction(work: Callable[[LoopTransaction], Awaitable[T]]) -> T | Elsewhere:
    """`work` in one transaction, committed when it returns, rolled back when it raises;
    `ELSEWHERE` when this loop cannot run it now or its connection was lost on the way (nothing
    it wrote was committed, unless the loss came with the COMMIT: what runs here must find its
    own earlier run, as a send finds its client id)."""

    async def in_transaction(connection: psycopg.AsyncConnection) -> T:
        async with connection.transaction():
            return await work(LoopTransaction(connection))

    return await _on_connection(in_transaction)


async def _on_connection(
    work: Callable[[psycopg.AsyncConnection], Awaitable[T]],
) -> T | Elsewhere:
    pool = on_this_loop()
    if pool is None or not pool.get_stats()["pool_available"]:
        return ELSEWHERE
    try:
        async with pool.connection() as connection:
            return await work(connection)
    except psycopg.Error as error:
        if (outage := find_outage(error)) is not None and outage.state == UNREACHABLE:
            return ELSEWHERE
        raise DBAPIError.instance(None, None, error, psycopg.Error) from error
