"""business: support tickets, setting history, terms acceptance, data exports and the other
tables of the support, admin, legal and data-rights tools

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27 23:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


SESSION_COLUMNS = (("device", 60), ("address", 64), ("place", 2))  # AuthSession's, of H1


def upgrade() -> None:
    op.create_table(  # customer service tickets (H3)
        "ticket",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reference", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("locale", sqlmodel.sql.sqltypes.AutoString(length=5), nullable=False),
        sa.Column("topic", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("updated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("reference"),
    )
    with op.batch_alter_table("ticket", schema=None) as batch_op:
        batch_op.create_index("ix_ticket_queue", ["status", "updated_at", "id"], unique=False)
        batch_op.create_index(batch_op.f("ix_ticket_member_id"), ["member_id"], unique=False)
    op.create_table(
        "ticketmessage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ticket_id", sa.Integer(), nullable=False),
        sa.Column("author", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("staff_id", sa.Integer(), nullable=True),
        sa.Column("body", sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["ticket_id"], ["ticket.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ticketmessage", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_ticketmessage_ticket_id"), ["ticket_id"], unique=False
        )
    op.create_table(  # the history of the site settings (H4)
        "settingchange",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("old", sa.JSON(), nullable=True),
        sa.Column("new", sa.JSON(), nullable=True),
        sa.Column("staff_id", sa.Integer(), nullable=True),
        sa.Column("at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("settingchange", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_settingchange_key"), ["key"], unique=False)
    op.create_table(  # the members' data exports (H7)
        "dataexport",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("requested_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("ready_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("file_name", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=True),
        sa.Column("expires_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("dataexport", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_dataexport_expires_at"), ["expires_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_dataexport_member_id"), ["member_id"], unique=False)
    op.create_table(
        "consent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("document", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("version", sa.Date(), nullable=False),
        sa.Column("accepted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("member_id", "document", "version", name="uq_consent"),
    )
    with op.batch_alter_table("consent", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_consent_member_id"), ["member_id"], unique=False)
    # the payments queue (H2): refunds followed up, orders and refunds by status
    with op.batch_alter_table("orderrefund", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("checked_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column("attention_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.create_index("ix_orderrefund_open", ["status", "created_at"], unique=False)
    with op.batch_alter_table("creditorder", schema=None) as batch_op:
        batch_op.create_index("ix_order_status_created", ["status", "created_at"], unique=False)
    op.create_table(
        "loginevent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("device", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("place", sqlmodel.sql.sqltypes.AutoString(length=2), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("loginevent", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_loginevent_at"), ["at"], unique=False)
        batch_op.create_index(batch_op.f("ix_loginevent_member_id"), ["member_id"], unique=False)
    with op.batch_alter_table("authsession", schema=None) as batch_op:
        for name, length in SESSION_COLUMNS:
            batch_op.add_column(
                sa.Column(
                    name,
                    sqlmodel.sql.sqltypes.AutoString(length=length),
                    nullable=False,
                    server_default="",
                )
            )


def downgrade() -> None:
    op.drop_table("ticketmessage")  # customer service tickets (H3)
    op.drop_table("ticket")
    op.drop_table("settingchange")  # the history of the site settings (H4)
    op.drop_table("dataexport")  # the members' data exports (H7)
    op.drop_table("consent")
    # the payments queue (H2)
    with op.batch_alter_table("creditorder", schema=None) as batch_op:
        batch_op.drop_index("ix_order_status_created")
    with op.batch_alter_table("orderrefund", schema=None) as batch_op:
        batch_op.drop_index("ix_orderrefund_open")
        batch_op.drop_column("attention_at")
        batch_op.drop_column("checked_at")
    with op.batch_alter_table("authsession", schema=None) as batch_op:
        for name, _length in SESSION_COLUMNS:
            batch_op.drop_column(name)
    op.drop_table("loginevent")
