"""Likes: giving, taking back, the received and given lists, new likes, automatic likes."""

import random
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from threading import Barrier

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.email_tokens import EmailToken, Purpose
from models.likes import (
    AUTO_LIKE_GAPS,
    AUTO_LIKE_GRACE,
    CannotLike,
    Like,
    MatchKept,
    auto_like,
    drop_like,
    given_likes,
    like_member,
    likes,
    mark_seen,
    match_if_mutual,
    matches,
    new_like_count,
    received_likes,
    unannounced_like,
    unannounced_match,
)
from models.member import Member, MemberStatus, Profile
from tests.factories import add_photo, block_member, committed, edit_profile, make_member

TODAY = date(2025, 6, 15)
NOW = datetime(2025, 6, 15, 12, tzinfo=UTC)


LONG_AGO = NOW - timedelta(days=30)


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com", signup_date=LONG_AGO)


@pytest.fixture
def bert(db: Session) -> Member:
    return edit_profile(
        db, make_member(db, "bert@example.com", signup_date=LONG_AGO), gender="male"
    )


def _like_at(db: Session, liker: Member, liked: Member, hours_ago: float) -> None:
    assert like_member(db, liker.id, liked.id)
    like = db.get(Like, (liker.id, liked.id))
    like.created_at = NOW - timedelta(hours=hours_ago)
    db.add(like)
    db.commit()


def _likers(db: Session, member: Member, n: int) -> list[Member]:
    """`n` members who liked `member`, the first one longest ago."""
    likers = [make_member(db, f"liker{i}@example.com") for i in range(n)]
    for i, liker in enumerate(likers):
        _like_at(db, liker, member, hours_ago=n - i)
    return likers


def is_match(db: Session, member_id: int, other_id: int) -> bool:
    like = db.get(Like, (member_id, other_id))
    return like is not None and like.matched_at is not None


def _like_rows(db: Session) -> list[Like]:
    return db.exec(select(Like)).all()


# --- liking -------------------------------------------------------------------------------


def test_liking_twice_keeps_one_like(db: Session, anna: Member, bert: Member) -> None:
    assert like_member(db, anna.id, bert.id) is True
    assert like_member(db, anna.id, bert.id) is False
    assert len(_like_rows(db)) == 1
    assert likes(db, anna.id, bert.id) and not likes(db, bert.id, anna.id)
    assert not likes(db, None, bert.id)


def test_unlike_takes_the_like_back(db: Session, anna: Member, bert: Member) -> None:
    like_member(db, anna.id, bert.id)
    like_member(db, bert.id, anna.id)
    assert drop_like(db, anna.id, bert.id)
    db.commit()
    assert not drop_like(db, anna.id, bert.id)  # taking it back twice drops nothing more
    assert not likes(db, anna.id, bert.id)
    assert likes(db, bert.id, anna.id)


@pytest.mark.parametrize("blocker", ["liker", "liked"])
def test_no_like_across_a_block(db: Session, anna: Member, bert: Member, blocker: str) -> None:
    if blocker == "liker":
        block_member(db, anna.id, bert.id)
    else:
        block_member(db, bert.id, anna.id)
    with pytest.raises(CannotLike):
        like_member(db, anna.id, bert.id)
    assert _like_rows(db) == []


def test_no_like_for_oneself_hidden_or_unknown_members(db: Session, anna: Member) -> None:
    pending = make_member(db, "pending@example.com", status=MemberStatus.DELETED_PENDING)
    unconfirmed = make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)
    for liked_id in (anna.id, pending.id, unconfirmed.id, 9999):
        with pytest.raises(CannotLike):
            like_member(db, anna.id, liked_id)
    assert _like_rows(db) == []


# --- lists --------------------------------------------------------------------------------


def test_received_likes_show_new_ones_first_then_the_latest(db: Session, anna: Member) -> None:
    first, second, third, fourth = _likers(db, anna, 4)
    mark_seen(db, anna.id, fourth.id)
    mark_seen(db, anna.id, second.id)
    tiles = received_likes(db, anna.id, TODAY, limit=10)
    assert [t.member.id for t in tiles] == [third.id, first.id, fourth.id, second.id]
    assert [t.is_new for t in tiles] == [True, True, False, False]
    assert tiles[0].liked_at.replace(tzinfo=UTC) == NOW - timedelta(hours=2)
    assert [t.member.id for t in received_likes(db, anna.id, TODAY, limit=2, offset=2)] == [
        fourth.id,
        second.id,
    ]


