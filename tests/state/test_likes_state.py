"""The likes screens and the new-like modal: lists, paging, like and unlike, the badge, the
modal's announced and automatic likes, the `t` delay; nothing for logged-out tabs."""

from collections.abc import Callable
from datetime import timedelta

import pytest
import reflex as rx
from sqlmodel import Session, select

import state.likes
from actions.effects import settle
from models.auth_session import start_session
from models.likes import AUTO_LIKE_GAPS, AUTO_LIKE_GRACE, Like, like_member, mark_seen
from models.member import Member, Profile, utcnow
from state.likes import (
    GIVEN,
    RECEIVED,
    LikeModalState,
    LikesState,
    delay_script,
    delay_seconds,
    likes_kind,
)
from state.live import run_on_tab
from state.session import SessionState
from tests.factories import add_photo, block_member, committed, make_member
from tests.state.conftest import event_args, redirects, run, scripts, substate

GONE = "This member is no longer available."
PER_PAGE = 24  # spec: likes lists come 24 at a time


A_DAY_AGO = utcnow() - timedelta(days=1)


def fresh(db: Session) -> Session:
    db.rollback()
    db.expire_all()
    return db


async def logged_in(make_root, db: Session, member: Member, url: str = "/likes") -> rx.State:
    """A tab on `url` with the member's session cookie, its page loaded."""
    root = make_root(url=url, cookie=f"auth.session={committed(db, start_session, member.id)}")
    await substate(root, SessionState)._load()
    return root


def liked_by(db: Session, member: Member, *emails: str) -> list[Member]:
    """New members who each like `member`, in this order."""
    likers = [make_member(db, email) for email in emails]
    for liker in likers:
        committed(db, like_member, liker.id, member.id)
    return likers


def demo_man(db: Session, email: str = "demo@example.com") -> Member:
    """A demo member with a main photo that a woman looking for men may get a like from."""
    member = make_member(db, email, is_demo=True)
    profile = db.get(Profile, member.id)
    profile.gender = "male"
    db.add(profile)
    db.commit()
    add_photo(db, member, f"{member.id}-main", main=True)
    return member


def likes_of(db: Session, liked: Member) -> list[Like]:
    return fresh(db).exec(select(Like).where(Like.liked_id == liked.id)).all()


async def loaded_likes(root: rx.State) -> LikesState:
    likes = substate(root, LikesState)
    await run(likes.load_page())
    return likes


@pytest.mark.parametrize(
    ("path", "kind"),
    [("/likes", RECEIVED), ("/likes/received", RECEIVED), ("/likes/given", GIVEN),
     ("/likes/matches", "matches"), ("/likes/other", RECEIVED), ("/likes/m/3", None),
     ("/members", None)],
)  # fmt: skip
def test_the_path_names_the_list(path: str, kind: str | None) -> None:
    assert likes_kind(path) == kind


@pytest.mark.parametrize(
    ("query", "seconds"),
    [({}, None), ({"t": "5"}, 5), ({"t": "0"}, 0), ({"t": "-4"}, 0), ({"t": "9999"}, 600),
     ({"t": "soon"}, 0)],
)  # fmt: skip
def test_the_delay_comes_from_query_t(query: dict, seconds: int | None) -> None:
    assert delay_seconds(query) == seconds


async def test_received_likes_list_new_ones_first(make_root, db: Session) -> None:
    anna = make_member(db)
    seen, older, newest = liked_by(db, anna, "bob@example.com", "carl@example.com", "dirk@x.nl")
    committed(db, mark_seen, anna.id, seen.id)
    committed(db, like_member, anna.id, older.id)
    likes = await loaded_likes(await logged_in(make_root, db, anna))
    assert likes.kind == RECEIVED and likes.loaded and not likes.has_more
    assert [(c["id"], c["is_new"], c["liked"]) for c in likes.cards] == [
        (newest.id, True, False),
        (older.id, True, True),
        (seen.id, False, False),
    ]
    assert (await likes.get_state(SessionState)).likes_badge == "2"


async def test_given_likes_and_unlike(make_root, db: Session) -> None:
    anna = make_member(db)
    bob, carl = make_member(db, "bob@example.com"), make_member(db, "carl@example.com")
    for other in (bob, carl):
        committed(db, like_member, anna.id, other.id)
    likes = await loaded_likes(await logged_in(make_root, db, anna, "/likes/given"))
    assert likes.kind == GIVEN
    assert {c["id"] for c in likes.cards} == {bob.id, carl.id}
    assert all(c["liked"] and not c["is_new"] for c in likes.cards)
    await run(likes.unlike(bob.id))
    assert fresh(db).get(Like, (anna.id, bob.id)) is None
    assert {c["id"]: c["liked"] for c in likes.cards} == {bob.id: False, carl.id: True}
    assert fresh(db).get(Like, (anna.id, carl.id)) is not None


