"""A member's profile as the viewer may see it: details, locked photos whose originals never
reach the viewer, seen likes, not-found cases, and the like, chat and block actions."""

import json
from datetime import date

import pytest
import reflex as rx
from sqlmodel import Session, select

from models.auth_session import end_session, start_session
from models.blocks import Block
from models.likes import Like, like_member
from models.member import Member, MemberStatus, Photo
from state.profile_view import (
    LOGIN_TO_CHAT,
    LOGIN_TO_GIFT,
    LOGIN_TO_LIKE,
    LOGIN_TO_SEE_PROFILE,
    ProfileViewState,
)
from state.session import SessionState
from tests.factories import add_photo, block_member, committed, edit_profile, make_member, row_count
from tests.state.conftest import redirects, run, substate
from tests.state.test_likes_state import fresh, logged_in

STEMS = ("first", "second", "third", "fourth", "fifth")


def owner_with_photos(db: Session, count: int = 5, **member_fields) -> tuple[Member, list[Photo]]:
    """Bea, with `count` photos in gallery order (the first one main)."""
    bea = make_member(db, "bea@example.com", **member_fields)
    return bea, [add_photo(db, bea, f"bea-{stem}", main=i == 0) for i, stem in
                 enumerate(STEMS[:count])]  # fmt: skip


def url(filename: str) -> str:
    return f"/media/photos/{filename}"


def blurred(photo: Photo) -> str:
    return url(photo.filename.replace(".jpg", "_b.jpg"))


def shown(photo: Photo) -> dict[str, str]:
    return {
        "id": str(photo.id),
        "src": url(photo.filename),
        "thumb": url(photo.thumb_filename),
        "lock": "",
    }


def locked(photo: Photo, reason: str) -> dict[str, str]:
    return {"id": str(photo.id), "src": blurred(photo), "thumb": blurred(photo), "lock": reason}


def state_text(view: ProfileViewState) -> str:
    """Every photo address the state holds, as the browser would receive it."""
    return json.dumps([dict(photo) for photo in view.photos]) + json.dumps(view.current_photo)


def assert_never_sent(view: ProfileViewState, photos: list[Photo]) -> None:
    text = state_text(view)
    for photo in photos:
        assert photo.filename not in text and photo.thumb_filename not in text


async def opened(root: rx.State) -> ProfileViewState:
    view = substate(root, ProfileViewState)
    await run(view.load_profile())
    return view


async def open_as(make_root, db: Session, viewer: Member | None, path: str) -> ProfileViewState:
    """`path` loaded by the viewer (None: a visitor)."""
    if viewer is None:
        return await opened(make_root(url=path))
    return await opened(await logged_in(make_root, db, viewer, path))


def member(db: Session, email: str = "carl@example.com", **fields) -> Member:
    return edit_profile(db, make_member(db, email, **fields), gender="male")


# --- what the viewer sees -------------------------------------------------------------------


async def test_a_visible_profile_shows_its_details(make_root, db: Session) -> None:
    bea, photos = owner_with_photos(db, 2, paid_user=True)
    edit_profile(db, bea, city="Haarlem", region="NL-NH", hair_colour="blond",
                 body_type="athletic", interests=["music", "nonsense"],
                 about_me="Hello there")  # fmt: skip
    view = await open_as(make_root, db, member(db), f"/members/{bea.id}")
    assert view.status == "visible" and view.member_id == bea.id
    assert (view.name, view.city, view.region, view.country) == (
        "Bea", "Haarlem", "NL-NH", "NL")  # fmt: skip
    today = date.today()
    assert view.age == today.year - 1990 - ((today.month, today.day) < (5, 17))
    assert view.premium and view.about_me == "Hello there"
    assert ["Gender", "Woman"] in view.details  # [label msgid, value label key]
    assert ["Hair colour", "hair colour\x04Blond"] in view.details
    assert ["Body type", "female\x04Athletic"] in view.details  # her gender's form
    assert view.interest_labels == ["Music"]
    assert view.photos == [shown(photo) for photo in photos]
    assert not view.liked and not view.blocked and view.login_prompt == ""


async def test_a_free_member_sees_three_photos_the_rest_blurred(make_root, db) -> None:
    bea, photos = owner_with_photos(db)
    view = await open_as(make_root, db, member(db), f"/members/{bea.id}")
    assert view.photos == [shown(p) for p in photos[:3]] + [
        locked(p, "premium") for p in photos[3:]
    ]
    assert_never_sent(view, photos[3:])
    view.show_photo(4)
    assert view.current_photo == locked(photos[4], "premium")


async def test_a_visitor_sees_only_the_main_photo(make_root, db: Session) -> None:
    bea, photos = owner_with_photos(db)
    view = await open_as(make_root, db, None, f"/members/{bea.id}")
    assert view.status == "visible"
    assert view.photos == [shown(photos[0])] + [locked(p, "login") for p in photos[1:]]
    assert_never_sent(view, photos[1:])


