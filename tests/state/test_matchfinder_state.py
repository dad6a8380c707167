"""/match-finder's state: the form opens with what the profile suggests, a search ranks the
members with the reasons in the member's language and keeps the wishes for the next visit;
no more than five interests; a logged-out tab is sent to log in."""

from datetime import date

from sqlmodel import Session

from models.directory import MemberTile
from models.matchfinder import Match, saved_wishes
from models.member import Member
from state.matchfinder import MatchfinderState, reasons
from tests.factories import edit_profile, make_member
from tests.state.conftest import redirects, run, substate
from tests.state.test_likes_state import fresh, logged_in


def woman(db: Session) -> Member:
    anna = make_member(db)
    return edit_profile(db, anna, date_of_birth=date(1990, 5, 1), interests=["travel", "wine"])


async def opened(make_root, db: Session, member: Member) -> MatchfinderState:
    finder = substate(await logged_in(make_root, db, member, "/match-finder"), MatchfinderState)
    await run(finder.load())
    return finder


async def test_a_search_ranks_with_reasons_and_keeps_the_wishes(make_root, db: Session) -> None:
    anna = woman(db)
    bram = edit_profile(
        db, make_member(db, "bram@example.com"), gender="male", interests=["travel", "wine"]
    )
    finder = await opened(make_root, db, anna)
    assert (finder.place, finder.interests) == ("country", ["travel", "wine"])  # the profile's
    assert not finder.searched
    finder.place = "region"
    await run(finder.set_place("anywhere"))
    async for _ in finder.find({"min_age": "30", "max_age": "45"}):
        pass
    (card,) = finder.results
    assert card["id"] == bram.id and 0 < card["percent"] <= 100
    assert "You both like travel and wine." in card["reasons"]
    assert "Lives in your country." in card["reasons"]
    wishes = saved_wishes(fresh(db), anna.id)
    assert (wishes.min_age, wishes.max_age, wishes.place) == (30, 45, "anywhere")

    again = await opened(make_root, db, anna)  # the next visit searches with them at once
    assert (again.min_age, again.place) == (30, "anywhere")


async def test_at_most_five_interests(make_root, db: Session) -> None:
    finder = await opened(make_root, db, woman(db))
    for interest in finder.interest_options:
        finder.toggle_interest(interest)
    assert len(finder.interests) == 5
    finder.toggle_interest(finder.interests[0])  # taking one off is always allowed
    assert len(finder.interests) == 4


async def test_a_logged_out_tab_is_sent_to_log_in(make_root, db: Session) -> None:
    finder = substate(make_root(url="/match-finder"), MatchfinderState)
    (target,) = redirects(await run(finder.load()))
    assert target.startswith("/login")


def test_interests_read_as_words_inside_the_sentence() -> None:
    tile = MemberTile(1, "Bram", 40, "", "NL", None, False)
    match = Match(tile, 80, ["travel", "wine"], [], False, False, False)
    assert reasons(match, "nl") == ["Jullie houden allebei van reizen en wijn."]
    assert reasons(match, "de") == ["Ihr mögt beide Reisen und Wein."]


def test_answers_that_suit_both_are_a_reason() -> None:
    tile = MemberTile(1, "Bram", 40, "", "NL", None, False)
    match = Match(tile, 80, [], ["children", "smoking"], False, False, False)
    assert reasons(match, "en") == ["Your answers suit each other: children and smoking."]
    assert reasons(match, "nl") == ["Jullie antwoorden passen bij elkaar: kinderen en roken."]


async def test_the_questions_are_answered_hoped_for_and_weighed(make_root, db: Session) -> None:
    anna = woman(db)
    finder = await opened(make_root, db, anna)
    finder.set_answer("smoking", "no")
    finder.toggle_accepted("smoking", "no")
    assert finder.importance["smoking"] == "somewhat"  # hoping for an answer makes it matter
    finder.set_importance("smoking", "very")
    finder.set_importance("smoking", "enormous")  # not one of the levels: ignored
    finder.set_answer("smoking", "often")  # not one of the answers: ignored
    finder.toggle_accepted("pets", "cats")  # no such question: ignored
    finder.set_answer(["smoking"], "no")  # forged: not a string, ignored
    finder.toggle_accepted("smoking", {"no": 1})
    finder.toggle_accepted("children", "yes")
    finder.toggle_accepted("children", "yes")  # the last hoped-for answer taken away
    assert finder.importance["children"] == "none"
    finder.set_answer("weekend", "out")
    finder.set_answer("weekend", "out")  # chosen again: taken back
    async for _ in finder.find({}):
        pass
    wishes = saved_wishes(fresh(db), anna.id)
    (smoking,) = wishes.questions.values()
    assert (smoking.answer, smoking.accepted, smoking.importance) == ("no", {"no"}, "very")

    again = await opened(make_root, db, anna)
    assert again.answers["smoking"] == "no" and again.accepted["smoking"] == ["no"]
    assert again.answers["weekend"] == "" and again.importance["children"] == "none"
