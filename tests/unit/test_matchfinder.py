"""The matchfinder: the score is the same from both sides and low when either side is poorly
served; the ranking keeps both sides' hard rules (sex sought both ways, the viewer's ages and
place, blocks) and orders by the match; wishes from the browser are made safe."""

from datetime import date

import pytest
from sqlmodel import Session

from models.match_questions import QuestionWish
from models.match_score import (
    ANYWHERE,
    COUNTRY,
    REGION,
    Person,
    Wishes,
    default_wishes,
    match_percent,
    satisfaction,
)
from models.matchfinder import clean_wishes, ranked_matches, save_wishes, saved_wishes
from models.member import Member, Profile
from tests.factories import block_member, edit_profile, make_member

TODAY = date(2026, 6, 1)
INTERESTS = ["travel", "music", "cooking", "sports", "nature", "wine"]

ANNA = Person(34, "NL", "NH", ("travel", "music", "wine"))
BRAM = Person(37, "NL", "UT", ("travel", "music", "sports"))
CARL = Person(58, "DE", None, ("gaming",))


def test_the_match_is_the_same_from_either_side() -> None:
    anna = Wishes(30, 40, REGION, ("travel", "music"))
    bram = default_wishes(BRAM, 18, 99)
    assert match_percent(anna, ANNA, bram, BRAM) == match_percent(bram, BRAM, anna, ANNA)


def test_a_match_is_low_when_one_side_is_poorly_served() -> None:
    anna_loves_everyone = Wishes(18, 99, ANYWHERE, ())
    carl = default_wishes(CARL, 18, 99)  # about 58, in Germany, gaming
    assert satisfaction(anna_loves_everyone, ANNA, CARL) == 1.0
    assert satisfaction(carl, CARL, ANNA) < 0.2
    assert match_percent(anna_loves_everyone, ANNA, carl, CARL) < 45


def test_each_wish_counts_by_its_weight() -> None:
    wishes = Wishes(30, 35, COUNTRY, ("travel", "music", "cooking", "sports"))
    # age 37: 2 years out (0.8 of 3), the same country (2 of 2), 3 of 4 interests (1.5 of 2)
    assert satisfaction(wishes, ANNA, BRAM) == pytest.approx((2.4 + 2 + 1.5) / 7)
    same_region_only = Wishes(30, 40, REGION, ())
    assert satisfaction(same_region_only, ANNA, BRAM) == pytest.approx((3 + 1) / 5)


def no_smokers(importance: str) -> dict[str, QuestionWish]:
    return {"smoking": QuestionWish("no", frozenset({"no"}), importance)}


def test_a_question_counts_as_much_as_the_asker_says_and_only_when_answered() -> None:
    def anna_with(importance: str) -> Wishes:
        return Wishes(30, 40, ANYWHERE, (), no_smokers(importance))

    smoker = Person(37, "NL", "UT", (), {"smoking": "yes"})
    non_smoker = Person(37, "NL", "UT", (), {"smoking": "no"})
    silent = Person(37, "NL", "UT", ())
    # the age range meets 3 of 3; "very" weighs 3, "a little" 1
    assert satisfaction(anna_with("very"), ANNA, smoker) == pytest.approx(3 / 6)
    assert satisfaction(anna_with("little"), ANNA, smoker) == pytest.approx(3 / 4)
    assert satisfaction(anna_with("very"), ANNA, non_smoker) == 1.0
    assert satisfaction(anna_with("very"), ANNA, silent) == 1.0


def test_the_match_with_questions_is_the_same_from_either_side() -> None:
    anna_answers = Person(34, "NL", "NH", ("travel",), {"smoking": "no", "children": "yes"})
    bram_answers = Person(37, "NL", "UT", ("music",), {"smoking": "sometimes", "children": "yes"})
    anna = Wishes(30, 40, REGION, ("travel",), no_smokers("very"))
    bram = Wishes(
        30, 36, COUNTRY, (), {"children": QuestionWish("yes", frozenset({"yes"}), "little")}
    )
    one_way = match_percent(anna, anna_answers, bram, bram_answers)
    assert one_way == match_percent(bram, bram_answers, anna, anna_answers) < 70


