"""Log-in with the per-account exponential lock-out (spec section 8)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import partial
from threading import Barrier

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.account_errors import AccountError
from models.attempts import ClientFailure
from models.login import (
    FREE_ATTEMPTS,
    MAX_LOCK,
    AddressLock,
    attempt_login,
    lock_length,
    lock_minutes_left,
)
from models.member import Member, MemberStatus, utcnow
from models.passwords import verify_password
from services.device_cookie import issue, vouches
from tests.factories import PASSWORD, make_member_with_password, row_count
from translations.errors import LOGIN_FAILED, TOO_MANY_LOGIN_ATTEMPTS

EMAIL = "anna@example.com"
WRONG = "not my password"


def _stored(engine: Engine, member_id: int) -> Member:
    """The member as the database holds it, read in a session of its own."""
    with Session(engine) as fresh:
        member = fresh.get(Member, member_id)
        fresh.expunge(member)
        return member


def _login_error(db: Session, password: str = WRONG, email: str = EMAIL) -> AccountError:
    with pytest.raises(AccountError) as caught:
        attempt_login(db, email, password)
    return caught.value


def _set(db: Session, member: Member, **fields) -> None:
    for name, value in fields.items():
        setattr(member, name, value)
    db.add(member)
    db.commit()


def test_good_login_returns_the_member_and_clears_failures(db: Session, engine) -> None:
    member = make_member_with_password(db)
    _set(db, member, failed_logins=3, last_failed_login=utcnow() - timedelta(minutes=5))
    result = attempt_login(db, EMAIL, PASSWORD)
    db.commit()  # the action's transaction commits
    assert result.member.id == member.id
    assert result.awaiting_deletion is False
    stored = _stored(engine, member.id)
    assert stored.failed_logins == 0
    assert stored.last_failed_login is None and stored.locked_until is None


def test_address_is_matched_without_case_or_spaces(db: Session) -> None:
    member = make_member_with_password(db)
    assert attempt_login(db, "  ANNA@Example.com ", PASSWORD).member.id == member.id


def test_wrong_password_fails_and_is_counted(db: Session, engine) -> None:
    member = make_member_with_password(db)
    error = _login_error(db)
    assert error.message == LOGIN_FAILED
    stored = _stored(engine, member.id)
    assert stored.failed_logins == 1
    assert stored.last_failed_login is not None and stored.locked_until is None


@pytest.mark.parametrize("email", ["nobody@example.com", "", "not an address"])
def test_unknown_address_fails_like_a_wrong_password(db: Session, email: str) -> None:
    make_member_with_password(db)
    assert _login_error(db, PASSWORD, email).message == LOGIN_FAILED


def test_erased_account_cannot_log_in(db: Session) -> None:
    make_member_with_password(db, status=MemberStatus.DELETED)
    assert _login_error(db, PASSWORD).message == LOGIN_FAILED


def test_account_awaiting_deletion_logs_in_and_says_so(db: Session) -> None:
    member = make_member_with_password(
        db, status=MemberStatus.DELETED_PENDING, deleted_at=utcnow() - timedelta(days=2)
    )
    result = attempt_login(db, EMAIL, PASSWORD)
    assert result.member.id == member.id and result.awaiting_deletion is True


def test_fifth_wrong_password_locks_for_a_minute(db: Session, engine) -> None:
    member = make_member_with_password(db)
    for _ in range(FREE_ATTEMPTS - 1):
        assert _login_error(db).message == LOGIN_FAILED
    before = utcnow()
    error = _login_error(db)
    assert error.message == TOO_MANY_LOGIN_ATTEMPTS
    assert error.params == {"minutes": 1}
    stored = _stored(engine, member.id)
    assert stored.failed_logins == FREE_ATTEMPTS
    assert before + timedelta(seconds=59) < stored.locked_until <= utcnow() + timedelta(minutes=1)


def test_correct_password_is_refused_while_locked_and_not_counted(db: Session, engine) -> None:
    member = make_member_with_password(db)
    _set(
        db,
        member,
        failed_logins=FREE_ATTEMPTS,
        last_failed_login=utcnow(),
        locked_until=utcnow() + timedelta(minutes=3, seconds=30),
    )
    for password in (PASSWORD, WRONG):
        error = _login_error(db, password)
        assert error.message == TOO_MANY_LOGIN_ATTEMPTS
        assert error.params == {"minutes": 4}
    assert _stored(engine, member.id).failed_logins == FREE_ATTEMPTS


def test_login_works_again_once_the_lock_is_over(db: Session, engine) -> None:
    member = make_member_with_password(db)
    _set(
        db,
        member,
        failed_logins=FREE_ATTEMPTS,
        last_failed_login=utcnow() - timedelta(minutes=2),
        locked_until=utcnow() - timedelta(seconds=1),
    )
    assert attempt_login(db, EMAIL, PASSWORD).member.id == member.id
    db.commit()
    assert _stored(engine, member.id).failed_logins == 0


def test_each_further_failure_doubles_the_lock(db: Session) -> None:
    member = make_member_with_password(db)
    _set(db, member, failed_logins=FREE_ATTEMPTS - 1, last_failed_login=utcnow())
    minutes = []
    for _ in range(4):
        error = _login_error(db)
        assert error.message == TOO_MANY_LOGIN_ATTEMPTS
        minutes.append(error.params["minutes"])
        _set(db, member, locked_until=utcnow() - timedelta(seconds=1))  # wait the lock out
    assert minutes == [1, 2, 4, 8]


def test_lock_is_capped_at_an_hour(db: Session, engine) -> None:
    member = make_member_with_password(db)
    _set(db, member, failed_logins=FREE_ATTEMPTS + 9, last_failed_login=utcnow())
    error = _login_error(db)
    assert error.params == {"minutes": 60}
    stored = _stored(engine, member.id)
    assert stored.locked_until <= utcnow() + MAX_LOCK


def test_a_long_series_of_failures_still_locks_for_an_hour(db: Session) -> None:
    member = make_member_with_password(db)
    _set(db, member, failed_logins=500, last_failed_login=utcnow())
    error = _login_error(db)
    assert error.message == TOO_MANY_LOGIN_ATTEMPTS and error.params == {"minutes": 60}


@pytest.mark.parametrize(
    ("failures", "lock"),
    [
        (0, timedelta(0)),
        (FREE_ATTEMPTS - 1, timedelta(0)),
        (FREE_ATTEMPTS, timedelta(minutes=1)),
        (FREE_ATTEMPTS + 1, timedelta(minutes=2)),
        (FREE_ATTEMPTS + 5, timedelta(minutes=32)),
        (FREE_ATTEMPTS + 6, MAX_LOCK),
        (FREE_ATTEMPTS + 60, MAX_LOCK),
        (10**6, MAX_LOCK),
    ],
)
def test_lock_length(failures: int, lock: timedelta) -> None:
    assert lock_length(failures) == lock


def test_failures_are_forgotten_after_a_quiet_day(db: Session, engine) -> None:
    member = make_member_with_password(db)
    _set(
        db,
        member,
        failed_logins=FREE_ATTEMPTS - 1,
        last_failed_login=utcnow() - timedelta(hours=25),
    )
    assert _login_error(db).message == LOGIN_FAILED
    assert _stored(engine, member.id).failed_logins == 1


def test_failures_within_a_day_still_count(db: Session) -> None:
    member = make_member_with_password(db)
    _set(
        db,
        member,
        failed_logins=FREE_ATTEMPTS - 1,
        last_failed_login=utcnow() - timedelta(hours=23),
    )
    assert _login_error(db).message == TOO_MANY_LOGIN_ATTEMPTS


def test_lock_minutes_left_rounds_up() -> None:
    now = utcnow()
    assert lock_minutes_left(Member(email="a@b.c"), now) == 0
    assert lock_minutes_left(Member(email="a@b.c", locked_until=now), now) == 0
    assert (
        lock_minutes_left(Member(email="a@b.c", locked_until=now + timedelta(seconds=1)), now) == 1
    )
    assert (
        lock_minutes_left(Member(email="a@b.c", locked_until=now + timedelta(seconds=90)), now) == 2
    )


def test_outdated_hash_is_renewed_on_login(db: Session, engine) -> None:
    old_hash = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    member = make_member_with_password(db)
    _set(db, member, password_hash=old_hash)
    attempt_login(db, EMAIL, PASSWORD)
    db.commit()
    renewed = _stored(engine, member.id).password_hash
    assert renewed != old_hash and "m=19456,t=2,p=1" in renewed
    assert verify_password(renewed, PASSWORD)


# --- per client and for addresses without an account -------------------------------------


def _attempt(db: Session, email: str, password: str, client: str) -> AccountError | None:
    try:
        attempt_login(db, email, password, client)
    except AccountError as error:
        return error
    return None


def test_eighty_wrong_passwords_from_one_client_are_throttled_after_twenty(db: Session) -> None:
    make_member_with_password(db)
    errors = [_attempt(db, f"guess{n}@example.com", WRONG, "198.51.100.7") for n in range(80)]
    assert [e.message for e in errors[:20]] == [LOGIN_FAILED] * 20
    assert {(e.message, e.params["minutes"]) for e in errors[20:]} == {
        (TOO_MANY_LOGIN_ATTEMPTS, 15)
    }
    refused = _attempt(db, EMAIL, PASSWORD, "198.51.100.7")  # even the right password
    assert refused.message == TOO_MANY_LOGIN_ATTEMPTS
    assert row_count(db, ClientFailure) == 20  # refused attempts are not stored: bounded
    assert _attempt(db, EMAIL, PASSWORD, "203.0.113.9") is None  # another client logs in


@pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own
def test_a_locked_address_does_not_lock_out_a_browser_that_logged_in_before(db: Session) -> None:
    """20 wrong passwords from a shared address lock it for 15 minutes: the attacker stays
    locked, but the member's own browser (its device cookie) gets in with the right password."""
    member = make_member_with_password(db)
    other = make_member_with_password(db, "other@example.com")
    now = utcnow()
    own_browser, others_browser = issue(member, now), issue(other, now)
    for n in range(20):
        _attempt(db, f"guess{n}@example.com", WRONG, "198.51.100.7")

    def attempt(password: str, device: str, email: str = EMAIL) -> AccountError | None:
        try:
            attempt_login(db, email, password, "198.51.100.7", partial(vouches, device, now=now))
        except AccountError as error:
            return error
        return None

    for password, device in ((PASSWORD, ""), (PASSWORD, "f" * 64), (PASSWORD, others_browser)):
        refused = attempt(password, device)
        assert (refused.message, refused.params) == (TOO_MANY_LOGIN_ATTEMPTS, {"minutes": 15})
    assert attempt(WRONG, own_browser).message == LOGIN_FAILED  # the account's own count holds
    assert attempt(PASSWORD, own_browser, "other@example.com").message == TOO_MANY_LOGIN_ATTEMPTS
    assert attempt(PASSWORD, own_browser) is None