async def test_a_premium_member_sees_every_photo(make_root, db: Session) -> None:
    bea, photos = owner_with_photos(db)
    view = await open_as(make_root, db, member(db, paid_user=True), f"/members/{bea.id}")
    assert view.photos == [shown(p) for p in photos]


async def test_privacy_mode_shows_further_photos_to_liked_members_only(make_root, db) -> None:
    bea, photos = owner_with_photos(db, 2, privacy_mode=True)
    carl, dirk = member(db), member(db, "dirk@example.com", paid_user=True)
    committed(db, like_member, bea.id, carl.id)
    view = await open_as(make_root, db, dirk, f"/members/{bea.id}")
    assert view.photos == [shown(photos[0]), locked(photos[1], "privacy")]
    assert_never_sent(view, photos[1:])
    view = await open_as(make_root, db, carl, f"/members/{bea.id}")
    assert view.photos == [shown(p) for p in photos]


async def test_a_liked_free_member_is_offered_premium_not_privacy(make_root, db) -> None:
    bea, photos = owner_with_photos(db, privacy_mode=True)
    carl = member(db)
    committed(db, like_member, bea.id, carl.id)
    view = await open_as(make_root, db, carl, f"/members/{bea.id}")
    assert view.photos == [shown(p) for p in photos[:3]] + [
        locked(p, "premium") for p in photos[3:]
    ]


async def test_own_profile_shows_everything(make_root, db: Session) -> None:
    bea, photos = owner_with_photos(db, privacy_mode=True)
    view = await open_as(make_root, db, bea, "/profile")
    assert view.status == "own" and view.member_id == bea.id and view.name == "Bea"
    assert view.photos == [shown(p) for p in photos]


async def test_opening_a_likers_profile_clears_its_new_flag(make_root, db: Session) -> None:
    anna = make_member(db, "anna@example.com")
    carl, dirk = member(db), member(db, "dirk@example.com")
    committed(db, like_member, carl.id, anna.id)
    committed(db, like_member, dirk.id, anna.id)
    root = await logged_in(make_root, db, anna, f"/likes/m/{carl.id}")
    session = substate(root, SessionState)
    assert session.new_likes == 2
    view = await opened(root)
    assert view.status == "visible" and view.member_id == carl.id
    assert not fresh(db).get(Like, (carl.id, anna.id)).is_new
    assert fresh(db).get(Like, (dirk.id, anna.id)).is_new
    assert session.new_likes == 1 and session.likes_badge == "1"


# --- not found and members only -------------------------------------------------------------


def _gone(db: Session, viewer: Member, how: str) -> str:
    """The path of a profile the viewer may not see, for the reason `how`."""
    bea = make_member(db, "bea@example.com")
    add_photo(db, bea, "bea-main", main=True)
    if how == "deleted":
        bea.status = MemberStatus.DELETED
    elif how == "leaving":
        bea.status = MemberStatus.DELETED_PENDING
    elif how == "disabled":
        edit_profile(db, bea, status="disabled")
    elif how == "blocked me":
        block_member(db, bea.id, viewer.id)
    db.add(bea)
    db.commit()
    paths = {"unknown": "/members/987654", "not a number": "/members/bea",
             "negative": "/members/-3", "huge": "/members/99999999999999999999"}  # fmt: skip
    return paths.get(how, f"/members/{bea.id}")


@pytest.mark.parametrize(
    "how",
    ["deleted", "leaving", "disabled", "unknown", "not a number", "negative", "huge",
     "blocked me"],
)  # fmt: skip
@pytest.mark.parametrize("likes_path", [False, True], ids=["members", "likes"])
async def test_profiles_that_are_not_found(make_root, db, how, likes_path) -> None:
    carl = member(db)
    path = _gone(db, carl, how)
    if likes_path:
        path = path.replace("/members/", "/likes/m/")
    view = await open_as(make_root, db, carl, path)
    assert view.status == "not_found"
    assert view.photos == [] and view.name == "" and view.details == []


async def test_visitors_have_no_own_profile(make_root, db: Session) -> None:
    make_member(db)
    view = await open_as(make_root, db, None, "/profile")
    assert view.status == "not_found" and view.photos == []


async def test_a_not_found_profile_keeps_nothing_of_the_previous_one(make_root, db) -> None:
    bea, _photos = owner_with_photos(db, 1)
    edit_profile(db, bea, about_me="Private words", city="Haarlem")
    carl = member(db)
    root = await logged_in(make_root, db, carl, f"/members/{bea.id}")
    view = await opened(root)
    assert view.name == "Bea"
    block_member(db, bea.id, carl.id)
    view = await opened(root)  # the same tab, reloaded after Bea blocked Carl
    assert view.status == "not_found"
    assert (view.member_id, view.name, view.about_me, view.city) == (0, "", "", "")


async def test_visitors_are_asked_to_log_in_for_a_privacy_mode_profile(make_root, db) -> None:
    bea, _photos = owner_with_photos(db, 2, privacy_mode=True)
    view = await open_as(make_root, db, None, f"/members/{bea.id}")
    assert view.status == "login_required"
    assert view.name == "Bea" and view.login_prompt == LOGIN_TO_SEE_PROFILE
    assert view.photos == [] and view.details == [] and view.about_me == ""


