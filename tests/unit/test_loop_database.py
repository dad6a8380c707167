"""The serving loop's own PostgreSQL pool (services/loop_database.py): only on PostgreSQL and
only on the loop that opened it; what it cannot run at once goes to the thread path; a driver's
other errors come out as SQLAlchemy's."""

import asyncio
from contextlib import AsyncExitStack

import pytest
from sqlalchemy import Engine, column, func, select, table, text
from sqlalchemy.exc import ProgrammingError

from services.loop_database import (
    APPLICATION_NAME,
    ELSEWHERE,
    POOL_SIZE,
    LoopStatement,
    loop_row,
    on_this_loop,
    serve_on_loop,
)

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
