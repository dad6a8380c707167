"""A database or Redis that cannot be reached, or that timed out, is logged in one line;
anything else with its traceback (services/outages.py). The database's errors are real ones:
SQLAlchemy raises `OperationalError` for outages and bugs alike."""

import logging
import socket
import sqlite3
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from services.outages import OutageLines, find_outage, log_failure
from tests.concurrency import postgres_only

log = logging.getLogger("services.test_outages")


class Wrapped(Exception):
    pass


def raised(call: Callable[[], object]) -> BaseException:
    """What `call` raises."""
    try:
        call()
    except BaseException as error:
        return error
    raise AssertionError("nothing was raised")


def raised_from(cause: BaseException) -> Wrapped:
    try:
        raise Wrapped("while pushing") from cause
    except Wrapped as error:
        return error


def raised_while_handling(first: BaseException) -> Wrapped:
    try:
        try:
            raise first
        except type(first):
            raise Wrapped("cleaning up failed")  # noqa: B904 - the implicit __context__ is the point
    except Wrapped as error:
        return error


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(engine: Engine, *statements: str) -> None:
    with engine.connect() as connection:
        for statement in statements:
            connection.execute(text(statement))


def outage(error: BaseException) -> tuple[str, str] | None:
    found = find_outage(error)
    return None if found is None else (found.service, found.state)


def logged(caplog: pytest.LogCaptureFixture, error: BaseException) -> logging.LogRecord:
    with caplog.at_level(logging.INFO, logger=log.name):
        log_failure(log, "an event on %s failed", "/chats", error=error)
    [record] = caplog.records
    return record


def test_sqlite_bugs_keep_their_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """SQLite raises OperationalError for a missing table and a syntax error: bugs."""
    engine = create_engine("sqlite://")
    missing = raised(lambda: run(engine, "SELECT * FROM no_such_table"))
    syntax = raised(lambda: run(engine, "SELEC 1"))
    assert isinstance(missing, OperationalError) and "no such table" in str(missing)
    assert isinstance(syntax, OperationalError) and "syntax error" in str(syntax)
    assert outage(missing) is None and outage(syntax) is None

    record = logged(caplog, missing)
    assert record.exc_info is not None and record.getMessage() == "an event on /chats failed"


def test_sqlite_that_cannot_open_its_file_is_unreachable(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}")
    error = raised(lambda: run(engine, "SELECT 1"))
    assert "unable to open" in str(error)
    assert outage(error) == ("database", "unreachable")


