"""Password reset by e-mail link (spec section 8)."""

from datetime import timedelta
from functools import partial

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from actions.accounts import request_password_reset
from actions.runner import Done
from models.account_errors import AccountError
from models.auth_session import member_id_for_token, start_session
from models.email_tokens import EmailToken
from models.login import FREE_ATTEMPTS, attempt_login
from models.member import Member, MemberStatus, utcnow
from models.password_reset import (
    RESETS_PER_ADDRESS_PER_DAY,
    RESETS_PER_DAY,
    ResetRequest,
    complete_reset,
    request_reset,
    reset_link_usable,
)
from models.passwords import PASSWORD_TOO_SHORT, verify_password
from tests.concurrency import at_once, postgres_only
from tests.factories import PASSWORD, committed, make_member, make_member_with_password, row_count
from translations.errors import (
    INVALID_EMAIL,
    PASSWORDS_DIFFER,
    RESET_LINK_INVALID,
    TOO_MANY_PASSWORD_RESETS,
)

NEW = "a brand new passphrase"


def _reset_error(db: Session, token: str, password: str = NEW, repeat: str = NEW) -> AccountError:
    with pytest.raises(AccountError) as caught:
        committed(db, complete_reset, token, password, repeat)
    return caught.value


def test_known_address_gets_a_link_token(db: Session) -> None:
    member = make_member_with_password(db)
    found, token = committed(db, request_reset, " Anna@Example.com ")
    assert found.id == member.id
    assert reset_link_usable(db, token)
    assert row_count(db, ResetRequest) == 1


def test_unknown_address_gets_no_link_but_the_request_counts(db: Session) -> None:
    assert committed(db, request_reset, "nobody@example.com") is None
    stored = db.exec(select(ResetRequest)).one()
    assert "nobody" not in stored.address_hash and len(stored.address_hash) == 64
    assert db.exec(select(EmailToken)).all() == []


@pytest.mark.parametrize("known", [True, False])
def test_fourth_request_of_a_day_is_refused_for_known_and_unknown(db: Session, known) -> None:
    if known:
        make_member_with_password(db)
    for _ in range(RESETS_PER_DAY):
        found = committed(db, request_reset, "anna@example.com")
        assert (found is not None) is known
    with pytest.raises(AccountError) as caught:
        committed(db, request_reset, "ANNA@example.com")
    assert caught.value.message == TOO_MANY_PASSWORD_RESETS
    assert row_count(db, ResetRequest) == RESETS_PER_DAY
    assert (
        committed(db, request_reset, "bert@example.com") is None
    )  # other addresses are not limited


def test_requests_older_than_a_day_no_longer_count(db: Session) -> None:
    make_member_with_password(db)
    for _ in range(RESETS_PER_DAY):
        committed(db, request_reset, "anna@example.com")
    for row in db.exec(select(ResetRequest)):
        row.created_at = utcnow() - timedelta(hours=25)
        db.add(row)
    db.commit()
    assert committed(db, request_reset, "anna@example.com") is not None


def test_invalid_address_is_refused(db: Session) -> None:
    with pytest.raises(AccountError) as caught:
        committed(db, request_reset, "not an address")
    assert caught.value.message == INVALID_EMAIL
    db.rollback()
    assert row_count(db, ResetRequest) == 0


@pytest.mark.parametrize("status", [MemberStatus.DELETED_PENDING, MemberStatus.DELETED])
def test_deleted_accounts_get_no_link(db: Session, status: str) -> None:
    make_member_with_password(db, status=status, deleted_at=utcnow())
    assert committed(db, request_reset, "anna@example.com") is None
    assert db.exec(select(EmailToken)).all() == []


def test_mismatched_repeat_is_refused_and_the_link_stays_usable(db: Session) -> None:
    make_member_with_password(db)
    _, token = committed(db, request_reset, "anna@example.com")
    error = _reset_error(db, token, NEW, NEW + "!")
    assert error.message == PASSWORDS_DIFFER and error.field == "repeat"
    assert _reset_error(db, token, "short", "short").message == PASSWORD_TOO_SHORT
    assert reset_link_usable(db, token)
    assert committed(db, complete_reset, token, NEW, NEW) is not None