# --- like, chat, block ----------------------------------------------------------------------


def like_rows(db: Session) -> list[tuple[int, int]]:
    return [(like.liker_id, like.liked_id) for like in fresh(db).exec(select(Like))]


async def test_like_and_unlike(make_root, db: Session) -> None:
    bea, _photos = owner_with_photos(db, 1)
    carl = member(db)
    view = await open_as(make_root, db, carl, f"/members/{bea.id}")
    assert await run(view.toggle_like()) == []
    assert view.liked and like_rows(db) == [(carl.id, bea.id)]
    await run(view.toggle_like())
    assert not view.liked and like_rows(db) == []


@pytest.mark.parametrize("blocker", ["viewer", "owner"])
async def test_no_like_across_a_block(make_root, db: Session, blocker: str) -> None:
    bea, _photos = owner_with_photos(db, 1)
    carl = member(db)
    view = await open_as(make_root, db, carl, f"/members/{bea.id}")
    if blocker == "viewer":
        block_member(db, carl.id, bea.id)
    else:
        block_member(db, bea.id, carl.id)
    events = await run(view.toggle_like())
    assert like_rows(db) == [] and not view.liked
    assert len(events) == 1  # the "no longer available" toast


async def test_a_visitor_is_asked_to_log_in_to_like(make_root, db: Session) -> None:
    bea, _photos = owner_with_photos(db, 1)
    view = await open_as(make_root, db, None, f"/members/{bea.id}")
    await run(view.toggle_like())
    assert view.login_prompt == LOGIN_TO_LIKE and like_rows(db) == []
    await run(view.open_chat(True))
    assert view.login_prompt == LOGIN_TO_GIFT
    assert redirects(await run(view.open_chat())) == [] and view.login_prompt == LOGIN_TO_CHAT


async def test_chat_and_gift_open_the_chat(make_root, db: Session) -> None:
    bea, _photos = owner_with_photos(db, 1)
    view = await open_as(make_root, db, member(db), f"/members/{bea.id}")
    assert redirects(await run(view.open_chat())) == [f"/members/{bea.id}/chat"]
    assert redirects(await run(view.open_chat(True))) == [f"/members/{bea.id}/chat?gift=1"]


@pytest.mark.parametrize("blocker", ["viewer", "owner"])
async def test_no_chat_across_a_block(make_root, db: Session, blocker: str) -> None:
    bea, _photos = owner_with_photos(db, 1)
    carl = member(db)
    view = await open_as(make_root, db, carl, f"/members/{bea.id}")
    block_member(db, *((carl.id, bea.id) if blocker == "viewer" else (bea.id, carl.id)))
    assert redirects(await run(view.open_chat())) == []
    assert redirects(await run(view.open_chat(True))) == []


async def test_no_chat_with_oneself(make_root, db: Session) -> None:
    bea, _photos = owner_with_photos(db, 1)
    view = await open_as(make_root, db, bea, "/profile")
    assert redirects(await run(view.open_chat())) == []


async def test_block_removes_the_like_and_unblock_lifts_it(make_root, db: Session) -> None:
    bea, _photos = owner_with_photos(db, 1)
    carl = member(db)
    committed(db, like_member, bea.id, carl.id)  # Bea's like of Carl stays
    view = await open_as(make_root, db, carl, f"/members/{bea.id}")
    await run(view.toggle_like())
    view.ask_block(True)
    await run(view.set_blocked(True))
    assert view.blocked and not view.liked and not view.confirm_block
    assert fresh(db).get(Block, (carl.id, bea.id)) is not None
    assert like_rows(db) == [(bea.id, carl.id)]
    again = await open_as(make_root, db, carl, f"/members/{bea.id}")
    assert again.status == "visible" and again.blocked
    await run(again.set_blocked(False))
    assert not again.blocked and row_count(fresh(db), Block) == 0


async def test_nobody_blocks_themselves(make_root, db: Session) -> None:
    bea, _photos = owner_with_photos(db, 1)
    view = await open_as(make_root, db, bea, "/profile")
    await run(view.set_blocked(True))
    assert row_count(fresh(db), Block) == 0 and not view.blocked


async def test_a_tab_whose_session_ended_can_neither_like_nor_block(make_root, db) -> None:
    bea, _photos = owner_with_photos(db, 1)
    carl = member(db)
    token = committed(db, start_session, carl.id)
    root = make_root(url=f"/members/{bea.id}", cookie=f"auth.session={token}")
    await substate(root, SessionState)._load()
    view = await opened(root)
    assert view.status == "visible"
    committed(db, end_session, token)
    await run(view.toggle_like())
    await run(view.set_blocked(True))
    assert redirects(await run(view.open_chat())) == []
    assert like_rows(db) == [] and row_count(fresh(db), Block) == 0
    assert not view.liked and not view.blocked
