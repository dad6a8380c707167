"""Which e-mails and push messages a member wants, e-mail switched off by the member's one-click
unsubscribe or the mail provider's bounce and complaint reports, and back on after that (rules:
models/notification_prefs.py)."""

from dataclasses import dataclass

from sqlmodel import Session

from actions.runner import Done
from actions.viewer import Viewer
from models.account_errors import AccountError
from models.account_rules import clean_email
from models.member import Member, member_with_email
from models.notification_prefs import (
    EMAIL_KINDS,
    disable_email,
    disabled_reasons,
    enable_email_again,
    member_by_unsubscribe_key,
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


def unsubscribe_key_ok(key: object) -> bool:
    with db_session() as db:
        return member_by_unsubscribe_key(db, key) is not None


def unsubscribe(key: object) -> Done[bool]:
    """The one-click unsubscribe of a notification mail: every notification e-mail off, with
    the reason "unsubscribe"; False for a key that belongs to no account."""
    with transaction() as db:
        return _switched_off(db, member_by_unsubscribe_key(db, key), "unsubscribe")


def mail_refused(email: str, reason: str) -> Done[bool]:
    """The mail provider reports a hard bounce or a spam complaint ("bounce", "spam") for
    `email`: notification e-mails to it stop. False when no account has the address."""
    try:
        address = clean_email(email)
    except AccountError:
        return Done(False)
    with transaction() as db:
        return _switched_off(db, member_with_email(db, address), reason)


def _switched_off(db: Session, member: Member | None, reason: str) -> Done[bool]:
    """Every notification e-mail of the member off for `reason`; False without a member."""
    if member is None:
        return Done(False)
    disable_email(db, member, reason)
    return Done(True)
