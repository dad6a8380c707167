"""A database or Redis that cannot be reached (or timed out), told apart from a bug.

During an outage every click and every background round fails the same way; a traceback for
each would bury the log. `log_failure` writes one line naming the service for an outage or a
timeout and keeps the traceback for anything else: SQLAlchemy's `OperationalError` alone says
nothing, SQLite raises it for a missing table or a syntax error and PostgreSQL for a deadlock.
"""

import logging
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

UNREACHABLE = "unreachable"
TIMED_OUT = "timed out"
MAX_DETAIL = 200  # characters of the driver's message kept in the line

# PostgreSQL's SQLSTATEs of an outage: class 08 (connection exception), 57P01-57P05 (the server
# shut down, crashed, not yet accepting connections, the database dropped, an idle session
# ended); and of a timeout: lock_timeout (55P03) and statement_timeout (57014).
_PG_TIMEOUTS = frozenset({"55P03", "57014"})
# SQLite's primary result codes: the file cannot be opened, or another writer held the lock
# for longer than the busy timeout.
_SQLITE = {sqlite3.SQLITE_CANTOPEN: UNREACHABLE, sqlite3.SQLITE_BUSY: TIMED_OUT}


@dataclass(frozen=True)
class Outage:
    service: str  # "database" or "Redis"
    state: str  # UNREACHABLE or TIMED_OUT
    error: BaseException  # the exception that says so


def find_outage(error: BaseException | None) -> Outage | None:
    """The outage `error`, or an error it was raised from or while handling (also inside an
    exception group), reports; None for anything else."""
    for found in _chain(error):
        if (state := _database_state(found)) is not None:
            return Outage("database", state, found)
        if isinstance(found, RedisTimeoutError):
            return Outage("Redis", TIMED_OUT, found)
        if isinstance(found, RedisConnectionError):  # refused, lost, or still loading its data
            return Outage("Redis", UNREACHABLE, found)
    return None


def _chain(error: BaseException | None) -> Iterator[BaseException]:
    """`error`, then what it was raised from and while handling, each once."""
    pending, seen = [error], set()
    while pending:
        current = pending.pop(0)
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        pending.extend((current.__cause__, current.__context__))


def _database_state(error: BaseException) -> str | None:
    if isinstance(error, psycopg.Error):  # raised by psycopg itself (the job engine's pool)
        return _driver_state(error)
    if isinstance(error, DisconnectionError):
        return UNREACHABLE
    if isinstance(error, PoolTimeoutError):  # no pooled connection came free in time
        return TIMED_OUT
    if not isinstance(error, DBAPIError):
        return None
    if error.connection_invalidated:
        return UNREACHABLE
    return _driver_state(error.orig)


def _driver_state(orig: BaseException | None) -> str | None:
    if isinstance(orig, psycopg.Error):
        code = orig.sqlstate
        if code is None:  # psycopg's own: the connection failed, closed or its socket broke
            return UNREACHABLE if isinstance(orig, psycopg.OperationalError) else None
        if code.startswith("08") or code.startswith("57P0"):
            return UNREACHABLE
        return TIMED_OUT if code in _PG_TIMEOUTS else None
    if isinstance(orig, sqlite3.Error):
        return _SQLITE.get(getattr(orig, "sqlite_errorcode", -1) & 0xFF)
    return None


def log_failure(
    log: logging.Logger, message: str, *args: object, error: BaseException | None = None
) -> None:
    """Log `error` (else the exception being handled) after `message`: one line when the
    database or Redis is unreachable or timed out, with its traceback when it is anything
    else."""
    error = error if error is not None else sys.exc_info()[1]
    outage = find_outage(error)
    if outage is None:
        log.error(message, *args, exc_info=error)
        return
    log.error(f"{message}: %s", *args, outage_line(outage))


def outage_line(outage: Outage) -> str:
    """What follows the message: `database unreachable (OperationalError: first line)`."""
    lines = str(outage.error).strip().splitlines()
    detail = lines[0][:MAX_DETAIL] if lines else ""
    return f"{outage.service} {outage.state} ({type(outage.error).__name__}: {detail})"


class OutageLines(logging.Filter):
    """For a library's logger (procrastinate's): a record whose exception is an outage becomes
    one line, as `log_failure` writes it; any other keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        outage = find_outage(error)
        if outage is not None:
            record.msg, record.args = f"{record.getMessage()}: {outage_line(outage)}", ()
            record.exc_info = record.exc_text = None
        return True
