"""The configured database engine, the one transaction an action owns, and a session for
scripts and reads."""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from threading import local

from sqlalchemy import Connection, Engine
from sqlmodel import Session

from models.db import SERVING_TIMEOUTS, make_engine
from services.config import get_config


@cache
def get_engine() -> Engine:
    return make_engine(get_config().database_url, SERVING_TIMEOUTS)


def pool_capacity() -> int:
    """How many connections the engine hands out at once (its pool plus overflow)."""
    pool = get_engine().pool
    size = getattr(pool, "size", lambda: 5)()
    return max(1, size + max(0, getattr(pool, "_max_overflow", 0)))


_this_thread = local()


@contextmanager
def db_session() -> Iterator[Session]:
    with Session(get_engine(), expire_on_commit=False) as session:
        outer = getattr(_this_thread, "session", None)
        _this_thread.session = session
        try:
            yield session
        finally:
            _this_thread.session = outer


def open_session() -> Session | None:
    """The innermost session this thread has open, if any: code deep inside a transaction
    reads through it rather than waiting for a second connection from a pool it may be
    helping to exhaust. The one trap of a thread-local: never hold `db_session()` across an
    await on the event loop's thread, nor in a generator resumed on another thread."""
    return getattr(_this_thread, "session", None)


@contextmanager
def read_connection() -> Iterator[Connection]:
    """A pooled connection for a read of plain rows (Core, no ORM objects): lighter than a
    session for a page read often (the staff console's queue, bench/moderation.py). Rolled
    back when the block ends."""
    with get_engine().connect() as connection:
        yield connection


@contextmanager
def autocommit_connection() -> Iterator[Connection]:
    """A pooled connection that commits each statement: no BEGIN and no ROLLBACK round trip
    around a single statement (psycopg sends BEGIN on its own). For a check run on every event
    and every live push (actions/viewer.resolve_viewer), without a session's own cost; several
    statements each see their own snapshot, as under READ COMMITTED anyway."""
    with get_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        yield connection


@contextmanager
def transaction() -> Iterator[Session]:
    """One transaction: committed when the block ends, rolled back when it raises.

    On SQLite it takes the write lock at once (BEGIN IMMEDIATE): a transaction that read first
    and then writes would otherwise fail at once with "database is locked" whenever another
    writer committed in between (WAL), where waiting its turn is what every writer wants."""
    with db_session() as session:
        if session.get_bind().dialect.name == "sqlite":  # on the driver, as psycopg's BEGIN
            session.connection().connection.driver_connection.execute("BEGIN IMMEDIATE")
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
