"""The account actions as the screens call them: database work plus the e-mail."""

from collections.abc import Iterator
from datetime import date, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from babel.dates import format_date
from sqlmodel import Session, select

import services.site_settings
from models.account_errors import AccountError
from models.auth_session import AuthSession, member_id_for_token, redeem_handoff, start_session
from models.member import Member, MemberStatus, Profile, utcnow
from models.passwords import verify_password
from models.signup import NewAccount, SignupForm, clean_signup, clean_tracking
from models.site_settings import SiteSettings
from services.accounts import (
    ACTIVATE_PATH,
    MAIL_CHANGE_PATH,
    REACTIVATE_PATH,
    RESET_PATH,
    activate_from_link,
    activation_mail,
    confirm_new_email,
    delete_my_account,
    email_change_mail,
    log_in,
    new_password,
    password_reset_mail,
    reactivate_from_link,
    reactivation_mail,
    reset_password,
    sign_up,
)
from services.config import get_config
from services.mail import OutgoingMail
from tests.factories import PASSWORD, make_member, make_member_with_password, row_count
from translations.errors import CHECK_OLD_PASSWORD, LOGIN_FAILED, RESET_LINK_INVALID

NEW = "a brand new passphrase"


@pytest.fixture(autouse=True)
def fresh_settings(engine) -> Iterator[None]:
    """Site settings read from this test's database, not a cached earlier one."""
    services.site_settings.forget_cached_settings()
    yield
    services.site_settings.forget_cached_settings()


def _token(mail: OutgoingMail, path: str) -> str:
    (link,) = mail.links
    assert link.startswith(get_config().public_url + path.split("?")[0])
    assert path in link and link in mail.text
    return parse_qs(urlsplit(link).query)["token"][0]


def _stored(db: Session, member_id: int) -> Member:
    db.rollback()  # end the test session's snapshot: the service wrote in its own session
    db.expire_all()
    return db.get(Member, member_id)


def _sign_up(locale: str = "nl"):
    form = SignupForm(
        email="Anna@Example.com",
        name="Sunny Anna",
        password=PASSWORD,
        date_of_birth="1990-05-17",
        gender="female",
        seeking="male",
    )
    settings = SiteSettings()
    clean = clean_signup(form, settings, date(2025, 6, 15))
    return sign_up(clean, NewAccount(settings, locale, "NL", clean_tracking({})))


def test_sign_up_logs_in_through_a_handoff_and_mails_the_activation_link(db: Session) -> None:
    login, mail = _sign_up("de")
    assert login.language == "de" and login.handoff
    assert mail.to == "anna@example.com"
    assert "/api/activate.php?token=" in mail.links[0]
    assert "Sunny Anna" in mail.text
    cookie = redeem_handoff(db, login.handoff)
    assert member_id_for_token(db, cookie) == login.member_id
    assert _stored(db, login.member_id).status == MemberStatus.NOT_CONFIRMED


def test_activation_link_activates_without_starting_a_session(db: Session) -> None:
    login, mail = _sign_up()
    token = _token(mail, ACTIVATE_PATH)
    sessions = row_count(db, AuthSession)
    assert activate_from_link(token) is True
    assert _stored(db, login.member_id).status == MemberStatus.ACTIVE
    assert db.get(Profile, login.member_id).status == "enabled"
    assert activate_from_link(token) is True  # a second click (or a mail scanner's first)
    assert row_count(db, AuthSession) == sessions


def test_unknown_activation_link_fails(db: Session) -> None:
    login, _ = _sign_up()
    for token in ("garbage", "", "x" * 200):
        assert activate_from_link(token) is False
    assert _stored(db, login.member_id).status == MemberStatus.NOT_CONFIRMED


def test_activation_mail_again_replaces_the_link_and_not_for_active_members(db: Session) -> None:
    login, first = _sign_up()
    again = activation_mail(login.member_id)
    assert activate_from_link(_token(first, ACTIVATE_PATH)) is False
    assert activate_from_link(_token(again, ACTIVATE_PATH)) is True
    assert activation_mail(login.member_id) is None
    assert activation_mail(4242) is None


