"""Password reset by e-mail link (spec section 8).

A request answers the same whether or not the address has an account: the daily limit counts
requests per address, known or not, and the caller sends the mail without waiting for it.
"""

import hashlib
from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, select

from models.account_errors import AccountError
from models.account_rules import check_new_password, clean_email
from models.auth_session import end_all_sessions
from models.email_tokens import Purpose, consume_token, issue_token, token_usable
from models.login import clear_failures
from models.member import Member, MemberStatus, utcnow
from models.passwords import hash_password
from translations.errors import PASSWORDS_DIFFER, RESET_LINK_INVALID, TOO_MANY_PASSWORD_RESETS

RESETS_PER_DAY = 3


class ResetRequest(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    address_hash: str = Field(max_length=64, index=True)
    created_at: datetime = Field(default_factory=utcnow)


def _address_hash(email: str) -> str:
    return hashlib.sha256(email.encode()).hexdigest()


def _requests_today(db: Session, address_hash: str) -> int:
    since = utcnow() - timedelta(days=1)
    query = select(ResetRequest.id).where(
        ResetRequest.address_hash == address_hash, ResetRequest.created_at >= since
    )
    return len(db.exec(query).all())


def request_reset(db: Session, email: str) -> tuple[Member, str] | None:
    """The member and link token to mail, or None when there is no such account."""
    address = clean_email(email)
    key = _address_hash(address)
    if _requests_today(db, key) >= RESETS_PER_DAY:
        raise AccountError(TOO_MANY_PASSWORD_RESETS)
    db.add(ResetRequest(address_hash=key))
    member = db.exec(select(Member).where(Member.email == address)).first()
    if member is None or member.status in (MemberStatus.DELETED, MemberStatus.DELETED_PENDING):
        db.commit()
        return None
    token = issue_token(db, member.id, Purpose.RESET_PASSWORD)
    db.commit()
    return member, token


def complete_reset(db: Session, token: str, password: str, repeat: str) -> Member:
    """Set the new password, unlock, and end every session; the link works once."""
    check_new_password(password)
    if password != repeat:
        raise AccountError(PASSWORDS_DIFFER, "repeat")
    row = consume_token(db, token, Purpose.RESET_PASSWORD)
    member = db.get(Member, row.member_id) if row else None
    if member is None or member.status == MemberStatus.DELETED:
        db.rollback()
        raise AccountError(RESET_LINK_INVALID)
    member.password_hash = hash_password(password)
    clear_failures(member)
    end_all_sessions(db, member.id)
    db.add(member)
    db.commit()
    return member


def reset_link_usable(db: Session, token: str | None) -> bool:
    """Whether the page should show the form (the link is checked again on submit)."""
    return token_usable(db, token, Purpose.RESET_PASSWORD)
