"""A member changing their password or e-mail address; both need the current password.
Confirmation mails for a new address are limited per member, so nobody floods a mailbox."""

from datetime import timedelta

from sqlmodel import Session, func, select

from models.account_errors import AccountError
from models.account_rules import check_new_password, clean_email
from models.auth_session import end_all_sessions
from models.banned_identities import EMAIL, REFUSED_ADDRESS, is_banned
from models.email_tokens import EmailToken, Purpose, issue_token, usable_token, use_token
from models.login import check_password
from models.member import Member, utcnow
from models.passwords import hash_password
from translations.catalog import N_
from translations.errors import (
    CHECK_OLD_PASSWORD,
    DUPLICATE_EMAIL,
    NEW_EMAIL_INVALID,
    PASSWORDS_DIFFER,
)

EMAIL_CHANGES_PER_DAY = 3
TOO_MANY_EMAIL_CHANGES = N_(
    "Too many confirmation e-mails sent for a new address, please try again tomorrow."
)


def _checked_member(db: Session, member_id: int, password: str) -> Member:
    member = db.get(Member, member_id)
    if member is None:
        raise AccountError(CHECK_OLD_PASSWORD, "current_password")
    check_password(db, member, password, CHECK_OLD_PASSWORD, "current_password")
    return member


def change_password(
    db: Session, member_id: int, current: str, new: str, repeat: str, keep_token: str | None
) -> None:
    """New password after checking the old one; every other session ends."""
    check_new_password(new, "new_password")
    if new != repeat:
        raise AccountError(PASSWORDS_DIFFER, "repeat")
    member = _checked_member(db, member_id, current)
    member.password_hash = hash_password(new)
    end_all_sessions(db, member.id, keep_token)
    db.add(member)
    db.flush()


def _address_taken(db: Session, email: str) -> bool:
    return db.exec(select(Member.id).where(Member.email == email)).first() is not None


def _refuse_unusable(db: Session, email: str, ban_secret: bytes) -> None:
    if _address_taken(db, email):
        raise AccountError(DUPLICATE_EMAIL, "email")
    if is_banned(db, EMAIL, email, ban_secret):  # the address of a banned account
        raise AccountError(REFUSED_ADDRESS, "email")


def request_email_change(
    db: Session, member_id: int, current: str, new_email: str, ban_secret: bytes
) -> tuple[str, str]:
    """The clean new address and the token for the confirmation link mailed to it.
    `ban_secret` keys the banned identities' hashes (models/banned_identities.py)."""
    address = clean_email(new_email, NEW_EMAIL_INVALID)
    return address, email_change_token(
        db, _checked_member(db, member_id, current), address, ban_secret
    )


def email_change_token(db: Session, member: Member, address: str, ban_secret: bytes) -> str:
    """The confirmation link's token for a clean new `address`, after the checks every change
    of address passes (the member's own, or support's on the member's request)."""
    if address == member.email:
        raise AccountError(NEW_EMAIL_INVALID, "email")
    _refuse_unusable(db, address, ban_secret)
    if _email_changes_today(db, member.id) >= EMAIL_CHANGES_PER_DAY:
        raise AccountError(TOO_MANY_EMAIL_CHANGES, "email")
    token = issue_token(db, member.id, Purpose.CHANGE_EMAIL, new_email=address)
    db.flush()
    return token


def _email_changes_today(db: Session, member_id: int) -> int:
    query = select(func.count()).where(
        EmailToken.member_id == member_id,
        EmailToken.purpose == Purpose.CHANGE_EMAIL.value,
        EmailToken.created_at > utcnow() - timedelta(days=1),
    )
    return db.exec(query).one()


def confirm_email_change(db: Session, token: str | None, ban_secret: bytes) -> Member | None:
    """Switch to the confirmed address; None for a bad link or an address taken meanwhile.
    IntegrityError when someone took the address a moment ago: the transaction is lost then."""
    row = usable_token(db, token, Purpose.CHANGE_EMAIL)
    member = db.get(Member, row.member_id) if row else None
    if member is None or not row.new_email or _address_taken(db, row.new_email):
        return None
    if is_banned(db, EMAIL, row.new_email, ban_secret):
        return None
    use_token(db, row)
    member.email = row.new_email
    db.add(member)
    db.flush()
    return member
