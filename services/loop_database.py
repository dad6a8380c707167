"""PostgreSQL on the serving event loop: a small psycopg pool the loop owns, for the one-statement
checks every event, request and live push makes (actions/viewer.viewer_now,
actions/chat.arrived). Such a check through the thread pool costs a hop to a database thread and
back, three times the statement's own CPU (docs/chat.md); here it is one prepared statement on
the loop.

The pool lives on the web process's loop (`serve_on_loop`, a lifespan task). Elsewhere (SQLite,
a script, a test's own loop) `on_this_loop()` is None and the caller takes the thread path, which
runs the same statement through SQLAlchemy.
"""

import asyncio
import time
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import namedtuple_row
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import Executable
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.exc import DBAPIError

from models.db import PING_AFTER_IDLE, SERVING_TIMEOUTS, libpq_url
from services import database

POOL_SIZE = 4  # checks take well under a millisecond: a few connections serve a busy worker
CHECKOUT_SECONDS = 5.0  # as long as Reflex's state lock: a check waits no longer than an event
_DIALECT = PGDialect_psycopg()


@dataclass(frozen=True)
class LoopStatement:
    """A SQLAlchemy statement compiled once for psycopg: its SQL, and the values of the
    parameters it fixes itself (an IN list); the caller passes the named ones."""

    sql: str
    fixed: Mapping[str, Any]

    @classmethod
    def of(cls, statement: Executable) -> "LoopStatement":
        compiled = statement.compile(dialect=_DIALECT)
        named = {name: None for name, bind in compiled.binds.items() if bind.required}
        expanded = compiled.construct_expanded_state(named)
        fixed = {name: value for name, value in expanded.parameters.items() if name not in named}
        return cls(expanded.statement, fixed)


_serving: tuple[asyncio.AbstractEventLoop, AsyncConnectionPool] | None = None


def on_this_loop() -> AsyncConnectionPool | None:
    """The pool, when the running loop is the one that serves with it."""
    if _serving is None:
        return None
    loop, pool = _serving
    return pool if loop is asyncio.get_running_loop() else None


@asynccontextmanager
async def serve_on_loop() -> AsyncIterator[None]:
    """The web process's lifespan task: the pool on PostgreSQL, for as long as the app serves.
    It opens in the background, so a database that is away delays no start-up."""
    global _serving
    engine = database.get_engine()
    if engine.dialect.name != "postgresql":
        yield
        return
    pool = AsyncConnectionPool(
        libpq_url(engine.url),
        min_size=1,
        max_size=POOL_SIZE,
        timeout=CHECKOUT_SECONDS,
        kwargs={"autocommit": True, "row_factory": namedtuple_row, "options": SERVING_TIMEOUTS},
        check=_ping_when_idle,
        reset=_returned,
        open=False,
    )
    await pool.open(wait=False)
    _serving = (asyncio.get_running_loop(), pool)
    try:
        yield
    finally:
        _serving = None
        await pool.close()


# When each pooled connection came back: as the thread path's pool (models/db.py), a connection
# idle for longer than PING_AFTER_IDLE is pinged before use, and a dead one replaced, so a
# database restart costs no member's check an error.
_IDLE_SINCE: "weakref.WeakKeyDictionary[AsyncConnection, float]" = weakref.WeakKeyDictionary()


async def _returned(connection: AsyncConnection) -> None:
    _IDLE_SINCE[connection] = time.monotonic()


async def _ping_when_idle(connection: AsyncConnection) -> None:
    since = _IDLE_SINCE.get(connection)
    if since is not None and time.monotonic() - since > PING_AFTER_IDLE:
        await AsyncConnectionPool.check_connection(connection)


async def first_row(
    pool: AsyncConnectionPool, statement: LoopStatement, params: Mapping[str, Any]
) -> Any:
    """The statement's first row (a named tuple) or None, committed (autocommit). The driver's
    error comes out as SQLAlchemy's, as on the thread path: services/outages reads both alike."""
    values = {**statement.fixed, **params}
    try:
        async with pool.connection() as connection:
            cursor = await connection.execute(statement.sql, values, prepare=True)
            return await cursor.fetchone()
    except psycopg.Error as error:
        raise DBAPIError.instance(statement.sql, values, error, psycopg.Error) from error
