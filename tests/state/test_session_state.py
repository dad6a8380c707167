import pytest
from sqlmodel import Session

from actions.viewer import session_token
from models.auth_session import start_session
from state.session import SessionState, badge_text
from tests.factories import make_member
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
    token = start_session(db, member.id)
    session = substate(make_root(cookie=f"auth.session={token}"), SessionState)
    await session._load()
    assert session.logged_in and session.name == "Lotte"
    assert session.credits == 8 and session.paid_user


async def test_a_forged_cookie_or_a_pending_deletion_logs_nobody_in(make_root, db: Session) -> None:
    member = make_member(db, status="deleted_pending")
    token = start_session(db, member.id)
    for cookie in ("auth.session=forged", f"auth.session={token}"):
        session = substate(make_root(cookie=cookie), SessionState)
        await session._load()
        assert not session.logged_in


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
