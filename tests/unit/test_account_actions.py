"""The account actions as the screens call them: database work, and the mail as an effect after
the commit or as the value the screen sends itself."""

from collections.abc import Iterator
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from babel.dates import format_date
from sqlmodel import Session, select

import actions.signup
import services.site_settings
from actions.account_links import confirm_address, undo_deletion
from actions.accounts import (
    activation_mail,
    confirm_new_email,
    delete_my_account,
    email_change_mail,
    log_in,
    new_password,
    reactivation_link,
    request_password_reset,
    reset_password,
)
from actions.mail import MailOut
from actions.runner import Done
from actions.signup import Arrival, sign_up
from actions.viewer import Viewer
from models.account_errors import AccountError
from models.auth_session import AuthSession, member_id_for_token, redeem_handoff, start_session
from models.credits import CreditEntry
from models.email_tokens import EmailToken
from models.member import Member, MemberStatus, Profile, utcnow
from models.passwords import verify_password
from models.signup import SignupForm, SignupSource
from services.account_mail import ACTIVATE_PATH, MAIL_CHANGE_PATH, REACTIVATE_PATH, RESET_PATH
from services.config import get_config
from services.device_cookie import issue
from services.mail import OutgoingMail
from tests.factories import (
    PASSWORD,
    committed,
    make_member,
    make_member_with_password,
    row_count,
    row_counts,
)
from translations.errors import (
    CHECK_OLD_PASSWORD,
    LOGIN_FAILED,
    RESET_LINK_INVALID,
    TOO_MANY_LOGIN_ATTEMPTS,
)

NEW = "a brand new passphrase"
CLIENT = "192.0.2.1"


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


def _mailed(done: Done) -> OutgoingMail:
    """The one mail an action leaves to go out after its commit."""
    (effect,) = done.effects
    assert isinstance(effect, MailOut)
    return effect.mail


def _stored(db: Session, member_id: int) -> Member:
    db.rollback()  # end the test session's snapshot: the action wrote in its own session
    db.expire_all()
    return db.get(Member, member_id)


def _viewer(member: Member) -> Viewer:
    return Viewer(member.id, member.status, member.language, member.paid_user)


def _sign_up(locale: str = "nl") -> Done:
    form = SignupForm(
        email="Anna@Example.com",
        name="Sunny Anna",
        password=PASSWORD,
        date_of_birth="1990-05-17",
        gender="female",
        seeking="male",
    )
    return sign_up(form, Arrival(locale, "NL", {}, None))


def test_sign_up_logs_in_through_a_handoff_and_mails_after_the_commit(db: Session) -> None:
    done = _sign_up("de")
    new, mail = done.value, _mailed(done)
    assert new.handoff and new.session_id
    assert mail.to == "anna@example.com"
    assert "/api/activate.php?token=" in mail.links[0]
    assert "Sunny Anna" in mail.text
    cookie = committed(db, redeem_handoff, new.handoff)
    assert member_id_for_token(db, cookie) == new.member_id
    stored = _stored(db, new.member_id)
    assert (stored.status, stored.language) == (MemberStatus.NOT_CONFIRMED, "de")


