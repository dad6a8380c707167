"""direct debit: the mandate's debit lease (one process asks the provider at a time) and the
language its provider requests are made in

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 05:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sddmandate", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("debit_claimed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column(
                "language",
                sqlmodel.sql.sqltypes.AutoString(length=5),
                nullable=False,
                server_default="en",
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("sddmandate", schema=None) as batch_op:
        batch_op.drop_column("language")
        batch_op.drop_column("debit_claimed_at")
