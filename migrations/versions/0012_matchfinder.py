"""matchfinder: what each member looks for (age range, place, interests)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 17:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "matchpreference",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("min_age", sa.Integer(), nullable=False),
        sa.Column("max_age", sa.Integer(), nullable=False),
        sa.Column("place", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("interests", sa.JSON(), nullable=True),
        sa.Column("updated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id"),
    )


def downgrade() -> None:
    op.drop_table("matchpreference")
