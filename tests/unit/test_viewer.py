"""The one viewer check: the session of this cookie, live, and a member status allowed."""

from datetime import timedelta

import pytest
from sqlmodel import Session

from actions.viewer import ACTIVE, SIGNED_IN, resolve_viewer, session_token, viewer_in
from models.auth_session import AuthSession, end_session, start_handoff_session, start_session
from models.member import MemberStatus, utcnow
from tests.factories import committed, make_member
from tests.queries import statements


def test_a_live_session_names_its_member(db: Session) -> None:
    member = make_member(db, language="de")
    viewer = resolve_viewer(committed(db, start_session, member.id))
    assert viewer is not None and viewer.member_id == member.id
    assert viewer.language == "de" and viewer.confirmed


def test_the_check_is_one_statement(db: Session) -> None:
    token = committed(db, start_session, make_member(db).id)
    with statements() as seen:
        assert viewer_in(db, token) is not None
    assert len(seen) == 1


@pytest.mark.parametrize("token", [None, "", "forged", "x" * 101])
def test_no_or_a_forged_token_is_nobody(db: Session, token: str | None) -> None:
    make_member(db)
    assert resolve_viewer(token) is None


def test_an_ended_or_expired_session_is_nobody(db: Session) -> None:
    member = make_member(db)
    ended, expired = (
        committed(db, start_session, member.id),
        committed(db, start_session, member.id),
    )
    committed(db, end_session, ended)
    row = db.exec(AuthSession.__table__.select()).all()[-1]
    db.get(AuthSession, row.id).expires_at = utcnow() - timedelta(seconds=1)
    db.commit()
    assert resolve_viewer(ended) is None and resolve_viewer(expired) is None


def test_a_hand_off_not_yet_traded_is_nobody(db: Session) -> None:
    code = committed(db, start_handoff_session, make_member(db).id)
    assert resolve_viewer(code) is None


def test_the_status_must_be_allowed(db: Session) -> None:
    new = make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)
    gone = make_member(db, "gone@example.com", status=MemberStatus.DELETED_PENDING)
    new_token, gone_token = (
        committed(db, start_session, new.id),
        committed(db, start_session, gone.id),
    )
    assert resolve_viewer(new_token, SIGNED_IN) is not None
    assert resolve_viewer(new_token, ACTIVE) is None
    assert resolve_viewer(gone_token, SIGNED_IN) is None


def test_the_token_is_read_from_the_cookie_header() -> None:
    assert session_token('a=1; broken="; auth.session=tok; b=2') == "tok"
    assert session_token(None) is None
