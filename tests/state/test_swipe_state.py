"""/swipe-game's state: the stack after the browser named its time zone, four likes and the
fifth refused with the time until new ones, a pass taken back, and only cards the tab shows."""

import math
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session

from models.likes import Like
from models.member import Member
from models.swipes import Swipe
from state.swipe import UNLIMITED, SwipeState
from tests.factories import make_member, make_men
from tests.state.conftest import redirects, run, scripts, substate
from tests.state.test_likes_state import fresh, logged_in

DAILY_LIKES = 4  # spec section 9
STACK = 5


async def started(make_root, db: Session, member: Member, zone: str = "Europe/Oslo") -> SwipeState:
    game = substate(await logged_in(make_root, db, member, "/swipe-game"), SwipeState)
    assert "resolvedOptions().timeZone" in scripts(await run(game.load()))[0]
    await run(game.start(zone))
    return game


def minutes_to_midnight(zone: str) -> int:
    local = datetime.now(ZoneInfo(zone))
    midnight = datetime.combine(local.date() + timedelta(days=1), datetime.min.time(), local.tzinfo)
    return math.ceil((midnight - local).total_seconds() / 60)


async def test_four_likes_then_the_fifth_waits_for_midnight(make_root, db: Session) -> None:
    anna = make_member(db)
    make_men(db, DAILY_LIKES + 3)
    game = await started(make_root, db, anna, "Asia/Tokyo")
    assert len(game.cards) == STACK and game.likes_left == DAILY_LIKES
    for left in range(DAILY_LIKES - 1, -1, -1):
        await run(game.like(game.cards[0]["id"]))
        assert game.likes_left == left
    assert game.limit_reached
    top = game.cards[0]["id"]
    await run(game.like(top))  # from a second tab, say: refused, the card stays
    assert game.cards[0]["id"] == top and fresh(db).get(Like, (anna.id, top)) is None
    expected = minutes_to_midnight("Asia/Tokyo")
    assert abs(game.reset_minutes - expected) <= 1
    assert game.reset_hours == (math.ceil(game.reset_minutes / 60) if expected >= 60 else 0)
    await run(game.skip(top))  # passes go on
    assert top not in {card["id"] for card in game.cards}
    assert fresh(db).get(Member, anna.id).time_zone == "Asia/Tokyo"


async def test_a_pass_comes_back_on_top(make_root, db: Session) -> None:
    anna = make_member(db)
    make_men(db, 2)
    game = await started(make_root, db, anna)
    passed = game.cards[0]["id"]
    await run(game.skip(passed))
    assert game.can_undo and [card["id"] for card in game.cards] != [passed]
    await run(game.undo())
    assert game.cards[0]["id"] == passed and not game.can_undo
    assert fresh(db).get(Swipe, (anna.id, passed)) is None


async def test_only_a_card_the_tab_shows_can_be_swiped(make_root, db: Session) -> None:
    anna = make_member(db)
    (shown,) = make_men(db, 1)
    hidden = make_member(db, "hidden@example.com")  # a woman: not in a hetero woman's stack
    game = await started(make_root, db, anna)
    for member_id in (hidden.id, "1; DROP", -3, 10**20):
        await run(game.like(member_id))
    assert fresh(db).get(Like, (anna.id, hidden.id)) is None and game.likes_left == DAILY_LIKES
    assert [card["id"] for card in game.cards] == [shown.id]


async def test_premium_members_have_no_daily_limit(make_root, db: Session) -> None:
    anna = make_member(db, paid_user=True)
    make_men(db, DAILY_LIKES + 1)
    game = await started(make_root, db, anna)
    for _ in range(DAILY_LIKES + 1):
        await run(game.like(game.cards[0]["id"]))
    assert game.likes_left == UNLIMITED and not game.limit_reached
    assert game.cards == []


async def test_a_logged_out_tab_is_sent_to_log_in(make_root, db: Session) -> None:
    game = substate(make_root(url="/swipe-game"), SwipeState)
    (target,) = redirects(await run(game.start("Europe/Oslo")))
    assert target.startswith("/login") and game.cards == []
