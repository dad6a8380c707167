"""The matchfinder: the score is the same from both sides and low when either side is poorly
served; the ranking keeps both sides' hard rules (sex sought both ways, the viewer's ages and
place, blocks) and orders by the match; wishes from the browser are made safe."""

from datetime import date

import pytest
from sqlalchemy import JSON, ColumnElement, String, literal, select
from sqlmodel import Session

from models.match_questions import QuestionWish, QuestionWishes, stored_question_wishes
from models.match_score import (
    ANYWHERE,
    COUNTRY,
    NOTHING,
    REGION,
    Person,
    PersonSql,
    Wishes,
    WishesSql,
    default_wishes,
    percent_of,
    satisfaction,
    satisfaction_parts,
)
from models.matchfinder import (
    clean_wishes,
    person_of,
    ranked_matches,
    save_wishes,
    saved_wishes,
)
from models.member import Member, Profile
from tests.factories import block_member, edit_profile, make_member

TODAY = date(2026, 6, 1)
INTERESTS = ["travel", "music", "cooking", "sports", "nature", "wine"]

ANNA = Person(34, "NL", "NH", ("travel", "music", "wine"))
BRAM = Person(37, "NL", "UT", ("travel", "music", "sports"))
CARL = Person(58, "DE", None, ("gaming",))


def _questions_sql(questions: QuestionWishes) -> ColumnElement:
    return literal(stored_question_wishes(questions), JSON)


def _person_sql(person: Person, answers: QuestionWishes) -> PersonSql:
    return PersonSql(
        literal(person.age),
        literal(person.country),
        literal(person.region, String),
        literal(list(person.interests), JSON),
        _questions_sql(answers),
    )


def _wishes_sql(wishes: Wishes) -> WishesSql:
    return WishesSql(
        literal(wishes.min_age),
        literal(wishes.max_age),
        literal(wishes.place),
        literal(list(wishes.interests), JSON),
        _questions_sql(wishes.questions),
    )


def satisfied(db: Session, wishes: Wishes, me: Person, other: Person,
              answers: QuestionWishes = NOTHING) -> float:  # fmt: skip
    """The database's satisfaction of `me` with `other`, who gave `answers`."""
    parts = satisfaction_parts(
        _wishes_sql(wishes), _person_sql(me, {}), _person_sql(other, answers)
    )
    return db.exec(select(satisfaction(parts))).one()[0]


def match_percent(db: Session, mine: Wishes, me: Person, theirs: Wishes, them: Person) -> int:
    """Each side's own answers are those in its wishes."""
    return percent_of(
        satisfied(db, mine, me, them, theirs.questions),
        satisfied(db, theirs, them, me, mine.questions),
    )


def test_the_match_is_the_same_from_either_side(db: Session) -> None:
    anna = Wishes(30, 40, REGION, ("travel", "music"))
    bram = default_wishes(BRAM, 18, 99)
    assert match_percent(db, anna, ANNA, bram, BRAM) == match_percent(db, bram, BRAM, anna, ANNA)


def test_a_match_is_low_when_one_side_is_poorly_served(db: Session) -> None:
    anna_loves_everyone = Wishes(18, 99, ANYWHERE, ())
    carl = default_wishes(CARL, 18, 99)  # about 58, in Germany, gaming
    assert satisfied(db, anna_loves_everyone, ANNA, CARL) == 1.0
    assert satisfied(db, carl, CARL, ANNA) < 0.2
    assert match_percent(db, anna_loves_everyone, ANNA, carl, CARL) < 45


def test_each_wish_counts_by_its_weight(db: Session) -> None:
    wishes = Wishes(30, 35, COUNTRY, ("travel", "music", "cooking", "sports"))
    # age 37: 2 years out (0.8 of 3), the same country (2 of 2), 3 of 4 interests (1.5 of 2)
    assert satisfied(db, wishes, ANNA, BRAM) == pytest.approx((2.4 + 2 + 1.5) / 7)
    same_region_only = Wishes(30, 40, REGION, ())
    assert satisfied(db, same_region_only, ANNA, BRAM) == pytest.approx((3 + 1) / 5)
    # 12 years out of 20-25: nothing of the age; abroad: nothing of the place
    assert satisfied(db, Wishes(20, 25, COUNTRY, ()), BRAM, CARL) == 0.0


def no_smokers(importance: str) -> dict[str, QuestionWish]:
    return {"smoking": QuestionWish("no", frozenset({"no"}), importance)}


def answered(answer: str) -> dict[str, QuestionWish]:
    return {"smoking": QuestionWish(answer, frozenset(), "none")}


def test_a_question_counts_as_much_as_the_asker_says_and_only_when_answered(db: Session) -> None:
    def anna_with(importance: str) -> Wishes:
        return Wishes(30, 40, ANYWHERE, (), no_smokers(importance))

    them = Person(37, "NL", "UT", ())
    # the age range meets 3 of 3; "very" weighs 3, "a little" 1
    assert satisfied(db, anna_with("very"), ANNA, them, answered("yes")) == pytest.approx(3 / 6)
    assert satisfied(db, anna_with("little"), ANNA, them, answered("yes")) == pytest.approx(3 / 4)
    assert satisfied(db, anna_with("very"), ANNA, them, answered("no")) == 1.0
    assert satisfied(db, anna_with("very"), ANNA, them) == 1.0


def test_the_match_with_questions_is_the_same_from_either_side(db: Session) -> None:
    anna_person = Person(34, "NL", "NH", ("travel",))
    bram_person = Person(37, "NL", "UT", ("music",))
    anna = Wishes(
        30,
        40,
        REGION,
        ("travel",),
        {**no_smokers("very"), "children": QuestionWish("yes", frozenset(), "none")},
    )
    bram = Wishes(
        30,
        36,
        COUNTRY,
        (),
        {
            "children": QuestionWish("yes", frozenset({"yes"}), "little"),
            "smoking": QuestionWish("sometimes", frozenset(), "none"),
        },
    )
    one_way = match_percent(db, anna, anna_person, bram, bram_person)
    assert one_way == match_percent(db, bram, bram_person, anna, anna_person) < 70


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


def test_a_member_without_saved_wishes_wants_what_their_profile_suggests(db: Session) -> None:
    viewer = edit_profile(db, make_member(db), date_of_birth=date(1981, 1, 1), interests=["wine"])
    them = man(db, "them@example.com", date_of_birth=date(1996, 1, 1), interests=["wine", "art"])
    odd = man(db, "odd@example.com", date_of_birth=date(1996, 1, 1), interests=None)  # JSON null
    profile, wishes = db.get(Profile, viewer.id), Wishes(18, 99, ANYWHERE, ())
    unsaved = {
        match.member.id: match for match in ranked_matches(db, profile, wishes, TODAY, 10, 18)
    }
    save_wishes(db, them.id, default_wishes(person_of(db.get(Profile, them.id), TODAY), 18, 99))
    saved = ranked_matches(db, profile, wishes, TODAY, 10, 18)
    # 45 is 5 years past their 20-40 (1.5 of 3), the same country (2), wine of wine and art
    # (1 of 2); with no interests of their own, interests do not count for them
    assert unsaved[them.id].percent == percent_of(1.0, 4.5 / 7)
    assert unsaved[odd.id].percent == percent_of(1.0, 3.5 / 5)
    assert [match.percent for match in saved] == [unsaved[odd.id].percent, unsaved[them.id].percent]
    assert not unsaved[them.id].fits_them and unsaved[them.id].shared == ["wine"]


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
