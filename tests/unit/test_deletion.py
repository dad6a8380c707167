"""Deleting an account: hidden at once, reactivable for 14 days, then erased."""

from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from models.account_errors import AccountError
from models.auth_session import AuthSession, member_id_for_token, start_session
from models.blocks import Block
from models.credits import CreditEntry, grant_credits
from models.deletion import (
    CHOOSE_REASON,
    GRACE_PERIOD,
    NOTE_MAX,
    WRONG_PASSWORD,
    delete_account,
    erase_expired_accounts,
    reactivate,
    request_reactivation,
)
from models.direct_debit import SddMandate, SmsCode, new_code
from models.email_tokens import EmailToken, Purpose, issue_token
from models.likes import Like, like_member
from models.login import attempt_login
from models.member import Member, MemberStatus, Photo, Profile, utcnow
from models.notice_mails import NoticeMail, claim_notice
from models.notification_prefs import save_preferences, unsubscribe_key
from models.push_subscription import PushSubscription, save_subscription
from models.search import SearchFilters, save_filters, saved_filters
from models.signup import SignupSource
from services.account_purge import purge_expired_accounts
from services.config import get_config
from tests.factories import (
    PASSWORD,
    add_photo,
    block_member,
    committed,
    make_member,
    make_member_with_password,
)
from translations.errors import LOGIN_FAILED

IBAN = "NL91ABNA0417164300"


def _delete(db: Session, member: Member, note: str = "") -> str:
    return committed(db, delete_account, member.id, PASSWORD, "found_partner", note)


def _age_deletion(db: Session, member: Member, days: float) -> None:
    member.deleted_at = utcnow() - timedelta(days=days)
    db.add(member)
    db.commit()


# --- deleting -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "reason", "message"),
    [
        ("wrong password", "found_partner", WRONG_PASSWORD),
        ("", "other", WRONG_PASSWORD),
        (PASSWORD, "bored", CHOOSE_REASON),
        (PASSWORD, "", CHOOSE_REASON),
    ],
)
def test_refused_deletion_changes_nothing(db: Session, password, reason, message) -> None:
    member = make_member_with_password(db)
    session = committed(db, start_session, member.id)
    with pytest.raises(AccountError) as caught:
        committed(db, delete_account, member.id, password, reason, "")
    assert caught.value.message == message
    db.rollback()
    assert db.get(Member, member.id).status == MemberStatus.ACTIVE
    assert db.get(Profile, member.id).status == "enabled"
    assert member_id_for_token(db, session) == member.id


def test_deletion_hides_the_account_and_ends_its_sessions(db: Session) -> None:
    member = make_member_with_password(db)
    sessions = [committed(db, start_session, member.id) for _ in range(2)]
    token = committed(db, delete_account, member.id, PASSWORD, "privacy", "  " + "n" * 600)
    stored = db.get(Member, member.id)
    assert stored.status == MemberStatus.DELETED_PENDING
    assert utcnow() - timedelta(minutes=1) < stored.deleted_at <= utcnow()
    assert stored.delete_reason == "privacy" and stored.delete_note == "n" * NOTE_MAX
    assert db.get(Profile, member.id).status == "disabled"
    assert [member_id_for_token(db, s) for s in sessions] == [None, None]
    assert token


def test_deletion_note_loses_nul_characters(db: Session) -> None:
    member = make_member_with_password(db)
    committed(db, delete_account, member.id, PASSWORD, "other", "too\x00 many")
    assert db.get(Member, member.id).delete_note == "too many"


def test_deleted_account_cannot_be_deleted_twice_once_erased(db: Session) -> None:
    member = make_member_with_password(db)
    _delete(db, member)
    _age_deletion(db, member, 15)
    committed(db, erase_expired_accounts, utcnow())
    with pytest.raises(AccountError) as caught:
        _delete(db, member)
    assert caught.value.message == WRONG_PASSWORD


# --- reactivating -------------------------------------------------------------------------


def test_reactivation_within_the_grace_period_restores_the_account(db: Session) -> None:
    member = make_member_with_password(db)
    token = _delete(db, member, "bye")
    _age_deletion(db, member, 13)
    assert committed(db, reactivate, token).id == member.id
    stored = db.get(Member, member.id)
    assert stored.status == MemberStatus.ACTIVE
    assert stored.deleted_at is None and stored.delete_reason is None and stored.delete_note is None
    assert db.get(Profile, member.id).status == "enabled"
    assert committed(db, reactivate, token) is None