def test_given_likes_are_newest_first(db: Session, anna: Member, bert: Member) -> None:
    carl = make_member(db, "carl@example.com")
    _like_at(db, anna, carl, hours_ago=5)
    _like_at(db, anna, bert, hours_ago=1)
    _like_at(db, bert, anna, hours_ago=3)
    tiles = given_likes(db, anna.id, TODAY, limit=10)
    assert [t.member.id for t in tiles] == [bert.id, carl.id]
    assert tiles[0].member.name == "Bert" and not tiles[0].is_new
    assert [t.member.id for t in given_likes(db, bert.id, TODAY, limit=10)] == [anna.id]


def test_blocked_or_hidden_likers_disappear_from_the_lists(db: Session, anna: Member) -> None:
    kept, blocked, blocking, gone = _likers(db, anna, 4)
    assert new_like_count(db, anna.id) == 4
    block_member(db, anna.id, blocked.id)
    block_member(db, blocking.id, anna.id)
    gone.status = MemberStatus.DELETED_PENDING
    db.add(gone)
    db.commit()
    assert [t.member.id for t in received_likes(db, anna.id, TODAY, limit=10)] == [kept.id]
    assert new_like_count(db, anna.id) == 1
    assert given_likes(db, blocked.id, TODAY, limit=10) == []


def test_opening_a_likers_profile_makes_the_like_seen(db: Session, anna: Member) -> None:
    first, second = _likers(db, anna, 2)
    mark_seen(db, anna.id, first.id)
    mark_seen(db, first.id, anna.id)  # no like that way: nothing happens
    assert new_like_count(db, anna.id) == 1
    assert [t.is_new for t in received_likes(db, anna.id, TODAY, limit=10)] == [True, False]
    db.expire_all()
    assert db.get(Like, (second.id, anna.id)).is_new is True


def test_each_new_like_is_announced_once_newest_first(db: Session, anna: Member) -> None:
    first, second, third = _likers(db, anna, 3)
    mark_seen(db, anna.id, second.id)
    assert unannounced_like(db, anna.id, TODAY).id == third.id
    assert unannounced_like(db, anna.id, TODAY).id == first.id
    assert unannounced_like(db, anna.id, TODAY) is None
    assert new_like_count(db, anna.id) == 2


def test_likes_of_blocked_members_are_not_announced(db: Session, anna: Member) -> None:
    (liker,) = _likers(db, anna, 1)
    block_member(db, anna.id, liker.id)
    assert unannounced_like(db, anna.id, TODAY) is None


# --- automatic likes ----------------------------------------------------------------------


def _demo(db: Session, name: str, day: int, photo: bool = True, **fields) -> Member:
    """A demo member (male unless told) who signed up `day` days ago."""
    gender = fields.pop("gender", "male")
    member = make_member(
        db,
        f"{name}@example.com",
        is_demo=fields.pop("is_demo", True),
        signup_date=NOW - timedelta(days=day),
        **fields,
    )
    edit_profile(db, member, gender=gender)
    if photo:
        add_photo(db, member, name, main=True)
    return member


def test_auto_like_comes_from_a_fitting_demo_member_only(db: Session, anna: Member) -> None:
    _demo(db, "nophoto", 1, photo=False)
    _demo(db, "woman", 2, gender="female")
    _demo(db, "real", 3, is_demo=False)
    _demo(db, "invisible", 4, invisible=True)
    _demo(db, "pending", 5, status=MemberStatus.DELETED_PENDING)
    blocked = _demo(db, "blocked", 6)
    block_member(db, anna.id, blocked.id)
    liking = _demo(db, "liking", 7)
    like_member(db, liking.id, anna.id)
    dave = _demo(db, "dave", 8)

    tile = auto_like(db, anna.id, NOW, random.Random(1))
    assert (tile.id, tile.thumb_filename) == (dave.id, "dave_t.jpg")
    like = db.get(Like, (dave.id, anna.id))
    assert like.automatic and like.is_new
    assert like.created_at.replace(tzinfo=UTC) == NOW
    assert auto_like(db, anna.id, NOW + timedelta(days=2), random.Random(1)) is None


