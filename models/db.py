"""Engine construction with the per-dialect settings the site relies on."""

from pathlib import Path

from sqlalchemy import Engine, event, make_url
from sqlmodel import create_engine


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        if database := make_url(url).database:
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
