"""jobs: procrastinate's schema on PostgreSQL, and the marks of effects done (models/effect_marks.py)

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 11:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from services.job_engine import schema_sql

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "effect_mark",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("done_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index(op.f("ix_effect_mark_done_at"), "effect_mark", ["done_at"], unique=False)
    if op.get_bind().dialect.name == "postgresql":  # SQLite runs jobs in process (services/jobs.py)
        op.get_bind().connection.driver_connection.execute(schema_sql())


_ENGINE_OBJECTS = (
    "SELECT 'TABLE ' || quote_ident(tablename) FROM pg_tables"
    " WHERE schemaname = current_schema() AND tablename LIKE 'procrastinate\\_%'",
    "SELECT 'FUNCTION ' || oid::regprocedure FROM pg_proc"
    " WHERE pronamespace = current_schema()::regnamespace AND proname LIKE 'procrastinate\\_%'",
    "SELECT 'TYPE ' || quote_ident(typname) FROM pg_type"
    " WHERE typnamespace = current_schema()::regnamespace AND typname LIKE 'procrastinate\\_%'"
    " AND typtype IN ('c', 'e')",
)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":  # tables, then functions, then types
        for objects in _ENGINE_OBJECTS:
            for (name,) in op.get_bind().execute(sa.text(objects)).all():
                op.get_bind().exec_driver_sql(f"DROP {name} CASCADE")
    op.drop_index(op.f("ix_effect_mark_done_at"), table_name="effect_mark")
    op.drop_table("effect_mark")
