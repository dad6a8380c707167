"""Password reset by e-mail link (spec section 8).

A request answers the same whether or not the address has an account: the daily limit counts
requests per address, known or not, and the caller sends the mail without waiting for it.
The limit is per address and requesting client (hashed IP), so a stranger who uses up their
own allowance for someone's address does not use up the owner's; a higher limit per address
alone keeps anyone from flooding a mailbox.
"""

from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, select

from models.account_errors import AccountError
from models.account_rules import check_new_password, clean_email
from models.attempts import attempt_key
from models.auth_session import end_all_sessions
from models.db import advisory_lock
from models.email_tokens import Purpose, consume_token, issue_token, token_usable
from models.login import clear_failures
from models.member import Member, MemberStatus, member_with_email, utcnow
from models.passwords import hash_password
from translations.errors import PASSWORDS_DIFFER, RESET_LINK_INVALID, TOO_MANY_PASSWORD_RESETS

RESETS_PER_DAY = 3  # per address and client
RESETS_PER_ADDRESS_PER_DAY = 10


class ResetRequest(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    address_hash: str = Field(max_length=64, index=True)
    client_hash: str = Field(default="", max_length=64)
    created_at: datetime = Field(default_factory=utcnow)


def _too_many(db: Session, address_hash: str, client_hash: str) -> bool:
    since = utcnow() - timedelta(days=1)
    query = select(ResetRequest.client_hash).where(
        ResetRequest.address_hash == address_hash, ResetRequest.created_at >= since
    )
    clients = db.exec(query).all()
    return (
        len(clients) >= RESETS_PER_ADDRESS_PER_DAY or clients.count(client_hash) >= RESETS_PER_DAY
    )


def request_reset(db: Session, email: str, client: str = "") -> tuple[Member, str] | None:
    """The member and link token to mail, or None when there is no such account. The address
    is locked while its requests are counted, so requests at the same moment count each other."""
    address = clean_email(email)
    key, client_key = attempt_key(address), attempt_key(client)
    advisory_lock(db, f"reset:{key}")
    if _too_many(db, key, client_key):
        raise AccountError(TOO_MANY_PASSWORD_RESETS)
    db.add(ResetRequest(address_hash=key, client_hash=client_key))
    member = member_with_email(db, address)
    if member is None or member.status in (MemberStatus.DELETED, MemberStatus.DELETED_PENDING):
        db.flush()
        return None
    token = issue_token(db, member.id, Purpose.RESET_PASSWORD)
    db.flush()
    return member, token


def complete_reset(db: Session, token: str, password: str, repeat: str) -> Member:
    """Set the new password, unlock, and end every session; the link works once."""
    check_new_password(password)
    if password != repeat:
        raise AccountError(PASSWORDS_DIFFER, "repeat")
    row = consume_token(db, token, Purpose.RESET_PASSWORD)
    member = db.get(Member, row.member_id) if row else None
    if member is None or member.status == MemberStatus.DELETED:
        raise AccountError(RESET_LINK_INVALID)
    member.password_hash = hash_password(password)
    clear_failures(member)
    end_all_sessions(db, member.id)
    db.add(member)
    db.flush()
    return member


def reset_link_usable(db: Session, token: str | None) -> bool:
    """Whether the page should show the form (the link is checked again on submit)."""
    return token_usable(db, token, Purpose.RESET_PASSWORD)
