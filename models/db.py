"""Engine construction with the per-dialect settings the site relies on."""

import hashlib
from pathlib import Path

from sqlalchemy import Engine, event, make_url, text
from sqlmodel import Session, create_engine

# For the site's own engine: a statement waiting on a lock gives up well inside Reflex's 10 s
# state lock, so the member gets an answer ("not sent, try again") instead of a lock that
# expired under them. Migrations and scripts build their engines without it.
SERVING_TIMEOUTS = "-c lock_timeout=3000 -c statement_timeout=6000"


def make_engine(url: str, postgres_options: str = "") -> Engine:
    if url.startswith("sqlite"):
        if database := make_url(url).database:
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=5,
        max_overflow=10,
        connect_args={"options": postgres_options} if postgres_options else {},
    )


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def advisory_lock(db: Session, name: str) -> None:
    """On PostgreSQL, hold a lock on `name` until the transaction ends (SQLite writes one at a
    time anyway)."""
    if db.get_bind().dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], signed=True)
        db.exec(text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=key))  # type: ignore[call-overload]
