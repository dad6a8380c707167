"""postbacks: the conversions reported to the traffic networks (models/postback.py)

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28 04:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "postback",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("click_id", sa.Integer(), nullable=False),
        sa.Column("network", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("event", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("tid", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=True),
        sa.Column("currency", sqlmodel.sql.sqltypes.AutoString(length=3), nullable=False),
        sa.Column("url", sqlmodel.sql.sqltypes.AutoString(length=4600), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("sent_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["click_id"], ["trafficclick.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("click_id", "event", name="uq_postback_click_event"),
        sa.UniqueConstraint("tid"),
    )
    with op.batch_alter_table("postback", schema=None) as batch_op:
        batch_op.create_index("ix_postback_due", ["status", "next_attempt_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_postback_created_at"), ["created_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("postback", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_postback_created_at"))
        batch_op.drop_index("ix_postback_due")
    op.drop_table("postback")
