"""The pool's ping (models/db.py): a connection checked out again right after its check-in is
used without a round trip; one idle for longer than PING_AFTER_IDLE is pinged first, and one
the server ended is replaced before anybody's statement runs on it."""

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text

import models.db
from models.db import make_engine


@pytest.fixture
def postgres(database_url: str) -> Iterator[Engine]:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no server to lose")
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


def _backend(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT pg_backend_pid()")).scalar_one()


def _count_pings(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    pings: list[object] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection: object) -> bool:
        pings.append(dbapi_connection)
        return ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def test_a_connection_used_again_at_once_is_not_pinged(postgres, monkeypatch) -> None:
    pings = _count_pings(postgres, monkeypatch)
    first = _backend(postgres)
    assert [_backend(postgres) for _ in range(3)] == [first] * 3
    assert pings == []


def test_an_idle_connection_the_server_ended_is_replaced_unseen(postgres, monkeypatch) -> None:
    pings = _count_pings(postgres, monkeypatch)
    ended = _backend(postgres)
    with make_engine(postgres.url.render_as_string(hide_password=False)).connect() as other:
        other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": ended})
    monkeypatch.setattr(models.db, "PING_AFTER_IDLE", 0.0)  # idle "long enough" at once

    assert _backend(postgres) != ended
    assert len(pings) == 1
