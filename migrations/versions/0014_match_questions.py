"""matchfinder questions: each member's answers, the answers they hope for and how much it matters

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24 21:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("matchpreference", sa.Column("questions", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matchpreference") as batch:
        batch.drop_column("questions")