def test_questions_from_the_browser_are_made_safe() -> None:
    raw = {
        "questions": {
            "smoking": {"answer": "no", "accepted": ["no", "cigars"], "importance": "very"},
            "children": {"answer": "twelve", "accepted": ["yes"], "importance": "none"},
            "weekend": {"answer": "out", "accepted": "all", "importance": "very"},
            "pets": {"answer": "cats"},
            "looking_for": {"answer": ["casual"], "accepted": [["open"], {}], "importance": []},
        }
    }
    questions = clean_wishes(raw, INTERESTS, 18).questions
    assert questions == {
        "smoking": QuestionWish("no", frozenset({"no"}), "very"),
        "weekend": QuestionWish("out", frozenset(), "none"),  # only an answer of its own
    }  # children: no answer, and hoping for one does not count when it does not matter


def man(db: Session, email: str, **profile: object) -> Member:
    member = make_member(db, email)
    return edit_profile(db, member, gender="male", **profile)


def test_the_ranking_keeps_both_sides_rules_and_orders_by_the_match(db: Session) -> None:
    anna = edit_profile(db, make_member(db), date_of_birth=date(1992, 1, 1), interests=["travel"])
    fits = man(db, "fits@example.com", date_of_birth=date(1990, 1, 1), interests=["travel"])
    older = man(db, "older@example.com", date_of_birth=date(1978, 1, 1))
    gay = man(db, "gay@example.com", date_of_birth=date(1990, 1, 1), sexuality="gay")
    woman = make_member(db, "woman@example.com")
    blocker = man(db, "blocker@example.com", date_of_birth=date(1990, 1, 1))
    abroad = man(db, "abroad@example.com", date_of_birth=date(1990, 1, 1), country="DE")
    block_member(db, blocker.id, anna.id)
    viewer = db.get(Profile, anna.id)
    wishes = Wishes(25, 50, COUNTRY, ("travel",))
    found = ranked_matches(db, viewer, wishes, TODAY, 10, 18)
    assert [match.member.id for match in found] == [fits.id, older.id]
    assert found[0].percent > found[1].percent and found[0].shared == ["travel"]
    assert found[0].fits_them and found[0].same_country
    anywhere = ranked_matches(db, viewer, Wishes(25, 50, ANYWHERE, ()), TODAY, 10, 18)
    assert abroad.id in {match.member.id for match in anywhere}
    assert {gay.id, woman.id, blocker.id}.isdisjoint(match.member.id for match in anywhere)


def test_answers_rank_and_give_reasons_both_ways(db: Session) -> None:
    anna = edit_profile(db, make_member(db), date_of_birth=date(1992, 1, 1))
    born = date(1990, 1, 1)
    smoker, other = (
        man(db, "smoker@example.com", date_of_birth=born),
        man(db, "nosmoke@example.com", date_of_birth=born),
    )
    asks = {"smoking": {"answer": "no", "accepted": ["no"], "importance": "very"}}
    save_wishes(
        db,
        smoker.id,
        clean_wishes(
            {
                "place": "country",
                "min_age": 25,
                "max_age": 45,
                "questions": {"smoking": {"answer": "yes"}},
            },
            INTERESTS,
            18,
        ),
    )
    save_wishes(
        db,
        other.id,
        clean_wishes(
            {"place": "country", "min_age": 25, "max_age": 45, "questions": asks}, INTERESTS, 18
        ),
    )
    wishes = clean_wishes(
        {"place": "country", "min_age": 25, "max_age": 45, "questions": asks}, INTERESTS, 18
    )
    found = ranked_matches(db, db.get(Profile, anna.id), wishes, TODAY, 10, 18)
    assert [match.member.id for match in found] == [other.id, smoker.id]
    assert found[0].agreed == ["smoking"] and found[1].agreed == []
    # the smoker meets Anna's age (3) and country (2), not her question (3): sqrt(5/8)
    assert found[0].percent == 100 and found[1].percent == 79


def test_wishes_from_the_browser_are_made_safe_and_kept(db: Session) -> None:
    raw = {"min_age": "70", "max_age": "1e999", "place": "moon", "interests": ["wine", "x"] * 9}
    wishes = clean_wishes(raw, INTERESTS, 18)
    assert wishes == Wishes(70, 99, ANYWHERE, ("wine",))
    many = clean_wishes({"interests": INTERESTS, "min_age": "40", "max_age": "20"}, INTERESTS, 18)
    assert (many.min_age, many.max_age, len(many.interests)) == (20, 40, 5)
    anna = make_member(db)
    save_wishes(db, anna.id, wishes)
    db.commit()
    assert saved_wishes(db, anna.id) == wishes
    with_questions = clean_wishes({"questions": {"children": {"answer": "have"}}}, INTERESTS, 18)
    save_wishes(db, anna.id, with_questions)
    db.commit()
    assert saved_wishes(db, anna.id).questions == with_questions.questions
