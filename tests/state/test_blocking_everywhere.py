"""Anna blocks Carl: from then on Carl finds Anna nowhere and can reach her in no way (profile,
likes, chat, search, member grids, like lists, photos), while Anna can still open Carl's
profile to lift the block, and Carl's likes leave her lists and badge."""

from datetime import date

import pytest
import reflex as rx
from sqlmodel import Session, select

from models.likes import Like, like_member
from models.member import Member
from services.config import get_config
from state.likes import GIVEN, RECEIVED, LikeModalState, LikesState
from state.members import MembersState
from state.profile_view import ProfileViewState
from state.search import SearchState
from state.session import SessionState
from tests.factories import add_photo, block_member, committed, edit_profile, make_member
from tests.state.conftest import redirects, run, substate
from tests.state.test_likes_state import fresh, logged_in
from tests.unit.test_photo_route import (
    assert_all_missing,
    assert_original,
    client_for,
    stored_gallery,
)

THIRTY = date(date.today().year - 30, 1, 1)  # a birthday that makes one 30 today


def woman(db: Session, email: str, country: str = "NL") -> Member:
    return edit_profile(db, make_member(db, email), date_of_birth=THIRTY, country=country)


@pytest.fixture
def anna(db: Session) -> Member:
    return woman(db, "anna@example.com")


@pytest.fixture
def carl(db: Session) -> Member:
    """A straight man of 30 in the Netherlands: his search finds women like Anna."""
    carl = make_member(db, "carl@example.com")
    return edit_profile(db, carl, gender="male", date_of_birth=THIRTY)


@pytest.fixture
def others(db: Session, carl: Member) -> tuple[Member, Member]:
    """Dora in the Netherlands and Eva in Germany, who like Carl and whom he likes."""
    dora, eva = woman(db, "dora@example.com"), woman(db, "eva@example.com", "DE")
    for other in (dora, eva):
        committed(db, like_member, other.id, carl.id)
        committed(db, like_member, carl.id, other.id)
    return dora, eva


def liked_both_ways(db: Session, anna: Member, carl: Member) -> None:
    committed(db, like_member, anna.id, carl.id)
    committed(db, like_member, carl.id, anna.id)


async def profile(root: rx.State) -> ProfileViewState:
    view = substate(root, ProfileViewState)
    await run(view.load_profile())
    return view


def ids(cards: list[dict]) -> set[int]:
    return {card["id"] for card in cards}


# --- as the blocked member ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/members/{id}", "/likes/m/{id}", "/members/{id}/"])
async def test_the_blocked_member_finds_no_profile(make_root, db, anna, carl, path) -> None:
    block_member(db, anna.id, carl.id)
    view = await profile(await logged_in(make_root, db, carl, path.format(id=anna.id)))
    assert view.status == "not_found" and view.photos == [] and view.name == ""


async def test_an_open_profile_tab_can_no_longer_like_or_chat(make_root, db, anna, carl) -> None:
    view = await profile(await logged_in(make_root, db, carl, f"/members/{anna.id}"))
    assert view.status == "visible"
    block_member(db, anna.id, carl.id)
    await run(view.toggle_like())
    assert redirects(await run(view.open_chat())) == []
    assert redirects(await run(view.open_chat(True))) == []
    assert fresh(db).get(Like, (carl.id, anna.id)) is None and not view.liked


async def test_the_likes_screens_refuse_a_like(make_root, db, anna, carl) -> None:
    block_member(db, anna.id, carl.id)
    likes = substate(await logged_in(make_root, db, carl, "/likes"), LikesState)
    events = await run(likes.like(anna.id))
    assert len(events) == 1  # the "no longer available" toast
    assert fresh(db).get(Like, (carl.id, anna.id)) is None


