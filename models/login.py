"""Checking a log-in, with per-account exponential lock-out (spec section 8).

After FREE_ATTEMPTS wrong passwords in a row the account is locked for 1, 2, 4 … minutes,
never longer than MAX_LOCK. Attempts during a lock are refused without counting, the count
resets after a quiet day, on a good log-in and on a password reset, so nobody can lock a
member out for good, and a password reset works while locked.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil

from sqlmodel import Session, select

from models.account_errors import AccountError
from models.account_rules import clean_email
from models.member import Member, MemberStatus, utcnow
from models.passwords import hash_password, needs_rehash, verify_password
from translations.errors import LOGIN_FAILED, TOO_MANY_LOGIN_ATTEMPTS

FREE_ATTEMPTS = 5
MAX_LOCK = timedelta(hours=1)
FORGET_FAILURES_AFTER = timedelta(days=1)


@dataclass(frozen=True)
class LoginResult:
    member: Member
    awaiting_deletion: bool


def lock_minutes_left(member: Member, now: datetime) -> int:
    if member.locked_until is None or member.locked_until <= now:
        return 0
    return max(1, ceil((member.locked_until - now).total_seconds() / 60))


def lock_length(failures: int) -> timedelta:
    if failures < FREE_ATTEMPTS:
        return timedelta(0)
    # The exponent is capped first: 2**n minutes overflows timedelta from n = 41 on.
    doublings = min(failures - FREE_ATTEMPTS, 10)
    return min(timedelta(minutes=2**doublings), MAX_LOCK)


def _register_failure(member: Member, now: datetime) -> None:
    last = member.last_failed_login
    if last is not None and now - last > FORGET_FAILURES_AFTER:
        member.failed_logins = 0
    member.failed_logins += 1
    member.last_failed_login = now
    if lock := lock_length(member.failed_logins):
        member.locked_until = now + lock


def clear_failures(member: Member) -> None:
    member.failed_logins = 0
    member.last_failed_login = member.locked_until = None


def check_password(db: Session, member: Member, password: str, wrong: str, field: str = "") -> None:
    """Raise `wrong` for a wrong password, the lock-out text while locked. Every password
    check (log-in, and confirming a change in settings) counts towards the same lock."""
    now = utcnow()
    if minutes := lock_minutes_left(member, now):
        raise AccountError(TOO_MANY_LOGIN_ATTEMPTS, field, minutes=minutes)
    if verify_password(member.password_hash, password or ""):
        return
    _register_failure(member, now)
    db.add(member)
    db.commit()
    if minutes := lock_minutes_left(member, now):
        raise AccountError(TOO_MANY_LOGIN_ATTEMPTS, field, minutes=minutes)
    raise AccountError(wrong, field)


def attempt_login(db: Session, email: str, password: str) -> LoginResult:
    """The member for these credentials, or AccountError. Slow on purpose (argon2id)."""
    try:
        address = clean_email(email)
    except AccountError:
        address = ""
    query = select(Member).where(Member.email == address).with_for_update()
    member = db.exec(query).first()
    if member is None or member.status == MemberStatus.DELETED:
        verify_password(None, password or "")
        raise AccountError(LOGIN_FAILED)
    check_password(db, member, password, LOGIN_FAILED)
    clear_failures(member)
    if needs_rehash(member.password_hash or ""):
        member.password_hash = hash_password(password)
    db.add(member)
    db.commit()
    return LoginResult(member, member.status == MemberStatus.DELETED_PENDING)