def test_reactivation_after_the_grace_period_fails(db: Session) -> None:
    member = make_member_with_password(db)
    token = _delete(db, member)
    _age_deletion(db, member, 14.01)
    assert committed(db, reactivate, token) is None
    assert db.get(Member, member.id).status == MemberStatus.DELETED_PENDING
    assert committed(db, request_reactivation, "anna@example.com") is None


def test_reactivation_link_of_another_purpose_or_garbage_fails(db: Session) -> None:
    member = make_member_with_password(db)
    _delete(db, member)
    activation = issue_token(db, member.id, Purpose.ACTIVATE)
    db.commit()
    for token in (activation, None, "garbage"):
        assert committed(db, reactivate, token) is None
    assert db.get(Member, member.id).status == MemberStatus.DELETED_PENDING


def test_a_new_reactivation_link_is_mailed_only_for_accounts_awaiting_deletion(db: Session) -> None:
    member = make_member_with_password(db)
    make_member(db, "bert@example.com")
    first = _delete(db, member)
    found, token = committed(db, request_reactivation, " ANNA@example.com")
    assert found.id == member.id
    assert committed(db, reactivate, first) is None  # the new link replaced the first
    assert committed(db, request_reactivation, "bert@example.com") is None
    assert committed(db, request_reactivation, "nobody@example.com") is None
    assert committed(db, reactivate, token).id == member.id


def test_account_awaiting_deletion_can_still_log_in(db: Session) -> None:
    member = make_member_with_password(db)
    _delete(db, member)
    assert committed(db, attempt_login, "anna@example.com", PASSWORD).awaiting_deletion is True


# --- erasing ------------------------------------------------------------------------------


def _full_account(db: Session, email: str, stem: str) -> Member:
    member = make_member_with_password(db, email)
    add_photo(db, member, f"{stem}1", main=True)
    add_photo(db, member, f"{stem}2")
    committed(db, save_subscription, member.id, f"https://push.example.com/{stem}", "key", "auth")
    db.add(SignupSource(member_id=member.id, network="adnet", signup_message="Hi, I am Anna"))
    grant_credits(db, member, 10, "signup")
    db.commit()
    committed(db, start_session, member.id)
    return member


def _rows(db: Session, table, member_id: int) -> list:
    return db.exec(select(table).where(table.member_id == member_id)).all()


def test_expired_accounts_are_erased_but_keep_their_ledger(db: Session) -> None:
    member = _full_account(db, "anna@example.com", "annaphoto")
    _delete(db, member, "moved abroad")
    issue_token(db, member.id, Purpose.RESET_PASSWORD)
    unsubscribe_key(db, member)
    claim_notice(db, member.id, "likes", utcnow())
    db.commit()
    _age_deletion(db, member, 15)
    erased = committed(db, erase_expired_accounts, utcnow())
    assert [e.member_id for e in erased] == [member.id]
    assert sorted(erased[0].photo_files) == [
        "annaphoto1.jpg", "annaphoto1_t.jpg", "annaphoto2.jpg", "annaphoto2_t.jpg"
    ]  # fmt: skip
    db.expire_all()
    stored = db.get(Member, member.id)
    assert stored.email == f"deleted-{member.id}@deleted.invalid"
    assert stored.password_hash is None and stored.delete_note is None
    assert stored.unsubscribe_key is None
    assert stored.status == MemberStatus.DELETED
    assert db.get(Profile, member.id) is None
    for table in (Photo, PushSubscription, EmailToken, AuthSession, NoticeMail):
        assert _rows(db, table, member.id) == [], table.__name__
    source = db.get(SignupSource, member.id)
    assert source.signup_message == "" and source.network == "adnet"
    assert [e.amount for e in _rows(db, CreditEntry, member.id)] == [10]
    assert _rows(db, CreditEntry, member.id)[0].amount == stored.credits


def test_accounts_inside_the_grace_period_are_untouched(db: Session) -> None:
    recent = _full_account(db, "anna@example.com", "annaphoto")
    active = _full_account(db, "bert@example.com", "bertphoto")
    _delete(db, recent)
    _age_deletion(db, recent, 13.9)
    assert committed(db, erase_expired_accounts, utcnow()) == []
    db.expire_all()
    for member, email in ((recent, "anna@example.com"), (active, "bert@example.com")):
        stored = db.get(Member, member.id)
        assert stored.email == email and stored.password_hash is not None
        assert db.get(Profile, member.id) is not None
        assert len(_rows(db, Photo, member.id)) == 2
        assert db.get(SignupSource, member.id).signup_message == "Hi, I am Anna"
    assert db.get(Member, recent.id).status == MemberStatus.DELETED_PENDING


