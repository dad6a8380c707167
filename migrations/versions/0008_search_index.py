"""search index: the profile copies the member's listed flag, privacy mode and signup date;
partial indexes of listed profiles, newest first, by gender, country or region

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 05:50:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEARCH_INDEXES = {
    "ix_profile_search_newest": [],
    "ix_profile_search_gender": ["gender"],
    "ix_profile_search_country": ["country"],
    "ix_profile_search_gender_country": ["gender", "country"],
    "ix_profile_search_region": ["region"],
    "ix_profile_search_gender_region": ["gender", "region"],
}
SEARCH_INDEX_TAIL = ["signup_date", "member_id", "date_of_birth", "region", "privacy_mode"]

member = sa.table(
    "member",
    sa.column("id", sa.Integer),
    sa.column("status", sa.String),
    sa.column("invisible", sa.Boolean),
    sa.column("privacy_mode", sa.Boolean),
    sa.column("signup_date", sa.DateTime),
)
profile = sa.table(
    "profile",
    sa.column("member_id", sa.Integer),
    sa.column("status", sa.String),
    sa.column("listed", sa.Boolean),
    sa.column("privacy_mode", sa.Boolean),
    sa.column("signup_date", sa.DateTime),
)


def _of_member(column: sa.ColumnElement) -> sa.ScalarSelect:
    return sa.select(column).where(member.c.id == profile.c.member_id).scalar_subquery()


def _backfill() -> None:
    """Copy the member's facts onto every profile, as models.member.copy_search_facts does."""
    listed_member = sa.exists().where(
        member.c.id == profile.c.member_id,
        member.c.status == "active",
        member.c.invisible == sa.false(),
    )
    op.execute(
        profile.update().values(
            listed=sa.and_(profile.c.status == "enabled", listed_member),
            privacy_mode=_of_member(member.c.privacy_mode),
            signup_date=_of_member(member.c.signup_date),
        )
    )


def upgrade() -> None:
    with op.batch_alter_table("profile", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("privacy_mode", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("signup_date", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
    _backfill()
    with op.batch_alter_table("profile", schema=None) as batch_op:
        batch_op.alter_column("listed", server_default=None)
        batch_op.alter_column("privacy_mode", server_default=None)
        batch_op.alter_column(
            "signup_date", existing_type=sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False
        )
        batch_op.drop_index("ix_profile_search")
        for name, lead in SEARCH_INDEXES.items():
            batch_op.create_index(
                name,
                [*lead, *(column for column in SEARCH_INDEX_TAIL if column not in lead)],
                unique=False,
                postgresql_where=sa.text("listed = true"),
                sqlite_where=sa.text("listed = 1"),
            )


def downgrade() -> None:
    with op.batch_alter_table("profile", schema=None) as batch_op:
        for name in SEARCH_INDEXES:
            batch_op.drop_index(name)
        batch_op.create_index(
            "ix_profile_search", ["status", "gender", "country", "date_of_birth"], unique=False
        )
        batch_op.drop_column("signup_date")
        batch_op.drop_column("privacy_mode")
        batch_op.drop_column("listed")
