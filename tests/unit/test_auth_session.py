from datetime import timedelta

import pytest
from sqlmodel import Session, select

from models.auth_session import (
    SESSION_LIFETIME,
    AuthSession,
    end_all_sessions,
    end_session,
    hash_token,
    member_id_for_token,
    redeem_handoff,
    start_handoff_session,
    start_session,
)
from models.member import utcnow
from services.account_purge import purge_expired_accounts
from tests.factories import make_member


def test_token_finds_its_member_and_only_its_hash_is_stored(db: Session) -> None:
    member = make_member(db)
    token = start_session(db, member.id)
    assert member_id_for_token(db, token) == member.id
    stored = db.exec(select(AuthSession)).one()
    assert token not in stored.token_hash and len(token) >= 43


def test_unknown_empty_and_expired_tokens_find_nobody(db: Session) -> None:
    member = make_member(db)
    token = start_session(db, member.id)
    assert member_id_for_token(db, "forged") is None
    assert member_id_for_token(db, None) is None
    row = db.exec(select(AuthSession)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()
    assert member_id_for_token(db, token) is None


def test_ended_session_no_longer_works(db: Session) -> None:
    member = make_member(db)
    token = start_session(db, member.id)
    end_session(db, token)
    assert member_id_for_token(db, token) is None


def _session_row(db: Session, member_id: int) -> AuthSession:
    return db.exec(select(AuthSession).where(AuthSession.member_id == member_id)).one()


def test_handoff_code_is_traded_for_a_working_cookie_token_once(db: Session) -> None:
    member = make_member(db)
    code = start_handoff_session(db, member.id)
    token = redeem_handoff(db, code)
    assert token is not None and token != code
    assert member_id_for_token(db, token) == member.id
    assert _session_row(db, member.id).handoff_hash is None
    assert redeem_handoff(db, code) is None
    assert member_id_for_token(db, token) == member.id


def test_expired_handoff_is_refused_and_its_session_removed(db: Session) -> None:
    member = make_member(db)
    code = start_handoff_session(db, member.id)
    row = _session_row(db, member.id)
    row.created_at = utcnow() - timedelta(minutes=2)
    db.add(row)
    db.commit()
    assert redeem_handoff(db, code) is None
    assert db.exec(select(AuthSession)).all() == []


def test_handoff_just_inside_its_minute_still_works(db: Session) -> None:
    member = make_member(db)
    code = start_handoff_session(db, member.id)
    row = _session_row(db, member.id)
    row.created_at = utcnow() - timedelta(seconds=50)
    db.add(row)
    db.commit()
    assert member_id_for_token(db, redeem_handoff(db, code)) == member.id


def test_handoff_session_is_no_cookie_before_redemption(db: Session) -> None:
    member = make_member(db)
    code = start_handoff_session(db, member.id)
    assert member_id_for_token(db, code) is None
    row = _session_row(db, member.id)
    row.token_hash = hash_token("a-known-cookie-token")
    db.add(row)
    db.commit()
    assert member_id_for_token(db, "a-known-cookie-token") is None
    token = redeem_handoff(db, code)
    assert member_id_for_token(db, token) == member.id
    assert member_id_for_token(db, "a-known-cookie-token") is None


@pytest.mark.parametrize("code", [None, "", "unknown", "x" * 101])
def test_bad_handoff_codes_find_nothing(db: Session, code: str | None) -> None:
    member = make_member(db)
    start_handoff_session(db, member.id)
    assert redeem_handoff(db, code) is None
    assert _session_row(db, member.id).handoff_hash is not None


def test_end_all_sessions_keeps_only_the_given_token(db: Session) -> None:
    member = make_member(db)
    other = make_member(db, "bert@example.com")
    tokens = [start_session(db, member.id) for _ in range(3)]
    pending = start_handoff_session(db, member.id)
    others_token = start_session(db, other.id)
    end_all_sessions(db, member.id, keep_token=tokens[1])
    db.commit()
    assert [member_id_for_token(db, t) for t in tokens] == [None, member.id, None]
    assert redeem_handoff(db, pending) is None
    assert member_id_for_token(db, others_token) == other.id


def test_end_all_sessions_without_a_token_to_keep_ends_every_one(db: Session) -> None:
    member = make_member(db)
    tokens = [start_session(db, member.id) for _ in range(2)]
    end_all_sessions(db, member.id)
    db.commit()
    assert [member_id_for_token(db, t) for t in tokens] == [None, None]
    assert db.exec(select(AuthSession)).all() == []


def test_end_session_ends_only_that_session(db: Session) -> None:
    member = make_member(db)
    first, second = start_session(db, member.id), start_session(db, member.id)
    end_session(db, first)
    end_session(db, None)
    end_session(db, "unknown")
    assert member_id_for_token(db, first) is None
    assert member_id_for_token(db, second) == member.id


def test_session_lasts_thirty_days(db: Session) -> None:
    member = make_member(db)
    start_session(db, member.id)
    row = _session_row(db, member.id)
    assert row.expires_at - row.created_at == pytest.approx(
        SESSION_LIFETIME, abs=timedelta(seconds=5)
    )


def test_the_hourly_purge_deletes_expired_sessions_and_stale_handoffs(db: Session, outbox) -> None:
    member = make_member(db)
    live, expired = start_session(db, member.id), start_session(db, member.id)
    start_handoff_session(db, member.id)
    db.commit()
    now = utcnow()
    for row in db.exec(select(AuthSession)):
        if row.token_hash == hash_token(expired):
            row.expires_at = now - timedelta(seconds=1)  # its 30 days are over
        elif row.handoff_hash:
            row.created_at = now - timedelta(minutes=1, seconds=1)  # never traded in its minute
        db.add(row)
    db.commit()
    purge_expired_accounts()
    db.expire_all()
    assert [row.token_hash for row in db.exec(select(AuthSession))] == [hash_token(live)]
