"""traffic: the clicks recorded server-side on landing pages (models/traffic.py)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 04:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TRACKING_COLUMNS = ("network", "ref", "sub1", "sub2", "sub3", "click_id")


def upgrade() -> None:
    op.create_table(
        "trafficclick",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        *(
            sa.Column(name, sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False)
            for name in TRACKING_COLUMNS
        ),
        sa.Column("path", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("lander", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("variant", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("niche", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("language", sqlmodel.sql.sqltypes.AutoString(length=5), nullable=False),
        sa.Column("address_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("user_agent", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("trafficclick", schema=None) as batch_op:
        for column in ("created_at", "network", "lander", "member_id"):
            batch_op.create_index(batch_op.f(f"ix_trafficclick_{column}"), [column], unique=False)
        batch_op.create_index(
            "ix_trafficclick_address", ["address_hash", "created_at"], unique=False
        )


def downgrade() -> None:
    op.drop_table("trafficclick")