def test_reset_sets_the_password_unlocks_and_ends_every_session(db: Session, engine) -> None:
    member = make_member_with_password(
        db,
        failed_logins=FREE_ATTEMPTS,
        last_failed_login=utcnow(),
        locked_until=utcnow() + timedelta(minutes=30),
    )
    sessions = [committed(db, start_session, member.id) for _ in range(2)]
    _, token = committed(db, request_reset, "anna@example.com")
    assert committed(db, complete_reset, token, NEW, NEW).id == member.id
    with Session(engine) as fresh:
        stored = fresh.get(Member, member.id)
        assert verify_password(stored.password_hash, NEW)
        assert not verify_password(stored.password_hash, PASSWORD)
        assert stored.failed_logins == 0 and stored.locked_until is None
    assert [member_id_for_token(db, t) for t in sessions] == [None, None]
    assert committed(db, attempt_login, "anna@example.com", NEW).member.id == member.id


def test_reset_link_works_once(db: Session) -> None:
    make_member_with_password(db)
    _, token = committed(db, request_reset, "anna@example.com")
    committed(db, complete_reset, token, NEW, NEW)
    assert not reset_link_usable(db, token)
    assert _reset_error(db, token, "yet another passphrase", "yet another passphrase").message == (
        RESET_LINK_INVALID
    )


def test_new_request_replaces_the_older_link(db: Session) -> None:
    make_member_with_password(db)
    _, first = committed(db, request_reset, "anna@example.com")
    _, second = committed(db, request_reset, "anna@example.com")
    assert not reset_link_usable(db, first)
    assert _reset_error(db, first).message == RESET_LINK_INVALID
    assert committed(db, complete_reset, second, NEW, NEW)


def test_expired_link_is_invalid(db: Session) -> None:
    member = make_member_with_password(db)
    _, token = committed(db, request_reset, "anna@example.com")
    row = db.exec(select(EmailToken)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()
    assert not reset_link_usable(db, token)
    assert _reset_error(db, token).message == RESET_LINK_INVALID
    assert verify_password(db.get(Member, member.id).password_hash, PASSWORD)


@pytest.mark.parametrize("token", ["", "garbage", "x" * 101])
def test_unknown_links_are_invalid(db: Session, token: str) -> None:
    make_member_with_password(db)
    committed(db, request_reset, "anna@example.com")
    assert not reset_link_usable(db, token)
    assert _reset_error(db, token).message == RESET_LINK_INVALID


def test_a_stranger_using_up_their_resets_leaves_the_owner_theirs(db: Session) -> None:
    make_member(db)
    for _request in range(RESETS_PER_DAY):
        committed(db, request_reset, "anna@example.com", client="198.51.100.7")
    with pytest.raises(AccountError):
        committed(db, request_reset, "anna@example.com", client="198.51.100.7")
    assert committed(db, request_reset, "anna@example.com", client="203.0.113.5") is not None


def test_an_address_gets_at_most_ten_reset_mails_a_day_from_anyone(db: Session) -> None:
    make_member(db)
    for number in range(RESETS_PER_ADDRESS_PER_DAY):
        committed(db, request_reset, "anna@example.com", client=f"198.51.100.{number}")
    with pytest.raises(AccountError) as raised:
        committed(db, request_reset, "anna@example.com", client="203.0.113.5")
    assert raised.value.message == TOO_MANY_PASSWORD_RESETS


@pytest.mark.parametrize("clients", [1, 5])
def test_concurrent_requests_for_one_address_stay_within_the_limits(
    engine: Engine, db: Session, clients: int
) -> None:
    """25 requests at the same moment (the issue's probe), from one client or five: at most 3
    links per client and 10 per address, as when they come one by one."""
    postgres_only(engine)
    make_member(db)
    addresses = [f"198.51.100.{number % clients}" for number in range(25)]
    answers = at_once(
        [partial(request_password_reset, "anna@example.com", client) for client in addresses]
    )
    mailed = [client for client, done in zip(addresses, answers, strict=True) if _mailed(done)]
    assert all(isinstance(a, AccountError) for a in answers if not isinstance(a, Done))
    assert len(mailed) == min(3 * clients, 10)  # spec: 3 per address and client, 10 per address
    assert max(mailed.count(client) for client in set(addresses)) <= 3
    assert row_count(db, ResetRequest) == row_count(db, EmailToken) == len(mailed)


def _mailed(answer: object) -> bool:
    return isinstance(answer, Done) and len(answer.effects) == 1
