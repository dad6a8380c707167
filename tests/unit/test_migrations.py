"""The Alembic history builds exactly the schema the models describe, on every database."""

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from models.db import make_engine
from models.tables import metadata
from services.config import PROJECT_ROOT


def _alembic_config(connection) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.attributes["connection"] = connection
    return config


def test_migrations_match_models_and_roll_back(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "head")
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "render_as_batch": True}
        )
        assert compare_metadata(context, metadata) == []
    with engine.begin() as connection:
        command.downgrade(_alembic_config(connection), "base")
        assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
    engine.dispose()
