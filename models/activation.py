"""Confirming the e-mail address: the link makes the account active and the profile visible."""

from sqlmodel import Session

from models.email_tokens import Purpose, find_token, issue_token, usable_token, use_token
from models.member import Member, MemberStatus, set_profile_status


def can_receive_messages(member: Member) -> bool:
    """Only confirmed members receive messages (spec section 4)."""
    return member.status == MemberStatus.ACTIVE


def issue_activation(db: Session, member: Member) -> str:
    token = issue_token(db, member.id, Purpose.ACTIVATE)
    db.flush()
    return token


def activate(db: Session, token: str | None) -> Member | None:
    """The activated member, or None for a used, expired or unknown link."""
    row = usable_token(db, token, Purpose.ACTIVATE)
    member = db.get(Member, row.member_id) if row else None
    if member is None or member.status != MemberStatus.NOT_CONFIRMED:
        return None
    use_token(db, row)
    member.status = MemberStatus.ACTIVE
    set_profile_status(db, member.id, "enabled")
    db.add(member)
    db.flush()
    return member


def already_activated(db: Session, token: str | None) -> bool:
    """A second click (or a mail scanner's earlier one) on a link that did activate."""
    row = find_token(db, token)
    member = db.get(Member, row.member_id) if row and row.purpose == Purpose.ACTIVATE else None
    return member is not None and member.status == MemberStatus.ACTIVE
