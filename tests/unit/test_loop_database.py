"""The serving loop's own PostgreSQL pool (services/loop_database.py): only on PostgreSQL and
only on the loop that opened it; a driver's error comes out as SQLAlchemy's."""

import asyncio

import pytest
from sqlalchemy import Engine, column, func, select, table, text
from sqlalchemy.exc import DBAPIError, ProgrammingError

import services.loop_database
from services.loop_database import LoopStatement, first_row, on_this_loop, serve_on_loop

MISSING = LoopStatement.of(select(column("id")).select_from(table("no_such_table")))
BACKEND = LoopStatement.of(select(func.pg_backend_pid().label("pid")))


async def test_the_pool_serves_postgresql_on_its_own_loop_only(engine: Engine) -> None:
    async with serve_on_loop():
        pool = on_this_loop()
        assert (pool is not None) == (engine.dialect.name == "postgresql")
        elsewhere = await asyncio.to_thread(asyncio.run, _pool_on_another_loop())
    assert elsewhere is None
    assert on_this_loop() is None  # closed with the app


async def _pool_on_another_loop() -> object:
    return on_this_loop()


async def test_a_driver_error_comes_out_as_sqlalchemys(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("the loop's pool is PostgreSQL's alone")
    async with serve_on_loop():
        pool = on_this_loop()
        assert pool is not None
        with pytest.raises(ProgrammingError) as raised:
            await first_row(pool, MISSING, {})
    assert isinstance(raised.value, DBAPIError) and "no_such_table" in str(raised.value)


async def test_a_connection_the_server_dropped_is_replaced_before_a_check_uses_it(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As after a database restart: the idle connection is pinged, found dead and replaced."""
    if engine.dialect.name != "postgresql":
        pytest.skip("the loop's pool is PostgreSQL's alone")
    monkeypatch.setattr(services.loop_database, "PING_AFTER_IDLE", 0.0)
    async with serve_on_loop():
        pool = on_this_loop()
        assert pool is not None
        dropped = (await first_row(pool, BACKEND, {})).pid
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": dropped})
        assert (await first_row(pool, BACKEND, {})).pid != dropped
