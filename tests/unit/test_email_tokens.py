"""Single-use e-mail link tokens."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from models.auth_session import hash_token
from models.email_tokens import (
    LIFETIMES,
    EmailToken,
    Purpose,
    consume_token,
    issue_token,
    token_usable,
)
from models.member import utcnow
from tests.factories import make_member


def _issue(db: Session, member_id: int, purpose: Purpose = Purpose.ACTIVATE, **extra) -> str:
    token = issue_token(db, member_id, purpose, **extra)
    db.commit()
    return token


def _consume(db: Session, token: str | None, purpose: Purpose = Purpose.ACTIVATE):
    row = consume_token(db, token, purpose)
    db.commit()
    return row


def _row(db: Session, token: str) -> EmailToken:
    return db.exec(select(EmailToken).where(EmailToken.token_hash == hash_token(token))).one()


def test_token_works_once(db: Session) -> None:
    member = make_member(db)
    token = _issue(db, member.id)
    assert token_usable(db, token, Purpose.ACTIVATE)
    row = _consume(db, token)
    assert row is not None and row.member_id == member.id and row.used_at is not None
    assert _consume(db, token) is None
    assert not token_usable(db, token, Purpose.ACTIVATE)


def test_only_the_hash_is_stored(db: Session) -> None:
    token = _issue(db, make_member(db).id)
    stored = db.exec(select(EmailToken)).one()
    assert stored.token_hash == hash_token(token) and token not in stored.token_hash
    assert len(token) >= 43


@pytest.mark.parametrize("purpose", list(Purpose))
def test_token_expires_after_its_lifetime(db: Session, purpose: Purpose) -> None:
    token = _issue(db, make_member(db).id, purpose)
    row = _row(db, token)
    assert row.expires_at - row.created_at == pytest.approx(
        LIFETIMES[purpose], abs=timedelta(seconds=5)
    )
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()
    assert not token_usable(db, token, purpose)
    assert _consume(db, token, purpose) is None


def test_password_reset_link_lasts_an_hour() -> None:
    assert LIFETIMES[Purpose.RESET_PASSWORD] == timedelta(hours=1)
    assert LIFETIMES[Purpose.REACTIVATE] == timedelta(days=14)


def test_token_of_another_purpose_is_refused_and_stays_usable(db: Session) -> None:
    token = _issue(db, make_member(db).id, Purpose.RESET_PASSWORD)
    assert _consume(db, token, Purpose.ACTIVATE) is None
    assert _consume(db, token, Purpose.CHANGE_EMAIL) is None
    assert _consume(db, token, Purpose.RESET_PASSWORD) is not None


def test_new_token_invalidates_older_open_ones_of_that_purpose_only(db: Session) -> None:
    member = make_member(db)
    other = make_member(db, "bert@example.com")
    first = _issue(db, member.id)
    reset = _issue(db, member.id, Purpose.RESET_PASSWORD)
    others = _issue(db, other.id)
    second = _issue(db, member.id)
    assert not token_usable(db, first, Purpose.ACTIVATE)
    assert token_usable(db, second, Purpose.ACTIVATE)
    assert token_usable(db, reset, Purpose.RESET_PASSWORD)
    assert token_usable(db, others, Purpose.ACTIVATE)


@pytest.mark.parametrize("token", [None, "", "unknown-token", "x" * 101])
def test_missing_unknown_and_overlong_tokens_are_refused(db: Session, token) -> None:
    member = make_member(db)
    _issue(db, member.id)
    assert _consume(db, token) is None
    assert not token_usable(db, token, Purpose.ACTIVATE)


def test_overlong_token_is_refused_even_when_its_hash_is_stored(db: Session) -> None:
    member = make_member(db)
    long_token = "a" * 101
    db.add(
        EmailToken(
            token_hash=hash_token(long_token),
            member_id=member.id,
            purpose=Purpose.ACTIVATE.value,
            expires_at=utcnow() + timedelta(days=1),
        )
    )
    db.commit()
    assert _consume(db, long_token) is None
    assert _consume(db, "a" * 100) is None


def test_new_email_travels_with_the_token(db: Session) -> None:
    member = make_member(db)
    token = _issue(db, member.id, Purpose.CHANGE_EMAIL, new_email="new@example.com")
    assert _consume(db, token, Purpose.CHANGE_EMAIL).new_email == "new@example.com"