async def test_lists_come_in_pages_of_24(make_root, db: Session) -> None:
    anna = make_member(db)
    liked_by(db, anna, *(f"m{i}@example.com" for i in range(PER_PAGE + 6)))
    likes = await loaded_likes(await logged_in(make_root, db, anna))
    assert len(likes.cards) == PER_PAGE and likes.has_more
    await run(likes.load_more())
    assert len({c["id"] for c in likes.cards}) == PER_PAGE + 6 and not likes.has_more


async def test_liking_back_stores_the_like_and_recomputes_the_badge(make_root, db) -> None:
    anna = make_member(db)
    (bob,) = liked_by(db, anna, "bob@example.com")
    likes = await loaded_likes(await logged_in(make_root, db, anna))
    session = await likes.get_state(SessionState)
    session.new_likes = 42  # stale
    assert await run(likes.like(bob.id)) == []
    assert fresh(db).get(Like, (anna.id, bob.id)) is not None
    assert likes.cards[0]["liked"] and session.new_likes == 1


@pytest.mark.parametrize("why", ["blocked", "deleted", "no_number", "self"])
async def test_a_like_that_is_not_allowed_is_refused(make_root, db: Session, why: str) -> None:
    anna = make_member(db)
    (bob,) = liked_by(db, anna, "bob@example.com")
    likes = await loaded_likes(await logged_in(make_root, db, anna))
    target = {"blocked": bob.id, "deleted": bob.id, "no_number": "abc", "self": anna.id}[why]
    if why == "blocked":
        block_member(db, bob.id, anna.id)
    if why == "deleted":
        fresh(db).get(Member, bob.id).status = "deleted_pending"
        db.commit()
    events = await run(likes.like(target))
    assert len(events) == 1 and GONE in str(events[0])
    assert fresh(db).exec(select(Like).where(Like.liker_id == anna.id)).all() == []
    if why in ("blocked", "deleted"):
        assert likes.cards == []


async def test_a_logged_out_tab_gets_nothing_and_changes_nothing(make_root, db) -> None:
    anna = make_member(db)
    liked_by(db, anna, "bob@example.com")
    demo_man(db)
    root = make_root(url="/likes?t=3")
    await substate(root, SessionState)._load()
    likes = await loaded_likes(root)
    assert likes.cards == [] and not likes.has_more
    assert redirects(await run(likes.like(anna.id))) == ["/login?next=%2Flikes%3Ft%3D3"]
    assert redirects(await run(likes.unlike(anna.id))) == ["/login?next=%2Flikes%3Ft%3D3"]
    modal = substate(root, LikeModalState)
    assert await run(modal.check()) == [] and await run(modal.show_next()) == []
    assert not modal.open and len(likes_of(db, anna)) == 1
    assert fresh(db).exec(select(Like).where(Like.automatic.is_(True))).all() == []


async def test_the_modal_announces_a_new_like_once(make_root, db: Session) -> None:
    anna = make_member(db)
    (bob,) = liked_by(db, anna, "bob@example.com")
    add_photo(db, bob, "bob-main", main=True)
    modal = substate(await logged_in(make_root, db, anna, "/members"), LikeModalState)
    assert await run(modal.check()) == []
    assert modal.open and modal.liker["id"] == bob.id and modal.liker["name"] == "Bob"
    assert modal.liker["thumb"] == "/media/photos/bob-main_t.jpg"
    modal.open_changed(False)
    assert not modal.open
    await run(modal.check())
    assert not modal.open
    (like,) = likes_of(db, anna)
    assert like.announced and like.is_new


async def test_the_modal_belongs_to_the_page_it_opened_on(make_root, db: Session) -> None:
    anna = make_member(db)
    bob, carl = liked_by(db, anna, "bob@example.com", "carl@example.com")
    root = await logged_in(make_root, db, anna, "/members")
    modal = substate(root, LikeModalState)
    await run(modal.check())
    assert modal.open and modal.shown_at == "/members" and modal.liker["id"] == carl.id
    await run(modal.check())  # the same page again: the open modal stays as it is
    assert modal.liker["id"] == carl.id
    root.router = make_root(url="/likes", cookie=root.router.headers.cookie).router
    await run(modal.check())
    assert modal.shown_at == "/likes" and modal.liker["id"] == bob.id