def test_sqlite_locked_by_another_writer_timed_out(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
    error = raised(lambda: run(engine, "CREATE TABLE t (x INTEGER)"))
    holder.close()
    assert "database is locked" in str(error)
    assert outage(error) == ("database", "timed out")


def test_postgresql_refusing_connections_is_unreachable(caplog: pytest.LogCaptureFixture) -> None:
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{closed_port()}/fe")
    error = raised(lambda: run(engine, "SELECT 1"))
    assert isinstance(error, OperationalError) and "refused" in str(error)
    assert outage(error) == ("database", "unreachable")

    record = logged(caplog, error)
    assert record.exc_info is None
    assert record.getMessage().startswith(
        "an event on /chats failed: database unreachable (OperationalError: "
    )


def test_postgresql_timeouts_are_one_line_and_a_deadlock_a_bug(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    postgres_only(engine)
    with engine.connect() as holder:
        holder.execute(text("LOCK TABLE sitesetting IN ACCESS EXCLUSIVE MODE"))
        lock_wait = raised(
            lambda: run(engine, "SET lock_timeout = 50", "SELECT * FROM sitesetting")
        )
        holder.rollback()
    slow = raised(lambda: run(engine, "SET statement_timeout = 50", "SELECT pg_sleep(5)"))
    deadlock = raised(
        lambda: run(engine, "DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '40P01'; END $$")
    )
    assert "lock timeout" in str(lock_wait) and "statement timeout" in str(slow)
    assert isinstance(deadlock, OperationalError)  # as a real deadlock is
    assert outage(lock_wait) == outage(slow) == ("database", "timed out")
    assert outage(deadlock) is None

    record = logged(caplog, lock_wait)
    assert record.exc_info is None
    assert record.getMessage().startswith(
        "an event on /chats failed: database timed out (OperationalError: "
    )


def test_a_connection_the_server_ended_is_unreachable(engine: Engine) -> None:
    postgres_only(engine)
    with engine.connect() as ended:
        pid = ended.execute(text("SELECT pg_backend_pid()")).scalar()
        run(engine, f"SELECT pg_terminate_backend({pid})")
        error = raised(lambda: ended.execute(text("SELECT 1")))
    assert outage(error) == ("database", "unreachable")


@pytest.mark.parametrize(
    ("error", "found"),
    [
        (PoolTimeoutError("QueuePool limit reached"), ("database", "timed out")),
        (RedisConnectionError("Error 111 connecting to 127.0.0.1:6379."), ("Redis", "unreachable")),
        (BusyLoadingError("Redis is loading the dataset in memory"), ("Redis", "unreachable")),
        (RedisTimeoutError("Timeout reading from socket"), ("Redis", "timed out")),
        (raised_from(RedisConnectionError("gone")), ("Redis", "unreachable")),
        (raised_while_handling(RedisConnectionError("gone")), ("Redis", "unreachable")),
        (ExceptionGroup("tasks", [ValueError("x"), RedisConnectionError("gone")]),
         ("Redis", "unreachable")),
        (raised_from(ExceptionGroup("tasks", [RedisTimeoutError("slow")])), ("Redis", "timed out")),
        (IntegrityError("INSERT", {}, Exception("duplicate key")), None),
        (ValueError("a bug"), None),
    ],
)  # fmt: skip
def test_an_outage_is_told_apart_from_a_bug(error: BaseException, found: tuple | None) -> None:
    assert outage(error) == found


def test_the_line_names_the_error_that_says_so(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=log.name):
        try:
            raise raised_from(RedisConnectionError("Error 111 connecting\nmore"))
        except Wrapped:
            log_failure(log, "push to member %s failed", 7)

    [record] = caplog.records
    assert record.levelname == "ERROR" and record.exc_info is None
    assert record.getMessage() == (
        "push to member 7 failed: Redis unreachable (ConnectionError: Error 111 connecting)"
    )


def test_a_bug_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=log.name):
        log_failure(log, "effect failed", error=ValueError("a bug"))

    [record] = caplog.records
    assert record.levelname == "ERROR" and record.exc_info is not None
    assert record.getMessage() == "effect failed"


def test_psycopgs_own_refusal_is_unreachable() -> None:
    """The job engine's pool raises psycopg's errors, not SQLAlchemy's."""
    url = f"postgresql://postgres@127.0.0.1:{closed_port()}/x?connect_timeout=2"
    error = raised(lambda: psycopg.connect(url))
    assert outage(raised_from(error)) == ("database", "unreachable")


@pytest.mark.parametrize("outage_error", [True, False])
def test_a_librarys_outage_record_becomes_one_line(outage_error: bool) -> None:
    """procrastinate logs its failures with tracebacks (services/logs.py filters them)."""
    cause = RedisConnectionError("gone\nmore") if outage_error else ValueError("a bug")
    error = raised_from(cause)
    record = logging.LogRecord(
        "procrastinate.worker", logging.ERROR, __file__, 1, "Side task %s failed", ("listener",),
        (type(error), error, error.__traceback__),
    )  # fmt: skip
    assert OutageLines().filter(record)
    line = logging.Formatter().format(record)
    if outage_error:
        assert line == "Side task listener failed: Redis unreachable (ConnectionError: gone)"
    else:
        assert "Traceback" in line and "ValueError: a bug" in line