def test_automatic_likes_come_more_often_in_the_first_days_then_daily(
    db: Session, anna: Member
) -> None:
    for n in range(5):
        _demo(db, f"demo{n}", n + 1)
    moment = NOW
    for gap in (*AUTO_LIKE_GAPS, AUTO_LIKE_GAPS[-1]):
        assert auto_like(db, anna.id, moment, random.Random(0)) is not None
        too_soon = moment + gap - timedelta(minutes=1)
        assert auto_like(db, anna.id, too_soon, random.Random(0)) is None
        moment += gap
    assert [gap.total_seconds() / 3600 for gap in AUTO_LIKE_GAPS] == [5, 14, 24]
    assert new_like_count(db, anna.id) == 4


def test_a_new_member_gets_no_automatic_like_right_after_confirming(db: Session) -> None:
    _demo(db, "dave", 1)
    member = make_member(db, "new@example.com", signup_date=NOW - timedelta(days=3))
    token = EmailToken(
        token_hash="x" * 64,
        member_id=member.id,
        purpose=Purpose.ACTIVATE.value,
        expires_at=NOW,
        used_at=NOW,  # confirmed three days after signing up, just now
    )
    committed(db, lambda s: s.add(token))
    assert auto_like(db, member.id, NOW, random.Random(0)) is None
    assert (
        auto_like(db, member.id, NOW + AUTO_LIKE_GRACE - timedelta(seconds=1), random.Random(0))
        is None
    )
    assert auto_like(db, member.id, NOW + AUTO_LIKE_GRACE, random.Random(0)) is not None


def test_automatic_likers_are_about_the_members_age_and_from_their_country_first(
    db: Session, anna: Member
) -> None:
    born = db.get(Profile, anna.id).date_of_birth
    edit_profile(db, _demo(db, "old", 1), date_of_birth=born - timedelta(days=365 * 12))
    edit_profile(db, _demo(db, "young", 2), date_of_birth=born + timedelta(days=365 * 12))
    edit_profile(db, _demo(db, "abroad", 3), country="DE")
    near = _demo(db, "near", 4)
    assert auto_like(db, anna.id, NOW, random.Random(0)).id == near.id
    later = NOW + AUTO_LIKE_GAPS[0]
    assert auto_like(db, anna.id, later, random.Random(0)).name == "Abroad"
    assert auto_like(db, anna.id, later + AUTO_LIKE_GAPS[1], random.Random(0)) is None


def test_a_like_by_hand_does_not_use_up_the_interval(db: Session, anna: Member) -> None:
    _demo(db, "dave", 1)
    like_member(db, make_member(db, "carl@example.com").id, anna.id)
    assert auto_like(db, anna.id, NOW, random.Random(0)) is not None


def test_auto_like_follows_the_members_sexuality(db: Session, bert: Member) -> None:
    _demo(db, "woman", 1, gender="female")
    man = _demo(db, "man", 2)
    edit_profile(db, bert, sexuality="gay")
    assert auto_like(db, bert.id, NOW, random.Random(0)).id == man.id


def test_no_auto_like_without_a_candidate_or_profile(db: Session, anna: Member) -> None:
    _demo(db, "woman", 1, gender="female")
    assert auto_like(db, anna.id, NOW, random.Random(0)) is None
    assert auto_like(db, 9999, NOW, random.Random(0)) is None
    assert _like_rows(db) == []


@pytest.mark.parametrize("status", [MemberStatus.NOT_CONFIRMED, MemberStatus.DELETED_PENDING])
def test_no_auto_like_before_activation_or_after_deletion(
    db: Session, anna: Member, status: str
) -> None:
    _demo(db, "dave", 1)
    anna.status = status
    db.add(anna)
    db.commit()
    assert auto_like(db, anna.id, NOW, random.Random(0)) is None


