"""Confirming the e-mail address with the activation link."""

from datetime import timedelta

from sqlmodel import Session, select

from models.activation import activate, can_receive_messages, issue_activation
from models.email_tokens import EmailToken, Purpose, issue_token
from models.member import Member, MemberStatus, Profile, utcnow
from tests.factories import make_member


def _unconfirmed(db: Session) -> Member:
    member = make_member(db, status=MemberStatus.NOT_CONFIRMED)
    profile = db.get(Profile, member.id)
    profile.status = "disabled"
    db.add(profile)
    db.commit()
    return member


def test_link_activates_the_member_and_shows_the_profile(db: Session) -> None:
    member = _unconfirmed(db)
    assert member.status == MemberStatus.NOT_CONFIRMED and not can_receive_messages(member)
    token = issue_activation(db, member)
    activated = activate(db, token)
    assert activated is not None and activated.id == member.id
    stored = db.get(Member, member.id)
    assert stored.status == MemberStatus.ACTIVE
    assert db.get(Profile, member.id).status == "enabled"
    assert stored.status == MemberStatus.ACTIVE and can_receive_messages(stored)


def test_link_works_once(db: Session) -> None:
    token = issue_activation(db, _unconfirmed(db))
    assert activate(db, token) is not None
    assert activate(db, token) is None


def test_expired_link_activates_nobody(db: Session) -> None:
    member = _unconfirmed(db)
    token = issue_activation(db, member)
    row = db.exec(select(EmailToken)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()
    assert activate(db, token) is None
    assert db.get(Member, member.id).status == MemberStatus.NOT_CONFIRMED
    assert db.get(Profile, member.id).status == "disabled"


def test_a_newer_activation_mail_replaces_the_older_link(db: Session) -> None:
    member = _unconfirmed(db)
    first = issue_activation(db, member)
    second = issue_activation(db, member)
    assert activate(db, first) is None
    assert activate(db, second) is not None


def test_other_links_and_garbage_do_not_activate(db: Session) -> None:
    member = _unconfirmed(db)
    reset = issue_token(db, member.id, Purpose.RESET_PASSWORD)
    db.commit()
    for token in (reset, None, "", "garbage", "x" * 500):
        assert activate(db, token) is None
    assert db.get(Member, member.id).status == MemberStatus.NOT_CONFIRMED


def test_link_does_not_revive_an_account_awaiting_deletion(db: Session) -> None:
    member = _unconfirmed(db)
    token = issue_activation(db, member)
    member.status = MemberStatus.DELETED_PENDING
    db.add(member)
    db.commit()
    assert activate(db, token) is None
    assert db.get(Member, member.id).status == MemberStatus.DELETED_PENDING
    assert db.get(Profile, member.id).status == "disabled"


def test_only_confirmed_members_receive_messages() -> None:
    statuses = {
        status: can_receive_messages(Member(email="a@b.c", status=status))
        for status in MemberStatus
    }
    assert statuses == {
        MemberStatus.NOT_CONFIRMED: False,
        MemberStatus.ACTIVE: True,
        MemberStatus.DELETED_PENDING: False,
        MemberStatus.DELETED: False,
        MemberStatus.SUSPENDED: False,
        MemberStatus.BANNED: False,
    }
