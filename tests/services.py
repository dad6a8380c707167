"""Databases on the shared PostgreSQL and Redis servers: emptied, or made for a test, a
pytest-xdist worker or a bench of its own; shared by the fixtures, the e2e servers and the
benches. `require_services` skips (in CI: fails) a test that needs both servers unconfigured."""

import os
from functools import cache
from urllib.parse import urlsplit, urlunsplit

import pytest
from sqlalchemy import Engine, MetaData, make_url, text

from models.db import make_engine
from services.config import _sqlalchemy_url

IN_CI = bool(os.environ.get("CI"))


def require_services() -> tuple[str, str]:
    """DATABASE_URL (PostgreSQL) and REDIS_URL, for a test that needs both; without them it is
    skipped, and failed in CI."""
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if database_url.startswith("postgres") and redis_url:
        return database_url, redis_url
    reason = "this test needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)"
    if IN_CI:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@cache
def _engine(url: str) -> Engine:
    return make_engine(_sqlalchemy_url(url))


def wipe_postgres_schema(url: str) -> None:
    """Drop every table, migrated or not, by recreating the public schema."""
    with _engine(url).begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))


_RESTART_SEQUENCES = text(
    "SELECT setval(c.oid, 1, false) FROM pg_class c"
    " JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE c.relkind = 'S' AND n.nspname = 'public'"
)


def empty_postgres_tables(url: str, metadata: MetaData, also: tuple[str, ...] = ()) -> None:
    """Every table of `metadata` (and the tables `also`) emptied, children first, and every
    sequence restarted, in one transaction. For the few rows a test writes, DELETE takes about
    5 ms where TRUNCATE, which makes new files for every table and index, took about 150."""
    names = [*also, *(table.name for table in reversed(metadata.sorted_tables))]
    deletes = "; ".join(f'DELETE FROM "{name}"' for name in names)
    with _engine(url).begin() as connection:
        connection.execute(text(deletes))
        connection.execute(_RESTART_SEQUENCES)


def own_database(url: str, name: str) -> str:
    """The PostgreSQL database `name` on url's server, created when missing; its URL as
    DATABASE_URL takes it (postgresql://...)."""
    server = make_url(_sqlalchemy_url(url))
    admin = make_engine(server.set(database="postgres").render_as_string(hide_password=False))
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        found = connection.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
        ).first()
        if found is None:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    plain = server.set(drivername="postgresql", database=name)
    return plain.render_as_string(hide_password=False)


def redis_database(url: str, number: int) -> str:
    """url's Redis server, database `number`: the tab registry is keyed by member id, so two
    sites with their own PostgreSQL databases must not share a Redis database."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{number}"))
