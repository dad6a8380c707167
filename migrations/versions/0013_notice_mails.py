"""notice mails: the e-mails that tell an absent member the news, and the unsubscribe key

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notice_mail",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("topic", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("sent_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_notice_mail_member_time", "notice_mail", ["member_id", "sent_at"], unique=False
    )
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("unsubscribe_key", sqlmodel.sql.sqltypes.AutoString(length=43), nullable=True)
        )
        batch_op.create_unique_constraint("uq_member_unsubscribe_key", ["unsubscribe_key"])


def downgrade() -> None:
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_constraint("uq_member_unsubscribe_key", type_="unique")
        batch_op.drop_column("unsubscribe_key")
    op.drop_index("ix_notice_mail_member_time", table_name="notice_mail")
    op.drop_table("notice_mail")
