"""INSERT … ON CONFLICT for the database in use (PostgreSQL in production, SQLite in tests)."""

from sqlalchemy.dialects.postgresql import Insert as PostgresqlInsert
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, SQLModel

_INSERTS = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}


def insert_into(db: Session, table: type[SQLModel]) -> PostgresqlInsert | SqliteInsert:
    """An INSERT with `on_conflict_do_nothing` / `on_conflict_do_update` for `db`'s dialect."""
    return insert_for(db.get_bind().dialect.name, table)


def insert_for(dialect: str, table: type[SQLModel]) -> PostgresqlInsert | SqliteInsert:
    """The same for a dialect by its name: for a statement built once per dialect."""
    return _INSERTS[dialect](table)