async def test_without_a_new_like_an_automatic_one_comes_and_likes_reload(make_root, db) -> None:
    anna = make_member(db, signup_date=A_DAY_AGO)
    demo = demo_man(db)
    root = await logged_in(make_root, db, anna, "/likes")
    modal = substate(root, LikeModalState)
    events = await run(modal.check())
    assert modal.open and modal.liker["id"] == demo.id
    (like,) = likes_of(db, anna)
    assert like.automatic and like.announced and like.liker_id == demo.id
    assert scripts(events) == ["new Promise(resolve => setTimeout(() => resolve(true), 500))"]
    assert "likes_state.refresh" in event_args(events[0])["callback"]
    likes = substate(root, LikesState)
    await run(likes.refresh())
    assert [c["id"] for c in likes.cards] == [demo.id]
    assert (await likes.get_state(SessionState)).new_likes == 1
    modal.open_changed(False)
    assert await run(modal.check()) == [] and not modal.open  # the next one waits hours


async def test_no_automatic_like_in_a_new_members_first_half_hour(make_root, db) -> None:
    anna = make_member(db, signup_date=utcnow() - AUTO_LIKE_GRACE + timedelta(minutes=2))
    demo_man(db)
    modal = substate(await logged_in(make_root, db, anna, "/members"), LikeModalState)
    assert await run(modal.check()) == [] and not modal.open and likes_of(db, anna) == []
    anna.signup_date = A_DAY_AGO
    db.add(anna)
    db.commit()
    await run(modal.check())
    assert modal.open


async def test_the_next_automatic_like_waits_for_its_gap(make_root, db: Session) -> None:
    anna = make_member(db, signup_date=A_DAY_AGO)
    demo_man(db)
    earlier = make_member(db, "earlier@example.com", is_demo=True)
    db.add(Like(liker_id=earlier.id, liked_id=anna.id, automatic=True, announced=True))
    db.commit()
    modal = substate(await logged_in(make_root, db, anna, "/members"), LikeModalState)
    assert await run(modal.check()) == [] and not modal.open
    row = fresh(db).get(Like, (earlier.id, anna.id))
    row.created_at = utcnow() - AUTO_LIKE_GAPS[0] - timedelta(minutes=1)
    db.commit()
    await run(modal.check())
    assert modal.open


async def test_query_t_delays_the_modal_and_is_removed(make_root, db: Session) -> None:
    anna = make_member(db)
    liked_by(db, anna, "bob@example.com")
    modal = substate(await logged_in(make_root, db, anna, "/members?t=5&lb=1"), LikeModalState)
    events = await run(modal.check())
    assert scripts(events) == [delay_script(5)]
    assert "setTimeout" in delay_script(5) and "5000" in delay_script(5)
    assert "searchParams.delete('t')" in delay_script(5) and "replaceState" in delay_script(5)
    assert "like_modal_state.show_next" in event_args(events[0])["callback"]
    assert not modal.open and not likes_of(db, anna)[0].announced
    await run(modal.show_next())
    assert modal.open and likes_of(db, anna)[0].announced


async def test_the_image_or_button_opens_the_likers_profile(make_root, db: Session) -> None:
    anna = make_member(db)
    (bob,) = liked_by(db, anna, "bob@example.com")
    modal = substate(await logged_in(make_root, db, anna, "/members"), LikeModalState)
    await run(modal.check())
    assert redirects(await run(modal.open_profile())) == [f"/likes/m/{bob.id}"]
    assert not modal.open


async def test_a_like_opens_the_modal_live_on_the_page_the_member_has_open(
    make_root, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    pushes: list[tuple[int, Callable]] = []

    async def push(member_id: int, update: Callable, except_token: str = "") -> None:
        pushes.append((member_id, update))

    monkeypatch.setattr(state.likes, "push_to_member", push)
    anna, bob = make_member(db), make_member(db, "bob@example.com")
    anna_tab = await logged_in(make_root, db, anna, "/members")
    modal = substate(anna_tab, LikeModalState)
    await run(modal.check())  # the page loads: nothing to announce yet
    assert not modal.open

    bob_tab = await logged_in(make_root, db, bob, f"/members/{anna.id}")
    await run(substate(bob_tab, LikesState).like(anna.id))
    await settle()
    (update,) = [update for member_id, update in pushes if member_id == anna.id]
    assert await run_on_tab(anna_tab, anna.id, update)
    assert modal.open and modal.shown_at == "/members" and modal.liker["id"] == bob.id

    modal.open_changed(False)  # on a page that does not check for likes, nothing opens
    anna_tab.router = make_root(url="/settings", cookie=anna_tab.router.headers.cookie).router
    carl = make_member(db, "carl@example.com")
    committed(db, like_member, carl.id, anna.id)
    assert await run_on_tab(anna_tab, anna.id, update)
    assert not modal.open


async def test_a_second_like_of_the_same_member_is_no_error(make_root, db: Session) -> None:
    anna, bob = make_member(db), make_member(db, "bob@example.com")
    likes = await loaded_likes(await logged_in(make_root, db, anna))
    assert await run(likes.like(bob.id)) == []
    assert await run(likes.like(bob.id)) == []  # a double tap: still liked, no toast
    assert len(likes_of(db, bob)) == 1
