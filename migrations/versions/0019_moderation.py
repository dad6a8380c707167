"""moderation: staff roles and TOTP, the append-only audit log (a trigger refuses UPDATE and
DELETE on PostgreSQL), reports and notices, decisions, appeals, banned identities, rejected photo
hashes; the columns members, sessions, photos and messages need for them

Revision ID: 0019
Revises: 0018_offers_opt_in
Create Date: 2026-11-27 20:46:47.461783
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = "0019"
down_revision: str | None = "0018_offers_opt_in"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


OPEN_MEMBER_REPORT = "status = 'open' AND reporter_id IS NOT NULL"  # uq_report_open's rows
APPEND_ONLY_FUNCTION = """
CREATE FUNCTION auditentry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END;
$$ LANGUAGE plpgsql
"""
APPEND_ONLY_TRIGGER = """
CREATE TRIGGER auditentry_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON auditentry
FOR EACH STATEMENT EXECUTE FUNCTION auditentry_append_only()
"""


def upgrade() -> None:
    op.create_table(
        "auditentry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("action", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("target_type", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("auditentry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_auditentry_actor_id"), ["actor_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_auditentry_created_at"), ["created_at"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(APPEND_ONLY_FUNCTION)
        op.execute(APPEND_ONLY_TRIGGER)

    op.create_table(
        "decision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("puid", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("measure", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("content_type", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("content_id", sa.Integer(), nullable=True),
        sa.Column("category", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("ground_type", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("ground", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("facts", sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
        sa.Column("automated_detection", sa.Boolean(), nullable=False),
        sa.Column("automated_decision", sa.Boolean(), nullable=False),
        sa.Column("duration_days", sa.Integer(), nullable=True),
        sa.Column("ends_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("decided_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("language", sqlmodel.sql.sqltypes.AutoString(length=5), nullable=False),
        sa.Column("reversed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("reversed_by", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("puid"),
    )
    with op.batch_alter_table("decision", schema=None) as batch_op:
        batch_op.create_index("ix_decision_member", ["member_id", "decided_at"], unique=False)

    op.create_table(
        "rejectedphotohash",
        sa.Column("phash", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("phash"),
    )
    op.create_table(
        "report",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reference", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("category", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("content_type", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("content_id", sa.Integer(), nullable=True),
        sa.Column("reported_id", sa.Integer(), nullable=True),
        sa.Column("reporter_id", sa.Integer(), nullable=True),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
        sa.Column("url", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column("notifier_name", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("notifier_email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("good_faith", sa.Boolean(), nullable=False),
        sa.Column("language", sqlmodel.sql.sqltypes.AutoString(length=5), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("assigned_to", sa.Integer(), nullable=True),
        sa.Column("decision_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("decided_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("reference"),
    )
    with op.batch_alter_table("report", schema=None) as batch_op:
        batch_op.create_index("ix_report_queue", ["status", "priority", "created_at"], unique=False)
        batch_op.create_index("ix_report_reported", ["reported_id", "created_at"], unique=False)
        batch_op.create_index("ix_report_reporter", ["reporter_id", "created_at"], unique=False)
        batch_op.create_index(
            "ix_report_content", ["content_type", "content_id", "status"], unique=False
        )
        batch_op.create_index(
            "uq_report_open",
            ["reporter_id", "content_type", "content_id"],
            unique=True,
            postgresql_where=sa.text(OPEN_MEMBER_REPORT),
            sqlite_where=sa.text(OPEN_MEMBER_REPORT),
        )

    op.create_table(
        "appeal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=False),
        sa.Column("by_member_id", sa.Integer(), nullable=True),
        sa.Column("by_notifier", sa.Boolean(), nullable=False),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
        sa.Column("language", sqlmodel.sql.sqltypes.AutoString(length=5), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("assigned_to", sa.Integer(), nullable=True),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("answer", sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("decided_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["decision_id"],
            ["decision.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("appeal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_appeal_decision_id"), ["decision_id"], unique=False)
        batch_op.create_index("ix_appeal_queue", ["status", "created_at"], unique=False)

    op.create_table(
        "bannedidentity",
        sa.Column("identity_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["decision_id"],
            ["decision.id"],
        ),
        sa.PrimaryKeyConstraint("identity_hash"),
    )
    with op.batch_alter_table("bannedidentity", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_bannedidentity_decision_id"), ["decision_id"], unique=False
        )

    op.create_table(
        "staffrole",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("granted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", "role"),
    )
    op.create_table(
        "stafftotp",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("secret", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("enrol_session", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("confirmed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("last_step", sa.Integer(), nullable=False),
        sa.Column("recovery_hashes", sa.JSON(), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id"),
    )
    with op.batch_alter_table("authsession", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("second_factor_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column("last_seen_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )

    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("suspended_until", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column(
                "chat_from",
                sqlmodel.sql.sqltypes.AutoString(length=10),
                nullable=False,
                server_default="everyone",
            )
        )

    with op.batch_alter_table("message", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("flagged", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("removed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )

    with op.batch_alter_table("photo", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("phash", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True)
        )
        batch_op.add_column(sa.Column("nsfw_score", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("reviewed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.create_index(batch_op.f("ix_photo_phash"), ["phash"], unique=False)
        batch_op.create_index(
            "ix_photo_review", ["status", "reviewed_at", "created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("photo", schema=None) as batch_op:
        batch_op.drop_index("ix_photo_review")
        batch_op.drop_index(batch_op.f("ix_photo_phash"))
        batch_op.drop_column("reviewed_at")
        batch_op.drop_column("nsfw_score")
        batch_op.drop_column("phash")

    with op.batch_alter_table("message", schema=None) as batch_op:
        batch_op.drop_column("removed_at")
        batch_op.drop_column("flagged")

    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_column("chat_from")
        batch_op.drop_column("suspended_until")

    with op.batch_alter_table("authsession", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")
        batch_op.drop_column("second_factor_at")

    op.drop_table("stafftotp")
    op.drop_table("staffrole")
    with op.batch_alter_table("bannedidentity", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bannedidentity_decision_id"))

    op.drop_table("bannedidentity")
    with op.batch_alter_table("appeal", schema=None) as batch_op:
        batch_op.drop_index("ix_appeal_queue")
        batch_op.drop_index(batch_op.f("ix_appeal_decision_id"))

    op.drop_table("appeal")
    with op.batch_alter_table("report", schema=None) as batch_op:
        batch_op.drop_index("uq_report_open")
        batch_op.drop_index("ix_report_content")
        batch_op.drop_index("ix_report_reporter")
        batch_op.drop_index("ix_report_reported")
        batch_op.drop_index("ix_report_queue")

    op.drop_table("report")
    op.drop_table("rejectedphotohash")
    with op.batch_alter_table("decision", schema=None) as batch_op:
        batch_op.drop_index("ix_decision_member")

    op.drop_table("decision")
    with op.batch_alter_table("auditentry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_auditentry_created_at"))
        batch_op.drop_index(batch_op.f("ix_auditentry_actor_id"))

    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER auditentry_append_only ON auditentry")
        op.execute("DROP FUNCTION auditentry_append_only()")
    op.drop_table("auditentry")
