"""Which e-mails and push messages a member wants, and e-mail switched off by the mail system."""

from sqlmodel import Session

from models.member import Member

NOTIFICATION_KINDS = (
    "email_messages",
    "email_likes",
    "email_offers",
    "push_messages",
    "push_likes",
)
EMAIL_KINDS = tuple(kind for kind in NOTIFICATION_KINDS if kind.startswith("email_"))
# Why e-mail was switched off for a member (Member.notifications_disabled).
DISABLED_REASONS = ("spam", "bounce", "unsubscribe")


def preferences(member: Member) -> dict[str, bool]:
    """Every kind, on unless the member switched it off."""
    stored = member.notification_settings or {}
    return {kind: bool(stored.get(kind, True)) for kind in NOTIFICATION_KINDS}


def save_preferences(db: Session, member_id: int, chosen: dict[str, object]) -> dict[str, bool]:
    """Store known kinds only; anything else the browser sent is ignored."""
    member = db.get(Member, member_id)
    updated = preferences(member) | {
        kind: bool(chosen[kind]) for kind in NOTIFICATION_KINDS if kind in chosen
    }
    member.notification_settings = updated
    db.add(member)
    db.flush()
    return updated


def disabled_reasons(member: Member) -> list[str]:
    return [r for r in member.notifications_disabled or [] if r in DISABLED_REASONS]


def enable_email_again(db: Session, member_id: int) -> None:
    """The member asks for e-mail again after a bounce, complaint or unsubscribe."""
    member = db.get(Member, member_id)
    member.notifications_disabled = []
    db.add(member)
    db.flush()
