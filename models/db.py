"""Engine construction with the per-dialect settings the site relies on."""

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import URL, Column, Engine, event, exc, make_url, text
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel import Session, SQLModel, create_engine

M = TypeVar("M", bound=SQLModel)

# For the site's own engine: a statement waiting on a lock gives up inside Reflex's 5 s state
# lock (rxconfig.py), so the member gets an answer ("not sent, try again") instead of a lock
# that expired under them. Migrations and scripts build their engines without it.
SERVING_TIMEOUTS = "-c lock_timeout=3000 -c statement_timeout=6000"
# A pooled connection back in the pool for longer than this is pinged before it is used again
# (a server restarted, an idle timeout on the way); one back for less was alive a moment ago,
# when its reset (ROLLBACK) ran at check-in. SQLAlchemy's pool_pre_ping pings every checkout:
# a round trip that cost a read of the staff console as much again as its statement
# (bench/moderation.py).
PING_AFTER_IDLE = 1.0  # seconds
_IDLE_SINCE = "idle_since"  # ConnectionPoolEntry.info: when the connection was checked in


def make_engine(url: str, postgres_options: str = "") -> Engine:
    if url.startswith("sqlite"):
        if database := make_url(url).database:
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    engine = create_engine(
        url,
        pool_size=5,
        max_overflow=10,
        connect_args={"options": postgres_options} if postgres_options else {},
    )
    event.listen(engine, "checkin", _checked_in)
    event.listen(engine, "checkout", _ping_when_idle(engine))
    return engine


def libpq_url(database_url: str | URL) -> str:
    """The SQLAlchemy URL (postgresql+psycopg://...) as psycopg's own conninfo."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def _checked_in(_dbapi_connection, record: ConnectionPoolEntry) -> None:
    record.info[_IDLE_SINCE] = time.monotonic()


def _ping_when_idle(engine: Engine):
    """The pool's checkout hook: a connection idle for longer than PING_AFTER_IDLE is pinged; a
    dead one makes the pool replace every connection from before now (as pool_pre_ping does).
    A new connection has no check-in yet and is not pinged."""
    dialect = engine.dialect

    def checkout(dbapi_connection, record: ConnectionPoolEntry, _proxy) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since <= PING_AFTER_IDLE:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                raise exc.InvalidatePoolError() from error
            raise

    return checkout


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def detached(model: type[M], columns: Sequence[Column], values: Sequence[Any]) -> M:
    """A `model` row from a statement's plain columns (`select(*Model.__table__.c, ...)`): its
    values only, without the ORM's loading (a tenth of its cost) and in no session; for
    reading, never to add to one."""
    return model.model_construct(
        **{column.key: value for column, value in zip(columns, values, strict=True)}
    )


def _lock_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], signed=True)


def advisory_lock(db: Session, name: str) -> None:
    """On PostgreSQL, hold a lock on `name` until the transaction ends (SQLite writes one at a
    time anyway)."""
    if db.get_bind().dialect.name == "postgresql":
        key = _lock_key(name)
        db.exec(text("SELECT pg_advisory_xact_lock(:key)").bindparams(key=key))  # type: ignore[call-overload]


def is_ours(name: str | None, type_: str, _parent_names: object) -> bool:
    """Alembic's `include_name`: procrastinate's tables belong to its own schema
    (services/job_engine.py, migrations/versions/0023_jobs.py), not to the models."""
    return not (type_ == "table" and (name or "").startswith("procrastinate_"))
