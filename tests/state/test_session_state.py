import uuid

import pytest
from sqlmodel import Session

from actions.viewer import session_token
from models.auth_session import start_session
from models.chat import Outgoing, send_message
from models.likes import Like
from models.member import MemberStatus, Profile
from services.site_settings import current_settings
from state.session import SessionState, badge_text
from tests.factories import committed, make_member
from tests.queries import statements
from tests.state.conftest import substate


@pytest.mark.parametrize(("count", "text"), [(0, ""), (-3, ""), (7, "7"), (99, "99"), (100, "99+")])
def test_badges_cap_at_99_plus(count: int, text: str) -> None:
    assert badge_text(count) == text


def test_session_token_is_read_from_the_cookie_header() -> None:
    assert session_token("a=1; auth.session=tok123; b=2") == "tok123"
    assert session_token("") is None
    assert session_token('broken="') is None


async def test_logged_out_tab_shows_the_visitor_navigation(make_root) -> None:
    session = substate(make_root(), SessionState)
    await session._load()
    assert not session.logged_in and session.unread_badge == "" and session.likes_badge == ""


async def test_a_valid_session_cookie_loads_the_member(make_root, db: Session) -> None:
    member = make_member(db, "lotte@example.com", credits=8, paid_user=True)
    token = committed(db, start_session, member.id)
    session = substate(make_root(cookie=f"auth.session={token}"), SessionState)
    await session._load()
    assert session.logged_in and session.name == "Lotte"
    assert session.credits == 8 and session.paid_user


async def test_a_forged_cookie_or_a_pending_deletion_logs_nobody_in(make_root, db: Session) -> None:
    member = make_member(db, status="deleted_pending")
    token = committed(db, start_session, member.id)
    for cookie in ("auth.session=forged", f"auth.session={token}"):
        session = substate(make_root(cookie=cookie), SessionState)
        await session._load()
        assert not session.logged_in


async def test_the_frame_and_its_badges_are_one_statement(make_root, db: Session) -> None:
    me = make_member(db, "lotte@example.com", credits=8, paid_user=True)
    fan = make_member(db, "fan@example.com", credits=100)
    db.add(Like(liker_id=fan.id, liked_id=me.id))
    db.commit()
    for text in ("Hoi", "Hoe gaat het?"):
        send_message(db, Outgoing(fan.id, me.id, str(uuid.uuid4()), text=text), current_settings())
    session = substate(
        make_root(cookie=f"auth.session={committed(db, start_session, me.id)}"), SessionState
    )

    with statements() as loading:
        await session._load()
    with statements() as refreshing:
        await session._refresh_counts()

    assert (len(loading), len(refreshing)) == (1, 1)
    assert (session.name, session.credits, session.paid_user) == ("Lotte", 8, True)
    assert (session.unread_messages, session.new_likes) == (2, 1)


@pytest.mark.parametrize(
    ("status", "profile_status", "needs"),
    [(MemberStatus.NOT_CONFIRMED, "disabled", True), (MemberStatus.NOT_CONFIRMED, None, True),
     (MemberStatus.NOT_CONFIRMED, "enabled", False), (MemberStatus.ACTIVE, "disabled", False)],
)  # fmt: skip
async def test_an_unconfirmed_member_without_a_shown_profile_needs_activation(
    make_root, db: Session, status: str, profile_status: str | None, needs: bool
) -> None:
    member = make_member(db, status=status)
    profile = db.get(Profile, member.id)
    if profile_status is None:
        db.delete(profile)
    else:
        profile.status = profile_status
    db.commit()
    session = substate(
        make_root(cookie=f"auth.session={committed(db, start_session, member.id)}"), SessionState
    )
    await session._load()
    assert session.logged_in and session.needs_activation is needs
    assert session.name == ("" if profile_status is None else "Anna")


@pytest.mark.parametrize(
    ("paid", "credits", "shown", "colour"),
    [(True, 11, False, "amber"), (True, 10, True, "amber"), (True, 1, True, "amber"),
     (True, 0, True, "red"), (False, 0, False, "red")],
)  # fmt: skip
def test_credits_badge_rules(make_root, paid, credits, shown, colour) -> None:
    session = substate(make_root(), SessionState)
    session.paid_user, session.credits = paid, credits
    assert session.show_credits_badge is shown
    assert session.credits_badge_color == colour


def test_message_and_like_badges_follow_the_counts(make_root) -> None:
    session = substate(make_root(), SessionState)
    session.unread_messages, session.new_likes = 150, 3
    assert (session.unread_badge, session.likes_badge) == ("99+", "3")
