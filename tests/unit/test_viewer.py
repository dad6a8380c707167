"""The one viewer check: the session of this cookie, live, and a member status allowed. Each
case runs on both paths: in the thread pool (`resolve_viewer`) and from the serving loop
(`viewer_now`, on the loop's own pool on PostgreSQL)."""

import asyncio
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlmodel import Session

import services.database
from actions.viewer import (
    ACTIVE,
    SIGNED_IN,
    Viewer,
    resolve_viewer,
    session_token,
    viewer_in,
    viewer_now,
)
from models.auth_session import AuthSession, end_session, start_handoff_session, start_session
from models.member import MemberStatus, utcnow
from services.loop_database import on_this_loop, serve_on_loop
from tests.factories import committed, make_member
from tests.queries import statements

Check = Callable[..., Viewer | None]


async def _on_the_loop(token: str | None, allowed: frozenset) -> Viewer | None:
    """`viewer_now` from a serving loop: on PostgreSQL on the loop's pool, with no statement
    through SQLAlchemy's engine (the thread path); on SQLite there."""
    postgres = services.database.get_engine().dialect.name == "postgresql"
    async with serve_on_loop(wait=True):
        assert (on_this_loop() is not None) == postgres
        with statements() as on_the_thread_path:
            found = await viewer_now(token, allowed)
    assert not (postgres and on_the_thread_path)
    return found


@pytest.fixture(params=["thread", "loop"])
def check(request: pytest.FixtureRequest) -> Check:
    if request.param == "thread":
        return resolve_viewer
    return lambda token, allowed=SIGNED_IN: asyncio.run(_on_the_loop(token, allowed))


def test_a_live_session_names_its_member(db: Session, check: Check) -> None:
    member = make_member(db, language="de")
    viewer = check(committed(db, start_session, member.id))
    assert viewer is not None and viewer.member_id == member.id
    assert viewer.language == "de" and viewer.confirmed


def test_the_check_is_one_statement(db: Session) -> None:
    token = committed(db, start_session, make_member(db).id)
    with statements() as seen:
        assert viewer_in(db, token) is not None
    assert len(seen) == 1


@pytest.mark.parametrize("token", [None, "", "forged", "x" * 101])
def test_no_or_a_forged_token_is_nobody(db: Session, check: Check, token: str | None) -> None:
    make_member(db)
    assert check(token) is None


def test_an_ended_or_expired_session_is_nobody(db: Session, check: Check) -> None:
    member = make_member(db)
    ended, expired = (
        committed(db, start_session, member.id),
        committed(db, start_session, member.id),
    )
    committed(db, end_session, ended)
    row = db.exec(AuthSession.__table__.select()).all()[-1]
    db.get(AuthSession, row.id).expires_at = utcnow() - timedelta(seconds=1)
    db.commit()
    assert check(ended) is None and check(expired) is None


def test_a_hand_off_not_yet_traded_is_nobody(db: Session, check: Check) -> None:
    code = committed(db, start_handoff_session, make_member(db).id)
    assert check(code) is None


def test_the_status_must_be_allowed(db: Session, check: Check) -> None:
    new = make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)
    gone = make_member(db, "gone@example.com", status=MemberStatus.DELETED_PENDING)
    new_token, gone_token = (
        committed(db, start_session, new.id),
        committed(db, start_session, gone.id),
    )
    assert check(new_token, SIGNED_IN) is not None
    assert check(new_token, ACTIVE) is None
    assert check(gone_token, SIGNED_IN) is None


def test_the_token_is_read_from_the_cookie_header() -> None:
    assert session_token('a=1; broken="; auth.session=tok; b=2') == "tok"
    assert session_token(None) is None