async def test_the_blocker_is_in_no_search(make_root, db, anna, carl, others) -> None:
    dora, eva = others
    block_member(db, anna.id, carl.id)
    search = substate(await logged_in(make_root, db, carl, "/members"), SearchState)
    await run(search.load_search())
    assert ids(search.results) == {dora.id} and ids(search.similar) == {eva.id}
    await run(search.search({"country": "DE"}))  # Anna, in NL, would be a similar member
    assert ids(search.results) == {eva.id} and ids(search.similar) == {dora.id}
    await run(search.search({"country": "", "gender": ""}))
    assert anna.id not in ids(search.results) | ids(search.similar)


async def test_the_blocker_is_not_among_the_newest(make_root, db, anna, carl, others) -> None:
    for member in (anna, *others):  # the newest show only members with a main photo
        add_photo(db, member, member.email, main=True)
    block_member(db, anna.id, carl.id)
    newest = substate(await logged_in(make_root, db, carl, "/"), MembersState)
    await run(newest.load_newest())
    assert ids(newest.members) == {other.id for other in others}


@pytest.mark.parametrize("kind", [RECEIVED, GIVEN])
async def test_the_blocker_leaves_the_like_lists(make_root, db, anna, carl, others, kind) -> None:
    liked_both_ways(db, anna, carl)
    block_member(db, anna.id, carl.id)
    likes = substate(await logged_in(make_root, db, carl, f"/likes/{kind}"), LikesState)
    await run(likes.load_page())
    assert likes.kind == kind and ids(likes.cards) == {other.id for other in others}


def test_the_blockers_photos_are_not_found(db, outbox, anna, carl) -> None:
    photo_dir = get_config().media_dir / "photos"
    photos = stored_gallery(db, anna, photo_dir, 2)
    client = client_for(db, carl)
    assert_original(client, photo_dir, photos[0].filename)
    block_member(db, anna.id, carl.id)
    assert_all_missing(client, photos)


def test_the_blocked_member_may_still_geocode(db, anna, carl) -> None:
    block_member(db, anna.id, carl.id)
    response = client_for(db, carl).get("/api/geocode.php?lat=52.37&lon=4.89")
    assert response.status_code == 200 and response.json()["city"] == "Amsterdam"


# --- as the blocker -------------------------------------------------------------------------


async def test_the_blocker_can_open_the_profile_to_unblock(make_root, db, anna, carl) -> None:
    block_member(db, anna.id, carl.id)
    view = await profile(await logged_in(make_root, db, anna, f"/members/{carl.id}"))
    assert view.status == "visible" and view.blocked and view.member_id == carl.id
    await run(view.set_blocked(False))
    again = await profile(await logged_in(make_root, db, carl, f"/members/{anna.id}"))
    assert again.status == "visible"


async def test_likes_of_the_blocked_member_leave_the_blocker(make_root, db, anna, carl) -> None:
    committed(db, like_member, carl.id, anna.id)
    before = await logged_in(make_root, db, anna, "/likes")
    assert substate(before, SessionState).likes_badge == "1"
    block_member(db, anna.id, carl.id)
    root = await logged_in(make_root, db, anna, "/likes")
    assert substate(root, SessionState).likes_badge == ""
    likes = substate(root, LikesState)
    await run(likes.load_page())
    assert likes.cards == []
    await run(substate(before, LikesState).refresh())  # the open tab's badge follows
    assert substate(before, SessionState).likes_badge == ""
    assert len(fresh(db).exec(select(Like)).all()) == 1  # kept, for an unblock


async def test_the_like_modal_never_announces_the_blocked_member(make_root, db, anna, carl) -> None:
    dora = woman(db, "dora@example.com")
    committed(db, like_member, dora.id, anna.id)
    committed(
        db, like_member, carl.id, anna.id
    )  # the newest like: the one the modal would show first
    block_member(db, anna.id, carl.id)
    modal = substate(await logged_in(make_root, db, anna, "/members"), LikeModalState)
    await run(modal.check())
    assert modal.open and modal.liker["id"] == dora.id
    modal.open_changed(False)
    await run(modal.check())
    assert not modal.open  # nor Carl's later
