"""Matches: liking back tells both members at once ("It's a match!" on the page they are on),
the like that made the match stays until a block, and /likes/matches lists them."""

from collections.abc import Callable

import pytest
from sqlmodel import Session

import state.match_modal
from actions.effects import settle
from models.likes import Like, like_member
from models.member import Member
from state.likes import MATCHES, LikeModalState, LikesState
from state.live import run_on_tab
from state.match_modal import MatchModalState
from state.profile_view import ProfileViewState
from tests.factories import committed, make_member
from tests.state.conftest import redirects, run, substate
from tests.state.test_likes_state import fresh, loaded_likes, logged_in

KEPT = "You are a match, so your like stays. Block the member if you no longer want contact."


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Callable]]:
    sent: list[tuple[int, Callable]] = []

    async def push(member_id: int, update: Callable, except_token: str = "") -> None:
        sent.append((member_id, update))

    monkeypatch.setattr(state.match_modal, "push_to_member", push)
    return sent


async def matched(make_root, db: Session) -> tuple[Member, Member, LikesState]:
    """Bob liked Anna; Anna likes him back on her likes page."""
    anna, bob = make_member(db), make_member(db, "bob@example.com")
    committed(db, like_member, bob.id, anna.id)
    likes = await loaded_likes(await logged_in(make_root, db, anna))
    await run(likes.like(bob.id))
    return anna, bob, likes


async def test_liking_back_opens_the_match_live_for_both(make_root, db: Session, pushes) -> None:
    anna, bob = make_member(db), make_member(db, "bob@example.com")
    bob_tab = await logged_in(make_root, db, bob, "/members")
    bob_modal = substate(bob_tab, MatchModalState)
    await run(bob_modal.check())  # bob's page checked: nothing yet
    await run(substate(bob_tab, LikesState).like(anna.id))
    await settle()
    assert pushes == []  # a like one way is no match

    anna_tab = await logged_in(make_root, db, anna, f"/members/{bob.id}")
    await run(substate(anna_tab, LikesState).like(bob.id))
    await settle()
    assert sorted(member_id for member_id, _ in pushes) == sorted([anna.id, bob.id])
    for member_id, update in pushes:
        tab = anna_tab if member_id == anna.id else bob_tab
        await run_on_tab(tab, member_id, update)
    anna_modal = substate(anna_tab, MatchModalState)
    assert not anna_modal.open  # anna's page has not checked: she sees it on the next one
    assert bob_modal.open and bob_modal.other["id"] == anna.id and bob_modal.shown_at == "/members"

    await run(anna_modal.check())
    assert anna_modal.open and anna_modal.other["id"] == bob.id
    await run(substate(anna_tab, LikeModalState).check())  # the match goes first
    assert not substate(anna_tab, LikeModalState).open
    assert redirects(await run(anna_modal.send_message())) == [f"/members/{bob.id}/chat"]
    assert not anna_modal.open


async def test_a_match_is_shown_once(make_root, db: Session, pushes) -> None:
    _, _, likes = await matched(make_root, db)
    modal = await likes.get_state(MatchModalState)
    await run(modal.check())
    assert modal.open
    modal.open_changed(False)
    await run(modal.check())
    assert not modal.open


async def test_the_like_of_a_match_is_not_taken_back(make_root, db: Session, pushes) -> None:
    anna, bob, likes = await matched(make_root, db)
    (toast,) = await run(likes.unlike(bob.id))
    assert KEPT in str(toast)
    assert fresh(db).get(Like, (anna.id, bob.id)) is not None

    profile_tab = await logged_in(make_root, db, anna, f"/members/{bob.id}")
    profile = substate(profile_tab, ProfileViewState)
    await run(profile.load_profile())
    assert profile.liked
    (toast,) = await run(profile.toggle_like())
    assert KEPT in str(toast) and profile.liked
    assert fresh(db).get(Like, (anna.id, bob.id)) is not None


async def test_the_matches_tab_lists_members_who_like_each_other(
    make_root, db: Session, pushes
) -> None:
    anna, bob, _ = await matched(make_root, db)
    carl = make_member(db, "carl@example.com")
    committed(db, like_member, anna.id, carl.id)  # one way: not a match
    tab = await logged_in(make_root, db, anna, f"/likes/{MATCHES}")
    likes = await loaded_likes(tab)
    assert likes.kind == MATCHES
    assert [card["id"] for card in likes.cards] == [bob.id]
