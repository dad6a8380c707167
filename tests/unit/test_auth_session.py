from datetime import timedelta

from sqlmodel import Session, select

from models.auth_session import AuthSession, end_session, member_id_for_token, start_session
from models.member import utcnow
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
