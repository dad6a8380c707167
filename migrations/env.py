from logging.config import fileConfig

from alembic import context

from models.db import is_ours, make_engine
from models.tables import metadata
from services.config import get_config

if context.config.config_file_name is not None:
    fileConfig(context.config.config_file_name, disable_existing_loggers=False)


def run_migrations() -> None:
    url = context.config.attributes.get("url") or get_config().database_url
    connectable = context.config.attributes.get("connection") or make_engine(url).connect()
    context.configure(
        connection=connectable,
        target_metadata=metadata,
        render_as_batch=connectable.dialect.name == "sqlite",
        compare_type=True,
        include_name=is_ours,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
