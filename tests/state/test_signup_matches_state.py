"""/signup-matches: a new member sees their best matches from what the signup collected, with
a heart that likes; a logged-out tab gets nothing."""

from sqlmodel import Session

from models.likes import Like
from state.signup_matches import SignupMatchesState
from tests.factories import add_photo, edit_profile, make_member
from tests.state.conftest import run, substate
from tests.state.test_likes_state import fresh, logged_in


async def test_a_new_member_sees_the_men_who_fit_and_likes_one(make_root, db: Session) -> None:
    anna = edit_profile(db, make_member(db, status="not_confirmed"), interests=["music"])
    bram = edit_profile(db, make_member(db, "bram@example.com"), gender="male")
    add_photo(db, bram, "bram", main=True)
    make_member(db, "carla@example.com")  # a woman: not what anna looks for
    matches = substate(await logged_in(make_root, db, anna, "/signup-matches"), SignupMatchesState)
    await run(matches.load())
    (card,) = matches.cards
    assert card["id"] == bram.id and 0 < card["percent"] <= 100 and not card["liked"]
    await run(matches.like(bram.id))
    assert matches.cards[0]["liked"] and fresh(db).get(Like, (anna.id, bram.id)) is not None


async def test_a_logged_out_tab_gets_no_cards(make_root, db: Session) -> None:
    matches = substate(make_root(url="/signup-matches"), SignupMatchesState)
    await run(matches.load())
    assert matches.loaded and matches.cards == []