def test_log_in_with_wrong_credentials_raises(db: Session) -> None:
    make_member_with_password(db)
    for email, password in (("anna@example.com", "wrong password"), ("bo@example.com", PASSWORD)):
        with pytest.raises(AccountError) as caught:
            log_in(email, password)
        assert caught.value.message == LOGIN_FAILED


def test_log_in_hands_off_a_session(db: Session) -> None:
    member = make_member_with_password(db, language="fi")
    login = log_in("anna@example.com", PASSWORD)
    assert (login.member_id, login.language) == (member.id, "fi")
    assert member_id_for_token(db, redeem_handoff(db, login.handoff)) == member.id


def test_log_in_awaiting_deletion_gets_no_session(db: Session) -> None:
    member = make_member_with_password(
        db, status=MemberStatus.DELETED_PENDING, deleted_at=utcnow() - timedelta(days=1)
    )
    login = log_in("anna@example.com", PASSWORD)
    assert login.member_id == member.id and login.handoff is None
    assert db.exec(select(AuthSession)).all() == []


def test_password_reset_by_mail(db: Session) -> None:
    member = make_member_with_password(db)
    old = start_session(db, member.id)
    assert password_reset_mail("nobody@example.com", "192.0.2.1") is None
    mail = password_reset_mail("anna@example.com", "192.0.2.1")
    token = _token(mail, RESET_PATH)
    login = reset_password(token, NEW, NEW)
    assert login.member_id == member.id
    assert member_id_for_token(db, redeem_handoff(db, login.handoff)) == member.id
    assert member_id_for_token(db, old) is None
    assert verify_password(_stored(db, member.id).password_hash, NEW)
    with pytest.raises(AccountError) as caught:
        reset_password(token, NEW, NEW)
    assert caught.value.message == RESET_LINK_INVALID


def test_new_password_needs_the_old_one(db: Session) -> None:
    member = make_member_with_password(db)
    keep = start_session(db, member.id)
    with pytest.raises(AccountError) as caught:
        new_password(member.id, "wrong password", NEW, NEW, keep)
    assert caught.value.message == CHECK_OLD_PASSWORD
    new_password(member.id, PASSWORD, NEW, NEW, keep)
    assert verify_password(_stored(db, member.id).password_hash, NEW)
    assert member_id_for_token(db, keep) == member.id


def test_email_change_mail_goes_to_the_new_address(db: Session) -> None:
    member = make_member_with_password(db)
    mail = email_change_mail(member.id, PASSWORD, "New@Example.com")
    assert mail.to == "new@example.com"
    token = _token(mail, MAIL_CHANGE_PATH)
    assert confirm_new_email(token) is True
    assert _stored(db, member.id).email == "new@example.com"
    assert confirm_new_email(token) is False


def test_deletion_mails_a_reactivation_link_with_the_erasure_date(db: Session) -> None:
    member = make_member_with_password(db, language="de")
    mail = delete_my_account(member.id, PASSWORD, "taking_break", "")
    stored = _stored(db, member.id)
    assert stored.status == MemberStatus.DELETED_PENDING
    erase_on = (stored.deleted_at + timedelta(days=14)).date()
    assert format_date(erase_on, format="long", locale="de") in mail.text
    assert reactivate_from_link(_token(mail, REACTIVATE_PATH)) is True
    assert _stored(db, member.id).status == MemberStatus.ACTIVE


def test_reactivation_mail_only_for_accounts_awaiting_deletion(db: Session) -> None:
    make_member(db, "bert@example.com")
    member = make_member_with_password(
        db, status=MemberStatus.DELETED_PENDING, deleted_at=utcnow() - timedelta(days=3)
    )
    assert reactivation_mail("bert@example.com") is None
    mail = reactivation_mail("anna@example.com")
    assert mail.to == "anna@example.com"
    assert reactivate_from_link(_token(mail, REACTIVATE_PATH)) is True
    assert _stored(db, member.id).status == MemberStatus.ACTIVE
    assert reactivate_from_link("garbage") is False
