"""offers and news mail only after an explicit opt-in: forget every stored `email_offers`

The old save_preferences stored every kind whenever a member saved any one, so a stored
`email_offers: true` cannot be told from a real opt-in: the kind is off for everyone until they
switch it on again. Nothing is restored on downgrade: a guessed consent is no consent.

Revision ID: 0018_offers_opt_in
Revises: 0017
Create Date: 2026-11-27 18:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_offers_opt_in"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KIND = "email_offers"
MEMBER = sa.table(
    "member", sa.column("id", sa.Integer), sa.column("notification_settings", sa.JSON)
)


def upgrade() -> None:
    connection = op.get_bind()
    settings = MEMBER.c.notification_settings
    stored = connection.execute(
        sa.select(MEMBER.c.id, settings).where(sa.cast(settings, sa.Text).like(f'%"{KIND}"%'))
    ).all()
    for member_id, chosen in stored:
        if isinstance(chosen, dict) and KIND in chosen:
            kept = {kind: value for kind, value in chosen.items() if kind != KIND}
            connection.execute(
                MEMBER.update().where(MEMBER.c.id == member_id).values(notification_settings=kept)
            )


def downgrade() -> None:
    pass
