"""Which e-mails and push messages a member wants, and e-mail switched off by the mail system
or by the member's one-click unsubscribe. Notifications of the member's own contacts are on until
switched off; marketing mail ("Offers and news") only after the member switched it on: only an
explicit choice is ever stored, so a default never becomes consent."""

import re
import secrets

from sqlmodel import Session, select

from models.member import Member

NOTIFICATION_KINDS = (
    "email_messages",
    "email_likes",
    "email_offers",
    "push_messages",
    "push_likes",
)
EMAIL_KINDS = tuple(kind for kind in NOTIFICATION_KINDS if kind.startswith("email_"))
OPT_IN_KINDS = frozenset({"email_offers"})  # off until the member switches them on
# Why e-mail was switched off for a member (Member.notifications_disabled).
DISABLED_REASONS = ("spam", "bounce", "unsubscribe")
_UNSUBSCRIBE_KEY = re.compile(r"[A-Za-z0-9_-]{43}")


def preferences(member: Member) -> dict[str, bool]:
    """Every kind as the member chose it; a kind never chosen is on, an opt-in kind off."""
    stored = member.notification_settings or {}
    return {kind: bool(stored.get(kind, kind not in OPT_IN_KINDS)) for kind in NOTIFICATION_KINDS}


def save_preferences(db: Session, member_id: int, chosen: dict[str, object]) -> dict[str, bool]:
    """Store the member's choices of known kinds only (anything else the browser sent is
    ignored), beside their earlier ones; the preferences that follow."""
    member = db.get(Member, member_id)
    member.notification_settings = (member.notification_settings or {}) | {
        kind: bool(chosen[kind]) for kind in NOTIFICATION_KINDS if kind in chosen
    }
    db.add(member)
    db.flush()
    return preferences(member)


def disabled_reasons(member: Member) -> list[str]:
    return [r for r in member.notifications_disabled or [] if r in DISABLED_REASONS]


def enable_email_again(db: Session, member_id: int) -> None:
    """The member asks for e-mail again after a bounce, complaint or unsubscribe."""
    member = db.get(Member, member_id)
    member.notifications_disabled = []
    db.add(member)
    db.flush()


def email_wanted(member: Member, kind: str) -> bool:
    """The member wants e-mails of `kind` and the mail system has not switched e-mail off."""
    return preferences(member)[kind] and not disabled_reasons(member)


def disable_email(db: Session, member: Member, reason: str) -> None:
    """Switch every notification e-mail off for `reason` (one of DISABLED_REASONS)."""
    if reason not in (member.notifications_disabled or []):
        member.notifications_disabled = [*(member.notifications_disabled or []), reason]
        db.add(member)
        db.flush()


def unsubscribe_key(db: Session, member: Member) -> str:
    """The member's key for the one-click unsubscribe link; made on first use. It can do one
    thing only, switch e-mail off, so it is stored as is and lasts as long as the account."""
    if member.unsubscribe_key is None:
        member.unsubscribe_key = secrets.token_urlsafe(32)
        db.add(member)
        db.flush()
    return member.unsubscribe_key


def member_by_unsubscribe_key(db: Session, key: object) -> Member | None:
    if not isinstance(key, str) or not _UNSUBSCRIBE_KEY.fullmatch(key):
        return None
    return db.exec(select(Member).where(Member.unsubscribe_key == key)).first()
