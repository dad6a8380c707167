"""likes: a match (both members like each other) and whether the liker has been shown it

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 15:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("like", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("matched_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column("match_announced", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    # likes that were already mutual are matches since the later like; old news, not announced
    op.execute(
        """
        UPDATE "like" SET matched_at = (
            SELECT MAX(CASE WHEN other.created_at > "like".created_at
                            THEN other.created_at ELSE "like".created_at END)
            FROM "like" AS other
            WHERE other.liker_id = "like".liked_id AND other.liked_id = "like".liker_id
        ), match_announced = TRUE
        WHERE EXISTS (
            SELECT 1 FROM "like" AS other
            WHERE other.liker_id = "like".liked_id AND other.liked_id = "like".liker_id
        )
        """
    )


def downgrade() -> None:
    with op.batch_alter_table("like", schema=None) as batch_op:
        batch_op.drop_column("match_announced")
        batch_op.drop_column("matched_at")
