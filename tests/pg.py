"""Wiping the PostgreSQL test database: shared by the database fixtures and the e2e server."""

from sqlalchemy import text

from models.db import make_engine
from services.config import _sqlalchemy_url


def wipe_postgres_schema(url: str) -> None:
    """Drop every table, migrated or not, by recreating the public schema."""
    engine = make_engine(_sqlalchemy_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()
