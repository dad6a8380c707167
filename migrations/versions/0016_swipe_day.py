"""swipe game: the day a member's likes count in, kept until it ends whatever time zone the
browser reports meanwhile

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 17:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("swipe_day_start", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column("swipe_day_end", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_column("swipe_day_end")
        batch_op.drop_column("swipe_day_start")