def test_erasure_happens_once(db: Session) -> None:
    member = make_member_with_password(db)
    _delete(db, member)
    _age_deletion(db, member, 20)
    assert [e.member_id for e in committed(db, erase_expired_accounts, utcnow())] == [member.id]
    assert committed(db, erase_expired_accounts, utcnow()) == []
    assert committed(db, erase_expired_accounts, utcnow() + GRACE_PERIOD * 10) == []


def test_erased_address_can_sign_up_and_log_in_no_more(db: Session) -> None:
    member = make_member_with_password(db)
    _delete(db, member)
    _age_deletion(db, member, 15)
    committed(db, erase_expired_accounts, utcnow())
    with pytest.raises(AccountError) as caught:
        committed(db, attempt_login, "anna@example.com", PASSWORD)
    assert caught.value.message == LOGIN_FAILED
    assert db.exec(select(Member).where(Member.email == "anna@example.com")).first() is None


def test_erasure_removes_likes_blocks_search_preferences_and_notification_settings(
    db: Session,
) -> None:
    member = make_member_with_password(db, notifications_disabled=["bounce"])
    bert, carl = make_member(db, "bert@example.com"), make_member(db, "carl@example.com")
    committed(db, like_member, member.id, bert.id)
    committed(db, like_member, carl.id, member.id)
    committed(db, like_member, bert.id, carl.id)
    block_member(db, member.id, carl.id)
    block_member(db, bert.id, member.id)
    block_member(db, carl.id, bert.id)
    committed(db, save_filters, member.id, SearchFilters(gender="male"))
    committed(db, save_filters, bert.id, SearchFilters(gender="female"))
    committed(db, save_preferences, member.id, {"email_likes": False})
    _delete(db, member)
    _age_deletion(db, member, 15)
    committed(db, erase_expired_accounts, utcnow())
    db.expire_all()
    assert [(x.liker_id, x.liked_id) for x in db.exec(select(Like))] == [(bert.id, carl.id)]
    assert [(x.blocker_id, x.blocked_id) for x in db.exec(select(Block))] == [(carl.id, bert.id)]
    assert saved_filters(db, member.id) is None
    assert saved_filters(db, bert.id) == SearchFilters(gender="female")
    stored = db.get(Member, member.id)
    assert stored.notification_settings == {} and stored.notifications_disabled == []


# --- the scheduled purge ------------------------------------------------------------------


@pytest.fixture
def photo_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    get_config.cache_clear()
    folder = tmp_path / "media" / "photos"
    folder.mkdir(parents=True)
    yield folder
    get_config.cache_clear()


def test_purge_erases_due_accounts_and_removes_their_photo_files(
    db: Session, photo_dir: Path
) -> None:
    gone = _full_account(db, "anna@example.com", "annaphoto")
    kept = _full_account(db, "bert@example.com", "bertphoto")
    for photo in db.exec(select(Photo)):
        for name in (photo.filename, photo.thumb_filename):
            (photo_dir / name).write_bytes(b"jpeg")
    _delete(db, gone)
    _age_deletion(db, gone, 15)
    assert purge_expired_accounts() == 1
    assert sorted(p.name for p in photo_dir.iterdir()) == [
        "bertphoto1.jpg", "bertphoto1_t.jpg", "bertphoto2.jpg", "bertphoto2_t.jpg"
    ]  # fmt: skip
    db.expire_all()
    assert db.get(Member, gone.id).status == MemberStatus.DELETED
    assert db.get(Member, kept.id).status == MemberStatus.ACTIVE
    assert purge_expired_accounts() == 0


def test_purge_with_nothing_due_removes_nothing(db: Session, photo_dir: Path) -> None:
    member = _full_account(db, "anna@example.com", "annaphoto")
    (photo_dir / "annaphoto1.jpg").write_bytes(b"jpeg")
    _delete(db, member)
    assert purge_expired_accounts() == 0
    assert (photo_dir / "annaphoto1.jpg").exists()


def test_erasure_takes_unsigned_direct_debit_mandates_and_their_codes(db: Session) -> None:
    member = make_member_with_password(db, "debtor@example.com")
    draft = SddMandate(
        member_id=member.id, tier="p1", payment_country="NL", account_holder="A", iban=IBAN,
        street="S", house_number="1", zip="1015 CJ", city="C", country="NL",
        phone_e164="+31612345678", mandate_text="text",
    )  # fmt: skip
    db.add(draft)
    db.commit()
    assert isinstance(new_code(db, draft, utcnow()), str)
    db.commit()
    _delete(db, member)
    _age_deletion(db, member, 15)
    committed(db, erase_expired_accounts, utcnow())
    assert db.exec(select(SddMandate)).all() == [] and db.exec(select(SmsCode)).all() == []
