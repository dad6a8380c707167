"""The serving loop's own PostgreSQL pool (services/loop_database.py): only on PostgreSQL and
only on the loop that opened it; what it cannot run at once goes to the thread path; a driver's
other errors come out as SQLAlchemy's; a transaction commits what returns and nothing of what
raises or lost its connection; after a long outage it connects again."""

import asyncio
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack

import pytest
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import Engine, column, func, select, table, text
from sqlalchemy.exc import ProgrammingError

import services.database
from models.db import make_engine
from services import loop_database
from services.loop_database import (
    APPLICATION_NAME,
    ELSEWHERE,
    POOL_SIZE,
    LoopStatement,
    LoopTransaction,
    in_loop_transaction,
    loop_row,
    on_this_loop,
    serve_on_loop,
)
from tests.network import CuttableProxy

MISSING = LoopStatement.of(select(column("id")).select_from(table("no_such_table")))
BACKEND = LoopStatement.of(select(func.pg_backend_pid().label("pid")))


def _postgres_only(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("the loop's pool is PostgreSQL's alone")


async def test_the_pool_serves_postgresql_on_its_own_loop_only(engine: Engine) -> None:
    async with serve_on_loop(wait=True):
        assert (on_this_loop() is not None) == (engine.dialect.name == "postgresql")
        elsewhere = await asyncio.to_thread(asyncio.run, _pool_on_another_loop())
    assert elsewhere is None
    assert on_this_loop() is None  # closed with the app


async def _pool_on_another_loop() -> object:
    return on_this_loop()


async def test_without_the_pool_a_statement_goes_to_the_thread_path(engine: Engine) -> None:
    assert await loop_row(BACKEND, {}) is ELSEWHERE
    async with serve_on_loop(wait=True):
        served = await loop_row(BACKEND, {})
    assert (served is ELSEWHERE) == (engine.dialect.name != "postgresql")


async def test_with_every_connection_busy_a_statement_goes_to_the_thread_path(
    engine: Engine,
) -> None:
    _postgres_only(engine)
    async with serve_on_loop(wait=True), AsyncExitStack() as busy:
        pool = on_this_loop()
        for _ in range(POOL_SIZE):
            await busy.enter_async_context(pool.connection())
        assert await loop_row(BACKEND, {}) is ELSEWHERE
        await busy.aclose()
        assert (await loop_row(BACKEND, {})).pid > 0


async def test_lost_connections_send_their_statements_to_the_thread_path(engine: Engine) -> None:
    """As after a database restart: a statement on a connection the server dropped is not an
    error; the caller runs it on the thread path, whose pool reconnects at once."""
    _postgres_only(engine)
    async with serve_on_loop(wait=True):
        with engine.connect() as connection:
            dropped = connection.execute(
                text(
                    "SELECT pid, pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name = :name"
                ),
                {"name": APPLICATION_NAME},
            ).all()
        assert len(dropped) == POOL_SIZE and all(terminated for _pid, terminated in dropped)
        first, *others = [await loop_row(BACKEND, {}) for _ in range(POOL_SIZE)]
    assert first is ELSEWHERE
    pids = {pid for pid, _ in dropped}
    assert all(row is ELSEWHERE or row.pid not in pids for row in others)


async def test_a_driver_error_comes_out_as_sqlalchemys(engine: Engine) -> None:
    _postgres_only(engine)
    async with serve_on_loop(wait=True):
        with pytest.raises(ProgrammingError, match="no_such_table"):
            await loop_row(MISSING, {})


async def _until(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    """Whether `condition()` came true within `seconds` (a bound, not a timing goal)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_after_an_outage_longer_than_psycopgs_patience_the_pool_connects_again(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """psycopg gives a lost connection up after its reconnect timeout; the pool must not stay
    empty for good once the database is back (the checks would all take the thread path)."""
    _postgres_only(engine)
    proxy = CuttableProxy(engine.url.port or 5432)
    proxied = make_engine(engine.url.set(host="127.0.0.1", port=proxy.port).render_as_string(False))
    monkeypatch.setattr(services.database, "get_engine", lambda: proxied)
    monkeypatch.setattr(loop_database, "RECONNECT_SECONDS", 0.5)
    gave_up: list[AsyncConnectionPool] = []

    async def start_again(pool: AsyncConnectionPool) -> None:
        gave_up.append(pool)
        await real_start_again(pool)

    real_start_again = loop_database._start_again
    monkeypatch.setattr(loop_database, "_start_again", start_again)
    proxy.restore()
    try:
        async with serve_on_loop(wait=True):
            pool = on_this_loop()
            proxy.cut()
            assert await loop_row(BACKEND, {}) is ELSEWHERE  # lost: replaced, which fails
            assert await _until(lambda: len(gave_up) >= 1), "psycopg never gave one up"
            proxy.restore()
            assert await _until(lambda: pool.get_stats()["pool_available"] == POOL_SIZE)
            assert (await loop_row(BACKEND, {})).pid > 0
    finally:
        proxy.close()
        proxied.dispose()


@pytest.fixture
def probe(engine: Engine) -> Iterator[Callable[[], list[int]]]:
    """A table of its own for the transactions' writes; the reader of what committed."""
    _postgres_only(engine)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE loop_probe (x int)"))

    def committed() -> list[int]:
        with engine.connect() as connection:
            return list(connection.execute(text("SELECT x FROM loop_probe ORDER BY x")).scalars())

    yield committed
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE loop_probe"))


INSERT = LoopStatement("INSERT INTO loop_probe VALUES (%(x)s) RETURNING x", {})


async def _put(transaction: LoopTransaction, x: int) -> tuple | None:
    return await transaction.row(INSERT, {"x": x})


async def test_a_transaction_commits_what_returns_and_nothing_of_what_raises(probe) -> None:
    async def two_then_fail(transaction: LoopTransaction) -> None:
        await _put(transaction, 2)
        raise LookupError("refused")

    async with serve_on_loop(wait=True):
        assert await in_loop_transaction(lambda transaction: _put(transaction, 1)) == (1,)
        with pytest.raises(LookupError):
            await in_loop_transaction(two_then_fail)
    assert probe() == [1]


async def test_with_every_connection_busy_a_transaction_goes_to_the_thread_path(probe) -> None:
    async with serve_on_loop(wait=True), AsyncExitStack() as busy:
        pool = on_this_loop()
        for _ in range(POOL_SIZE):
            await busy.enter_async_context(pool.connection())
        assert await in_loop_transaction(lambda transaction: _put(transaction, 1)) is ELSEWHERE
    assert probe() == []


async def test_a_transaction_that_lost_its_connection_goes_to_the_thread_path(
    engine: Engine, probe
) -> None:
    """Its writes so far are gone with it; the caller runs the whole of it again elsewhere."""

    async def cut_midway(transaction: LoopTransaction) -> None:
        await _put(transaction, 1)
        pid = transaction.connection.info.backend_pid
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid})
        await _put(transaction, 2)

    async with serve_on_loop(wait=True):
        assert await in_loop_transaction(cut_midway) is ELSEWHERE
    assert probe() == []
