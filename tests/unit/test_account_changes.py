"""Changing the password or the e-mail address, both behind the current password."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from models.account_changes import (
    TOO_MANY_EMAIL_CHANGES,
    change_password,
    confirm_email_change,
    request_email_change,
)
from models.account_errors import AccountError
from models.auth_session import member_id_for_token, start_session
from models.email_tokens import EmailToken
from models.login import FREE_ATTEMPTS
from models.member import Member
from models.passwords import PASSWORD_TOO_SHORT, verify_password
from tests.factories import BAN_SECRET, PASSWORD, committed, make_member, make_member_with_password
from translations.errors import (
    CHECK_OLD_PASSWORD,
    DUPLICATE_EMAIL,
    NEW_EMAIL_INVALID,
    PASSWORDS_DIFFER,
    TOO_MANY_LOGIN_ATTEMPTS,
)

NEW = "a brand new passphrase"


def _error(call, *args) -> AccountError:
    with pytest.raises(AccountError) as caught:
        call(*args)
    return caught.value


# --- password -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "new", "repeat", "message", "field"),
    [
        ("wrong password", NEW, NEW, CHECK_OLD_PASSWORD, "current_password"),
        ("", NEW, NEW, CHECK_OLD_PASSWORD, "current_password"),
        (PASSWORD, NEW, NEW + "x", PASSWORDS_DIFFER, "repeat"),
        (PASSWORD, "short", "short", PASSWORD_TOO_SHORT, "new_password"),
    ],
)
def test_password_change_is_refused_and_nothing_changes(
    db: Session, current: str, new: str, repeat: str, message: str, field: str
) -> None:
    member = make_member_with_password(db)
    token = committed(db, start_session, member.id)
    other = committed(db, start_session, member.id)
    error = _error(change_password, db, member.id, current, new, repeat, token)
    assert (error.message, error.field) == (message, field)
    db.rollback()
    assert verify_password(db.get(Member, member.id).password_hash, PASSWORD)
    assert member_id_for_token(db, other) == member.id


def test_password_change_keeps_this_session_and_ends_the_others(db: Session) -> None:
    member = make_member_with_password(db)
    bystander = make_member(db, "bert@example.com")
    mine, elsewhere = (
        committed(db, start_session, member.id),
        committed(db, start_session, member.id),
    )
    theirs = committed(db, start_session, bystander.id)
    committed(db, change_password, member.id, PASSWORD, NEW, NEW, mine)
    assert verify_password(db.get(Member, member.id).password_hash, NEW)
    assert member_id_for_token(db, mine) == member.id
    assert member_id_for_token(db, elsewhere) is None
    assert member_id_for_token(db, theirs) == bystander.id


def test_password_change_for_an_unknown_member_is_refused(db: Session) -> None:
    assert _error(change_password, db, 4242, PASSWORD, NEW, NEW, None).message == (
        CHECK_OLD_PASSWORD
    )


# --- e-mail address -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "address", ["", "not an address", "anna@", "anna@example.com", " ANNA@example.com"]
)
def test_invalid_or_unchanged_new_address_is_refused(db: Session, address: str) -> None:
    member = make_member_with_password(db)
    error = _error(request_email_change, db, member.id, PASSWORD, address, BAN_SECRET)
    assert error.message == NEW_EMAIL_INVALID


def test_email_change_needs_the_current_password(db: Session) -> None:
    member = make_member_with_password(db)
    error = _error(
        request_email_change, db, member.id, "wrong password", "new@example.com", BAN_SECRET
    )
    assert error.message == CHECK_OLD_PASSWORD


def test_address_of_another_account_is_refused(db: Session) -> None:
    member = make_member_with_password(db)
    make_member(db, "bert@example.com")
    error = _error(request_email_change, db, member.id, PASSWORD, "Bert@Example.com", BAN_SECRET)
    assert error.message == DUPLICATE_EMAIL


def test_confirmed_link_switches_the_address_once(db: Session) -> None:
    member = make_member_with_password(db)
    address, token = committed(
        db, request_email_change, member.id, PASSWORD, " New@Example.COM ", BAN_SECRET
    )
    assert address == "new@example.com"
    assert db.get(Member, member.id).email == "anna@example.com"  # not before the link
    assert committed(db, confirm_email_change, token, BAN_SECRET).email == "new@example.com"
    assert db.get(Member, member.id).email == "new@example.com"
    assert committed(db, confirm_email_change, token, BAN_SECRET) is None


def test_link_fails_when_the_address_was_taken_meanwhile(db: Session) -> None:
    member = make_member_with_password(db)
    _, token = committed(
        db, request_email_change, member.id, PASSWORD, "new@example.com", BAN_SECRET
    )
    make_member(db, "new@example.com")
    assert committed(db, confirm_email_change, token, BAN_SECRET) is None
    assert db.get(Member, member.id).email == "anna@example.com"


def test_newer_request_replaces_the_older_link(db: Session) -> None:
    member = make_member_with_password(db)
    _, first = committed(
        db, request_email_change, member.id, PASSWORD, "first@example.com", BAN_SECRET
    )
    _, second = committed(
        db, request_email_change, member.id, PASSWORD, "second@example.com", BAN_SECRET
    )
    assert committed(db, confirm_email_change, first, BAN_SECRET) is None
    assert committed(db, confirm_email_change, second, BAN_SECRET).email == "second@example.com"


@pytest.mark.parametrize("token", [None, "", "garbage", "x" * 101])
def test_bad_links_change_nothing(db: Session, token) -> None:
    member = make_member_with_password(db)
    committed(db, request_email_change, member.id, PASSWORD, "new@example.com", BAN_SECRET)
    assert committed(db, confirm_email_change, token, BAN_SECRET) is None
    assert db.get(Member, member.id).email == "anna@example.com"


def test_guessing_the_current_password_in_settings_locks_like_log_in(db: Session) -> None:
    member = make_member_with_password(db)
    errors = []
    for _attempt in range(FREE_ATTEMPTS):
        with pytest.raises(AccountError) as raised:
            committed(db, request_email_change, member.id, "guess", "new@example.com", BAN_SECRET)
        errors.append(raised.value.message)
    assert errors[0] == CHECK_OLD_PASSWORD and errors[-1] == TOO_MANY_LOGIN_ATTEMPTS
    with pytest.raises(AccountError) as raised:
        committed(db, request_email_change, member.id, PASSWORD, "new@example.com", BAN_SECRET)
    assert raised.value.message == TOO_MANY_LOGIN_ATTEMPTS


def test_at_most_three_address_changes_are_mailed_a_day(db: Session) -> None:
    member = make_member_with_password(db)
    for n in range(3):
        committed(db, request_email_change, member.id, PASSWORD, f"new{n}@example.com", BAN_SECRET)
    error = _error(request_email_change, db, member.id, PASSWORD, "new3@example.com", BAN_SECRET)
    assert (error.message, error.field) == (TOO_MANY_EMAIL_CHANGES, "email")
    db.rollback()
    tokens = db.exec(select(EmailToken).where(EmailToken.member_id == member.id)).all()
    assert len(tokens) == 3
    for token in tokens:  # a day later the limit is free again
        token.created_at -= timedelta(days=1, minutes=1)
        db.add(token)
    db.commit()
    assert committed(db, request_email_change, member.id, PASSWORD, "new3@example.com", BAN_SECRET)[
        0
    ]
