"""swipe game: each member's likes and passes, and the member's time zone (their day)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 16:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "swipe",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("liked", sa.Boolean(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["other_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", "other_id"),
    )
    op.create_index("ix_swipe_member_time", "swipe", ["member_id", "created_at"], unique=False)
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("time_zone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_column("time_zone")
    op.drop_index("ix_swipe_member_time", table_name="swipe")
    op.drop_table("swipe")
