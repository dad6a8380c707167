"""Checking a log-in, with per-account exponential lock-out (spec section 8) and a throttle
per client.

After FREE_ATTEMPTS wrong passwords in a row the account is locked for 1, 2, 4 … minutes,
never longer than MAX_LOCK. Attempts during a lock are refused without counting, the count
resets after a quiet day, on a good log-in and on a password reset, so nobody can lock a
member out for good, and a password reset works while locked.

An address without an account is locked exactly the same way (its own `AddressLock` row), so
neither the answer nor the lock-out tells anyone whether an address has an account. A client
(IP address) gets at most CLIENT_FAILURES wrong passwords per CLIENT_WINDOW, whichever
addresses it tries.
"""

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil
from typing import NoReturn

from sqlmodel import Field, Session, SQLModel, delete, func, select

from models.account_errors import AccountError
from models.account_rules import clean_email
from models.member import Member, MemberStatus, utcnow
from models.passwords import hash_password, needs_rehash, verify_password
from models.upsert import insert_into
from translations.errors import LOGIN_FAILED, TOO_MANY_LOGIN_ATTEMPTS

FREE_ATTEMPTS = 5
MAX_LOCK = timedelta(hours=1)
FORGET_FAILURES_AFTER = timedelta(days=1)
CLIENT_FAILURES = 20
CLIENT_WINDOW = timedelta(minutes=15)


class AddressLock(SQLModel, table=True):
    """The failure count and lock of an address that has no account (hashed)."""

    address_hash: str = Field(max_length=64, primary_key=True)
    failed_logins: int = 0
    last_failed_login: datetime | None = Field(default=None, index=True)
    locked_until: datetime | None = None


class ClientFailure(SQLModel, table=True):
    """A wrong password from a client (its IP address, hashed), kept for CLIENT_WINDOW."""

    id: int | None = Field(default=None, primary_key=True)
    client_hash: str = Field(max_length=64, index=True)
    created_at: datetime = Field(default_factory=utcnow, index=True)


Lockable = Member | AddressLock


@dataclass(frozen=True)
class LoginResult:
    member: Member
    awaiting_deletion: bool


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def lock_minutes_left(subject: Lockable, now: datetime) -> int:
    if subject.locked_until is None or subject.locked_until <= now:
        return 0
    return max(1, ceil((subject.locked_until - now).total_seconds() / 60))


def lock_length(failures: int) -> timedelta:
    if failures < FREE_ATTEMPTS:
        return timedelta(0)
    # The exponent is capped first: 2**n minutes overflows timedelta from n = 41 on.
    doublings = min(failures - FREE_ATTEMPTS, 10)
    return min(timedelta(minutes=2**doublings), MAX_LOCK)


def _register_failure(subject: Lockable, now: datetime) -> None:
    last = subject.last_failed_login
    if last is not None and now - last > FORGET_FAILURES_AFTER:
        subject.failed_logins = 0
    subject.failed_logins += 1
    subject.last_failed_login = now
    if lock := lock_length(subject.failed_logins):
        subject.locked_until = now + lock


def clear_failures(member: Member) -> None:
    member.failed_logins = 0
    member.last_failed_login = member.locked_until = None


def _refuse_while_locked(subject: Lockable, now: datetime, field: str = "") -> None:
    if minutes := lock_minutes_left(subject, now):
        raise AccountError(TOO_MANY_LOGIN_ATTEMPTS, field, minutes=minutes)


def _count_failure(
    db: Session, subject: Lockable, now: datetime, wrong: str, field: str
) -> NoReturn:
    """Store the failure, then refuse. The one deliberate commit in a model: the action's
    transaction rolls back on the error raised here, and the count must outlast it."""
    _register_failure(subject, now)
    db.add(subject)
    db.commit()
    _refuse_while_locked(subject, now, field)
    raise AccountError(wrong, field)


def check_password(db: Session, member: Member, password: str, wrong: str, field: str = "") -> None:
    """Raise `wrong` for a wrong password, the lock-out text while locked. Every password
    check (log-in, and confirming a change in settings) counts towards the same lock."""
    now = utcnow()
    _refuse_while_locked(member, now, field)
    if not verify_password(member.password_hash, password or ""):
        _count_failure(db, member, now, wrong, field)


def _client_minutes_left(db: Session, client_hash: str, now: datetime) -> int:
    """Minutes until the client may try again, 0 while it is under CLIENT_FAILURES."""
    query = select(func.count(), func.min(ClientFailure.created_at)).where(
        ClientFailure.client_hash == client_hash, ClientFailure.created_at > now - CLIENT_WINDOW
    )
    count, oldest = db.exec(query).one()
    if count < CLIENT_FAILURES:
        return 0
    return max(1, ceil((oldest + CLIENT_WINDOW - now).total_seconds() / 60))


def _remember_client_failure(db: Session, client_hash: str, now: datetime) -> None:
    """One row per wrong password; rows older than the window go (so the table stays small)."""
    db.exec(delete(ClientFailure).where(ClientFailure.created_at <= now - CLIENT_WINDOW))
    db.add(ClientFailure(client_hash=client_hash, created_at=now))


def _address_lock(db: Session, address: str, now: datetime) -> AddressLock:
    """The lock row of an address without an account; rows quiet for a day are forgotten."""
    forgotten = now - FORGET_FAILURES_AFTER
    db.exec(delete(AddressLock).where(AddressLock.last_failed_login < forgotten))
    key = _hash(address)
    # Two log-ins to one new address at once: the second insert waits, then does nothing.
    db.exec(insert_into(db, AddressLock).values(address_hash=key).on_conflict_do_nothing())
    return db.get(AddressLock, key, with_for_update=True, populate_existing=True)


def attempt_login(db: Session, email: str, password: str, client: str = "") -> LoginResult:
    """The member for these credentials, or AccountError. Slow on purpose (argon2id).
    `client` identifies the requester for the per-client throttle (the IP address)."""
    now, client_hash = utcnow(), _hash(client)
    if minutes := _client_minutes_left(db, client_hash, now):
        raise AccountError(TOO_MANY_LOGIN_ATTEMPTS, minutes=minutes)
    try:
        address = clean_email(email)
    except AccountError:
        address = ""
    query = select(Member).where(Member.email == address).with_for_update()
    member = db.exec(query).first()
    if member is not None and member.status == MemberStatus.DELETED:
        member = None
    subject = member or _address_lock(db, address, now)
    _refuse_while_locked(subject, now)
    # Without an account the password is checked against a dummy hash: it takes as long.
    if not verify_password(member.password_hash if member else None, password or "") or not member:
        _remember_client_failure(db, client_hash, now)
        _count_failure(db, subject, now, LOGIN_FAILED, "")
    clear_failures(member)
    if needs_rehash(member.password_hash or ""):
        member.password_hash = hash_password(password)
    db.add(member)
    db.flush()
    return LoginResult(member, member.status == MemberStatus.DELETED_PENDING)
