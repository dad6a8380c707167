"""Checking a log-in, with per-account exponential lock-out (spec section 8) and a throttle
per client.

After FREE_ATTEMPTS wrong passwords in a row the account is locked for 1, 2, 4 … minutes,
never longer than MAX_LOCK. Attempts during a lock are refused without counting, the count
resets after a quiet day, on a good log-in and on a password reset, so nobody can lock a
member out for good, and a password reset works while locked.

An address without an account is locked exactly the same way (its own `AddressLock` row), so
neither the answer nor the lock-out tells anyone whether an address has an account. A client
(IP address) gets at most CLIENT_FAILURES wrong passwords in 15 minutes, whichever
addresses it tries.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil
from typing import NoReturn

from sqlmodel import Field, Session, SQLModel, delete, select

from models.account_errors import AccountError
from models.account_rules import clean_email
from models.attempts import attempt_key, minutes_refused, remember_failure
from models.member import Member, MemberStatus, utcnow
from models.passwords import hash_password, needs_rehash, verify_password
from models.upsert import insert_into
from translations.catalog import N_
from translations.errors import LOGIN_FAILED, TOO_MANY_LOGIN_ATTEMPTS

FREE_ATTEMPTS = 5
MAX_LOCK = timedelta(hours=1)
FORGET_FAILURES_AFTER = timedelta(days=1)
CLIENT_FAILURES = 20  # per client in models/attempts.WINDOW (15 minutes)
WRONG_PASSWORD = N_("Your password is not correct.")  # confirming a change in settings


class AddressLock(SQLModel, table=True):
    """The failure count and lock of an address that has no account (hashed)."""

    address_hash: str = Field(max_length=64, primary_key=True)
    failed_logins: int = 0
    last_failed_login: datetime | None = Field(default=None, index=True)
    locked_until: datetime | None = None


Lockable = Member | AddressLock


@dataclass(frozen=True)
class LoginResult:
    member: Member
    awaiting_deletion: bool


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


def check_password(
    db: Session,
    member: Member,
    password: str,
    wrong: str,
    field: str = "",
    client: str | None = None,
) -> None:
    """Raise `wrong` for a wrong password, the lock-out text while locked. Every password
    check (log-in, and confirming a change in settings) counts towards the same lock; with a
    `client` (its address key) also towards, and held by, the log-in's per-client throttle."""
    now = utcnow()
    _refuse_while_locked(member, now, field)
    client_hash = attempt_key(client) if client is not None else ""
    if client_hash and (minutes := minutes_refused(db, client_hash, CLIENT_FAILURES, now)):
        raise AccountError(TOO_MANY_LOGIN_ATTEMPTS, field, minutes=minutes)
    if not verify_password(member.password_hash, password or ""):
        if client_hash:
            remember_failure(db, client_hash, now)
        _count_failure(db, member, now, wrong, field)


def _address_lock(db: Session, address: str, now: datetime) -> AddressLock:
    """The lock row of an address without an account; rows quiet for a day are forgotten."""
    forgotten = now - FORGET_FAILURES_AFTER
    db.exec(delete(AddressLock).where(AddressLock.last_failed_login < forgotten))
    key = attempt_key(address)
    # Two log-ins to one new address at once: the second insert waits, then does nothing.
    db.exec(insert_into(db, AddressLock).values(address_hash=key).on_conflict_do_nothing())
    return db.get(AddressLock, key, with_for_update=True, populate_existing=True)


def attempt_login(
    db: Session,
    email: str,
    password: str,
    client: str = "",
    known_device: Callable[[Member], bool] = lambda _: False,
) -> LoginResult:
    """The member for these credentials, or AccountError. Slow on purpose (argon2id).
    `client` identifies the requester for the per-client throttle (the IP address); a browser
    that `known_device` says logged in to the account before passes a client lock (the
    account's own lock holds: services/device_cookie.py)."""
    now, client_hash = utcnow(), attempt_key(client)
    client_minutes = minutes_refused(db, client_hash, CLIENT_FAILURES, now)
    try:
        address = clean_email(email)
    except AccountError:
        address = ""
    query = select(Member).where(Member.email == address).with_for_update()
    member = db.exec(query).first()
    if member is not None and member.status == MemberStatus.DELETED:
        member = None
    if client_minutes and (member is None or not known_device(member)):
        raise AccountError(TOO_MANY_LOGIN_ATTEMPTS, minutes=client_minutes)
    subject = member or _address_lock(db, address, now)
    _refuse_while_locked(subject, now)
    # Without an account the password is checked against a dummy hash: it takes as long.
    if not verify_password(member.password_hash if member else None, password or "") or not member:
        remember_failure(db, client_hash, now)
        _count_failure(db, subject, now, LOGIN_FAILED, "")
    clear_failures(member)
    if needs_rehash(member.password_hash or ""):
        member.password_hash = hash_password(password)
    db.add(member)
    db.flush()
    return LoginResult(member, member.status == MemberStatus.DELETED_PENDING)