def test_a_client_may_try_again_after_fifteen_minutes(db: Session) -> None:
    make_member_with_password(db)
    for n in range(20):
        _attempt(db, f"guess{n}@example.com", WRONG, "198.51.100.7")
    for failure in db.exec(select(ClientFailure)).all():
        failure.created_at -= timedelta(minutes=15)
        db.add(failure)
    db.commit()
    assert _attempt(db, EMAIL, PASSWORD, "198.51.100.7") is None


def test_an_address_without_an_account_locks_like_one_with_an_account(db: Session) -> None:
    make_member_with_password(db)

    def answers(email: str) -> list[tuple[str, dict]]:
        tries = [_attempt(db, email, WRONG, f"192.0.2.{n}") for n in range(8)]
        return [(error.message, error.params) for error in tries]

    known, unknown = answers(EMAIL), answers("nobody@example.com")
    assert known == unknown
    assert known[4] == (TOO_MANY_LOGIN_ATTEMPTS, {"minutes": 1})


def test_locks_of_addresses_without_an_account_are_forgotten_after_a_quiet_day(
    db: Session,
) -> None:
    _attempt(db, "nobody@example.com", WRONG, "192.0.2.1")
    lock = db.exec(select(AddressLock)).one()
    lock.last_failed_login -= timedelta(days=1, minutes=1)
    db.add(lock)
    db.commit()
    _attempt(db, "other@example.com", WRONG, "192.0.2.1")
    db.expire_all()
    assert row_count(db, AddressLock) == 1


def test_concurrent_failures_for_one_unknown_address_all_count(engine: Engine, db: Session) -> None:
    """Two log-ins to one address without an account at the same moment: the first lock row is
    inserted once, every failure counts, and none ends in anything but the log-in's own answer."""
    if engine.dialect.name != "postgresql":
        pytest.skip("parallel transactions are a PostgreSQL matter; SQLite runs one writer")
    start = Barrier(4)

    def attempt(client: int) -> str:
        with Session(engine, expire_on_commit=False) as own:
            start.wait()
            try:
                attempt_login(own, "nobody@example.com", "guess", f"10.0.0.{client}")
            except AccountError as refused:
                return refused.message
            return "logged in"

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(attempt, range(4)))
    assert answers == [LOGIN_FAILED] * 4
    assert db.exec(select(AddressLock)).one().failed_logins == 4