def test_a_sign_up_failing_after_the_member_row_leaves_nothing(
    db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Member, profile, tracking, welcome credits, activation link and session are written by
    one transaction: a failing later step (the mail) rolls all of them back."""

    def broken_mail(*_args, **_kwargs):
        raise RuntimeError("mail template missing")

    with monkeypatch.context() as patch, pytest.raises(RuntimeError):
        patch.setattr(actions.signup, "account_mail", broken_mail)
        _sign_up()
    tables = (Member, Profile, SignupSource, CreditEntry, EmailToken, AuthSession)
    assert row_counts(db, *tables) == dict.fromkeys((t.__name__ for t in tables), 0)
    assert _sign_up().value.member_id  # the same address signs up fine afterwards


def test_activation_link_activates_without_starting_a_session(db: Session) -> None:
    done = _sign_up()
    token = _token(_mailed(done), ACTIVATE_PATH)
    sessions = row_count(db, AuthSession)
    assert confirm_address(token).value is True
    assert _stored(db, done.value.member_id).status == MemberStatus.ACTIVE
    assert db.get(Profile, done.value.member_id).status == "enabled"
    assert confirm_address(token).value is True  # a second click (or a mail scanner's first)
    assert row_count(db, AuthSession) == sessions


def test_activation_mail_again_replaces_the_link_and_not_for_active_members(db: Session) -> None:
    done = _sign_up()
    member = _stored(db, done.value.member_id)
    again = activation_mail(_viewer(member)).value
    assert confirm_address(_token(_mailed(done), ACTIVATE_PATH)).value is False
    assert confirm_address(_token(again, ACTIVATE_PATH)).value is True
    assert activation_mail(_viewer(member)).value is None


def test_log_in_with_wrong_credentials_raises(db: Session) -> None:
    make_member_with_password(db)
    for email, password in (("anna@example.com", "wrong password"), ("bo@example.com", PASSWORD)):
        with pytest.raises(AccountError) as caught:
            log_in(email, password, CLIENT)
        assert caught.value.message == LOGIN_FAILED


def test_log_in_hands_off_a_session(db: Session) -> None:
    member = make_member_with_password(db, language="fi")
    login = log_in("anna@example.com", PASSWORD, CLIENT).value
    assert (login.member_id, login.language) == (member.id, "fi")
    assert member_id_for_token(db, committed(db, redeem_handoff, login.handoff)) == member.id


@pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own
def test_log_in_from_a_locked_address_lets_the_members_own_browser_in(db: Session) -> None:
    """The device cookie a log-in left (services/device_cookie.py) carries a locked shared
    address's member in; without it, or with one of a year ago, the lock holds."""
    member = make_member_with_password(db)
    for n in range(20):
        with pytest.raises(AccountError):
            log_in(f"guess{n}@example.com", "wrong password", CLIENT)
    for stale in ("", issue(member, utcnow() - timedelta(days=366))):
        with pytest.raises(AccountError) as caught:
            log_in("anna@example.com", PASSWORD, CLIENT, None, stale)
        assert caught.value.message == TOO_MANY_LOGIN_ATTEMPTS
    device = issue(member, utcnow())
    assert log_in("anna@example.com", PASSWORD, CLIENT, None, device).value.member_id == member.id


def test_log_in_awaiting_deletion_gets_no_session(db: Session) -> None:
    member = make_member_with_password(
        db, status=MemberStatus.DELETED_PENDING, deleted_at=utcnow() - timedelta(days=1)
    )
    login = log_in("anna@example.com", PASSWORD, CLIENT).value
    assert login.member_id == member.id and login.handoff is None
    assert db.exec(select(AuthSession)).all() == []


def test_password_reset_by_mail(db: Session) -> None:
    member = make_member_with_password(db)
    old = committed(db, start_session, member.id)
    assert request_password_reset("nobody@example.com", CLIENT).effects == ()
    token = _token(_mailed(request_password_reset("anna@example.com", CLIENT)), RESET_PATH)
    login = reset_password(token, NEW, NEW).value
    assert login.member_id == member.id
    assert member_id_for_token(db, committed(db, redeem_handoff, login.handoff)) == member.id
    assert member_id_for_token(db, old) is None
    assert verify_password(_stored(db, member.id).password_hash, NEW)
    with pytest.raises(AccountError) as caught:
        reset_password(token, NEW, NEW)
    assert caught.value.message == RESET_LINK_INVALID


def test_new_password_needs_the_old_one(db: Session) -> None:
    member = make_member_with_password(db)
    keep = committed(db, start_session, member.id)
    with pytest.raises(AccountError) as caught:
        new_password(_viewer(member), "wrong password", NEW, NEW, keep)
    assert caught.value.message == CHECK_OLD_PASSWORD
    new_password(_viewer(member), PASSWORD, NEW, NEW, keep)
    assert verify_password(_stored(db, member.id).password_hash, NEW)
    assert member_id_for_token(db, keep) == member.id


def test_email_change_mail_goes_to_the_new_address(db: Session) -> None:
    member = make_member_with_password(db)
    mail = email_change_mail(_viewer(member), PASSWORD, "New@Example.com").value
    assert mail.to == "new@example.com"
    token = _token(mail, MAIL_CHANGE_PATH)
    assert confirm_new_email(token).value is True
    assert _stored(db, member.id).email == "new@example.com"
    assert confirm_new_email(token).value is False


def test_deletion_mails_a_reactivation_link_with_the_erasure_date(db: Session) -> None:
    member = make_member_with_password(db, language="de")
    mail = _mailed(delete_my_account(_viewer(member), PASSWORD, "taking_break", ""))
    stored = _stored(db, member.id)
    assert stored.status == MemberStatus.DELETED_PENDING
    erase_on = (stored.deleted_at + timedelta(days=14)).date()
    assert format_date(erase_on, format="long", locale="de") in mail.text
    assert undo_deletion(_token(mail, REACTIVATE_PATH)).value is True
    assert _stored(db, member.id).status == MemberStatus.ACTIVE


def test_reactivation_mail_only_for_accounts_awaiting_deletion(db: Session) -> None:
    make_member(db, "bert@example.com")
    member = make_member_with_password(
        db, status=MemberStatus.DELETED_PENDING, deleted_at=utcnow() - timedelta(days=3)
    )
    assert reactivation_link("bert@example.com").value is None
    assert reactivation_link("not an address").value is None
    mail = reactivation_link("anna@example.com").value
    assert mail.to == "anna@example.com"
    assert undo_deletion(_token(mail, REACTIVATE_PATH)).value is True
    assert _stored(db, member.id).status == MemberStatus.ACTIVE