def test_auto_like_picks_with_the_given_random_generator(db: Session) -> None:
    candidates = [_demo(db, f"demo{day}", day) for day in range(1, 8)]  # newest first
    picked = set()
    for seed in (0, 3, 5):
        expected = random.Random(seed).choice(candidates).id
        targets = [
            make_member(db, f"target{seed}-{i}@example.com", signup_date=LONG_AGO) for i in range(2)
        ]
        assert [auto_like(db, t.id, NOW, random.Random(seed)).id for t in targets] == [expected] * 2
        picked.add(expected)
    assert len(picked) == 3


def test_two_likes_at_once_like_once_and_fail_neither(engine: Engine, db: Session) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("parallel transactions are a PostgreSQL matter; SQLite runs one writer")
    anna, bert = make_member(db, "anna@example.com"), make_member(db, "bert@example.com")
    start = Barrier(2)

    def like(_: int) -> bool:
        with Session(engine) as own:
            start.wait()
            return committed(own, like_member, anna.id, bert.id)

    with ThreadPoolExecutor(max_workers=2) as pool:
        assert sorted(pool.map(like, range(2))) == [False, True]


# --- matches ------------------------------------------------------------------------------


def test_liking_back_makes_a_match_for_both(db: Session, anna: Member, bert: Member) -> None:
    like_member(db, anna.id, bert.id)
    assert not match_if_mutual(db, anna.id, bert.id, NOW)  # one way is no match
    like_member(db, bert.id, anna.id)
    assert match_if_mutual(db, bert.id, anna.id, NOW)
    db.commit()
    assert is_match(db, anna.id, bert.id) and is_match(db, bert.id, anna.id)
    assert [tile.member.id for tile in matches(db, anna.id, TODAY, limit=10)] == [bert.id]
    assert [tile.member.id for tile in matches(db, bert.id, TODAY, limit=10)] == [anna.id]
    # the like that made the match is told by the match modal, not the new-like modal
    assert unannounced_like(db, anna.id, TODAY) is None


def test_a_match_is_announced_once_to_each_newest_first(db: Session, anna: Member) -> None:
    older, newer = make_member(db, "older@example.com"), make_member(db, "newer@example.com")
    for other, moment in ((older, NOW - timedelta(hours=2)), (newer, NOW)):
        like_member(db, anna.id, other.id)
        like_member(db, other.id, anna.id)
        match_if_mutual(db, other.id, anna.id, moment)
    db.commit()
    assert [unannounced_match(db, anna.id, TODAY).id for _ in range(2)] == [newer.id, older.id]
    assert unannounced_match(db, anna.id, TODAY) is None
    assert unannounced_match(db, newer.id, TODAY).id == anna.id  # the other side's own news


def test_a_match_is_kept_until_a_block_ends_it(db: Session, anna: Member, bert: Member) -> None:
    like_member(db, anna.id, bert.id)
    like_member(db, bert.id, anna.id)
    match_if_mutual(db, bert.id, anna.id, NOW)
    db.commit()
    with pytest.raises(MatchKept):
        drop_like(db, anna.id, bert.id)
    assert likes(db, anna.id, bert.id)
    assert drop_like(db, anna.id, bert.id, ending_match=True)
    db.commit()
    assert not is_match(db, bert.id, anna.id) and likes(db, bert.id, anna.id)
    assert matches(db, bert.id, TODAY, limit=10) == []
    assert drop_like(db, bert.id, anna.id)  # no longer a match: an ordinary like again


def test_two_members_liking_each_other_at_once_make_a_match(engine: Engine, db: Session) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("parallel transactions are a PostgreSQL matter; SQLite runs one writer")
    anna, bert = make_member(db, "anna@example.com"), make_member(db, "bert@example.com")
    start = Barrier(2)

    def like(pair: tuple[int, int]) -> bool:
        with Session(engine) as own:
            assert like_member(own, *pair)
            start.wait()  # both likes are written, neither is committed
            return committed(own, match_if_mutual, *pair, NOW)

    with ThreadPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(like, [(anna.id, bert.id), (bert.id, anna.id)]))
    assert sorted(found) == [False, True]  # the second to commit finds the first's like
    db.expire_all()
    assert is_match(db, anna.id, bert.id) and is_match(db, bert.id, anna.id)
