"""Emptying the PostgreSQL test database: shared by the database fixtures and the e2e server."""

from sqlalchemy import MetaData, text

from models.db import make_engine
from services.config import _sqlalchemy_url


def wipe_postgres_schema(url: str) -> None:
    """Drop every table, migrated or not, by recreating the public schema."""
    engine = make_engine(_sqlalchemy_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def empty_postgres_tables(url: str, metadata: MetaData) -> None:
    """Every table of `metadata` emptied, its sequences restarted: one statement."""
    names = ", ".join(f'"{table.name}"' for table in metadata.sorted_tables)
    engine = make_engine(_sqlalchemy_url(url))
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()
