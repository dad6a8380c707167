"""Which e-mails and push messages a member wants, and e-mail back on after the mail system
switched it off (rules: models/notification_prefs.py)."""

from dataclasses import dataclass

from actions.runner import Done
from actions.viewer import Viewer
from models.member import Member
from models.notification_prefs import (
    EMAIL_KINDS,
    disabled_reasons,
    enable_email_again,
    preferences,
    save_preferences,
)
from services.database import db_session, transaction


@dataclass(frozen=True)
class Choices:
    prefs: dict[str, bool]  # every kind of NOTIFICATION_KINDS, on or off
    reasons: list[str]  # why e-mail is switched off, if it is


def _choices(member: Member) -> Choices:
    return Choices(preferences(member), disabled_reasons(member))


def choices(member_id: int) -> Choices | None:
    with db_session() as db:
        member = db.get(Member, member_id)
        return _choices(member) if member else None


def choose(viewer: Viewer, kind: str, on: bool) -> Done[tuple[Choices, bool]]:
    """Switch one kind (already checked against NOTIFICATION_KINDS); e-mail kinds stay as they
    are while the mail system keeps e-mail switched off. The choices, and whether it was kept."""
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        kept = not (kind in EMAIL_KINDS and disabled_reasons(member))
        if kept:
            save_preferences(db, viewer.member_id, {kind: on})
        return Done((_choices(member), kept))


def send_emails_again(viewer: Viewer) -> Done[Choices]:
    with transaction() as db:
        enable_email_again(db, viewer.member_id)
        return Done(_choices(db.get(Member, viewer.member_id)))
