"""account deletion's stay-with-us code once per member for good: when the member had it; a
member who already had a STAY… code counts from that code's creation

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 17:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MEMBER = sa.table(
    "member", sa.column("id", sa.Integer), sa.column("retention_offered_at", sa.DateTime)
)
CODE = sa.table(
    "discountcode",
    sa.column("member_id", sa.Integer),
    sa.column("code", sa.String),
    sa.column("created_at", sa.DateTime),
)


def upgrade() -> None:
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("retention_offered_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
    first_code = (
        sa.select(sa.func.min(CODE.c.created_at))
        .where(CODE.c.member_id == MEMBER.c.id, CODE.c.code.like("STAY%"))
        .scalar_subquery()
    )
    op.execute(
        MEMBER.update()
        .where(MEMBER.c.retention_offered_at.is_(None))
        .values(retention_offered_at=first_code)
    )


def downgrade() -> None:
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_column("retention_offered_at")
