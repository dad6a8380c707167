"""The swipe game's rules: 4 likes a day for free members, the day being the member's own
calendar day in their time zone; passes unlimited; only the last pass comes back; the stack
holds only members who fit and were not decided on."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import available_timezones

import pytest
from sqlmodel import Session, select

import actions.swipe
from actions.swipe import remember_time_zone, swipe, undo_pass
from actions.viewer import Viewer
from models.likes import Like, like_member
from models.member import Member
from models.swipes import (
    Swipe,
    SwipeDay,
    SwipeLimitReached,
    likes_on,
    member_day,
    record_swipe,
    swipe_day,
    swipe_stack,
    time_zone_of,
    undo_last_pass,
)
from tests.factories import add_photo, block_member, committed, edit_profile, make_member, make_men

TODAY = date(2026, 3, 10)
# 23:30 UTC on 10 March: already 11 March in Amsterdam (UTC+1), still 10 March in Los Angeles
# (UTC-7 since the US went to summer time on 8 March)
NOW = datetime(2026, 3, 10, 23, 30, tzinfo=UTC)
EARLIER_THAT_EVENING = datetime(2026, 3, 10, 22, 30, tzinfo=UTC)  # 23:30 Amsterdam, 15:30 LA
DAILY_LIKES = 4  # spec section 9
ACCEPTED_ZONES = sorted(zone for zone in available_timezones() if time_zone_of(zone))


def swiped_at(db: Session, member: Member, others: list[Member], moment: datetime) -> None:
    for other in others:
        db.add(Swipe(member_id=member.id, other_id=other.id, liked=True, created_at=moment))
    db.commit()


@pytest.mark.parametrize(
    ("zone", "left_now"),
    [("Europe/Amsterdam", DAILY_LIKES), ("America/Los_Angeles", 0)],
)
def test_the_day_is_the_members_own(db: Session, zone: str, left_now: int) -> None:
    anna = make_member(db)
    swiped_at(db, anna, make_men(db, DAILY_LIKES), EARLIER_THAT_EVENING)
    day = swipe_day(zone, NOW)
    assert DAILY_LIKES - likes_on(db, anna.id, day) == left_now


def test_the_day_runs_from_local_midnight_to_midnight() -> None:
    amsterdam = swipe_day("Europe/Amsterdam", NOW)
    assert (amsterdam.start, amsterdam.end) == (
        datetime(2026, 3, 10, 23, tzinfo=UTC),
        datetime(2026, 3, 11, 23, tzinfo=UTC),
    )
    los_angeles = swipe_day("America/Los_Angeles", NOW)
    assert los_angeles.start == datetime(2026, 3, 10, 7, tzinfo=UTC)
    assert swipe_day("Not/AZone", NOW).start == datetime(2026, 3, 10, tzinfo=UTC)


def test_the_fifth_like_of_a_day_is_refused_and_passes_go_on(db: Session) -> None:
    anna = make_member(db)
    others = make_men(db, DAILY_LIKES + 2)
    for other in others[:DAILY_LIKES]:
        committed(db, record_swipe, anna.id, other.id, True, DAILY_LIKES, NOW)
    with pytest.raises(SwipeLimitReached):
        record_swipe(db, anna.id, others[DAILY_LIKES].id, True, DAILY_LIKES, NOW)
    db.rollback()
    committed(db, record_swipe, anna.id, others[DAILY_LIKES].id, False, DAILY_LIKES, NOW)
    committed(db, record_swipe, anna.id, others[-1].id, True, None, NOW)  # premium: no limit
    assert likes_on(db, anna.id, swipe_day("UTC", NOW)) == DAILY_LIKES + 1
    tomorrow = NOW + timedelta(hours=1)  # past midnight UTC: a fresh day
    committed(db, record_swipe, anna.id, others[DAILY_LIKES].id, True, DAILY_LIKES, tomorrow)


def test_only_the_last_decision_comes_back_and_only_when_it_was_a_pass(db: Session) -> None:
    anna = make_member(db)
    first, second, third = make_men(db, 3)
    for minute, other in enumerate((first, second)):
        committed(db, record_swipe, anna.id, other.id, False, None, NOW + timedelta(minutes=minute))
    assert committed(db, undo_last_pass, anna.id) == second.id
    assert committed(db, undo_last_pass, anna.id) == first.id
    committed(db, record_swipe, anna.id, third.id, True, None, NOW)
    assert committed(db, undo_last_pass, anna.id) is None  # a like is not taken back


def test_the_stack_holds_members_who_fit_and_are_undecided(db: Session) -> None:
    anna = make_member(db)
    passed, liked, blocked, fresh, without_photo = make_men(db, 5)
    woman = make_member(db, "woman@example.com")
    add_photo(db, woman, "woman", main=True)
    edit_profile(db, without_photo, main_photo_id=None)
    committed(db, record_swipe, anna.id, passed.id, False, None, NOW)
    committed(db, like_member, anna.id, liked.id)
    block_member(db, blocked.id, anna.id)
    stack = swipe_stack(db, anna.id, TODAY, 10)
    assert [tile.id for tile in stack] == [fresh.id]
    assert swipe_stack(db, anna.id, TODAY, 10, skip=[fresh.id]) == []


@pytest.mark.parametrize(
    ("reported", "kept"),
    [("Europe/Warsaw", "Europe/Warsaw"), ("Mars/Olympus", None), (42, None), ("x" * 200, None)],
)
def test_only_a_real_time_zone_is_kept(reported: object, kept: str | None) -> None:
    assert time_zone_of(reported) == kept


def viewer_of(member: Member, premium: bool = False) -> Viewer:
    return Viewer(member.id, member.status, member.language, premium)


def test_a_swipe_like_is_a_like_and_the_limit_counts_in_the_members_zone(db: Session) -> None:
    anna = make_member(db)
    others = make_men(db, DAILY_LIKES + 1)
    assert remember_time_zone(viewer_of(anna), "Pacific/Auckland").value.likes_left == DAILY_LIKES
    for other in others[:DAILY_LIKES]:
        result = swipe(viewer_of(anna), other.id, True).value
        assert result.outcome is not None and result.outcome.stored
    refused = swipe(viewer_of(anna), others[-1].id, True).value
    assert refused.limit_reached and refused.allowance.likes_left == 0
    db.expire_all()
    assert db.get(Member, anna.id).time_zone == "Pacific/Auckland"
    assert db.get(Like, (anna.id, others[-1].id)) is None
    assert db.get(Swipe, (anna.id, others[-1].id)) is None
    premium = swipe(viewer_of(anna, premium=True), others[-1].id, True).value
    assert premium.outcome.stored and premium.allowance.likes_left is None


def test_no_swipe_on_a_member_out_of_reach(db: Session) -> None:
    anna = make_member(db)
    (blocker,) = make_men(db, 1)
    block_member(db, blocker.id, anna.id)
    for liked in (True, False):
        assert swipe(viewer_of(anna), blocker.id, liked).value.outcome is None
    assert swipe(viewer_of(anna), 10**9, False).value.outcome is None  # no such member
    assert db.exec(select(Swipe)).all() == []


def test_undo_brings_the_passed_member_back(db: Session) -> None:
    anna = make_member(db)
    (bram,) = make_men(db, 1)
    swipe(viewer_of(anna), bram.id, False)
    assert undo_pass(viewer_of(anna)).value.id == bram.id
    assert undo_pass(viewer_of(anna)).value is None
    assert [tile.id for tile in swipe_stack(db, anna.id, TODAY, 5)] == [bram.id]


# Ahead of Amsterdam and behind it, with the odd offsets (+8:45, +12:45, +5:45, -3:30) and the
# two ends of the world (+14, -11): after the day's likes, none of them gives a fifth one.
ELSEWHERE = (
    "Asia/Dubai",
    "Australia/Eucla",
    "Europe/Moscow",
    "Pacific/Kiritimati",
    "Europe/Helsinki",
    "Pacific/Chatham",
    "Asia/Kathmandu",
    "America/St_Johns",
    "America/Los_Angeles",
    "Pacific/Pago_Pago",
    "Europe/Amsterdam",
)


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, now: datetime) -> None:
        self.now = now
        monkeypatch.setattr(actions.swipe, "utcnow", lambda: self.now)


def test_another_time_zone_after_the_days_likes_gives_no_more(db: Session, monkeypatch) -> None:
    """The probe of issue 28: after 4 likes in Amsterdam the browser reports zone after zone
    until Amsterdam's midnight: no fifth like, and new likes still come at that midnight."""
    anna = make_member(db)
    viewer = viewer_of(anna)
    others = make_men(db, DAILY_LIKES + len(ELSEWHERE))
    clock = Clock(monkeypatch, datetime(2026, 3, 10, 19, 0, tzinfo=UTC))  # 20:00 in Amsterdam
    remember_time_zone(viewer, "Europe/Amsterdam")
    for other in others[:DAILY_LIKES]:
        assert swipe(viewer, other.id, True).value.outcome.stored
    amsterdam_midnight = datetime(2026, 3, 10, 23, 0, tzinfo=UTC)
    for step, (zone, other) in enumerate(zip(ELSEWHERE, others[DAILY_LIKES:], strict=True)):
        clock.now = datetime(2026, 3, 10, 19, 20, tzinfo=UTC) + step * timedelta(minutes=20)
        allowance = remember_time_zone(viewer, zone).value
        assert (allowance.likes_left, allowance.resets_at) == (0, amsterdam_midnight), zone
        assert swipe(viewer, other.id, True).value.limit_reached, zone
    assert clock.now < amsterdam_midnight
    assert likes_on(db, anna.id, swipe_day("UTC", clock.now)) == DAILY_LIKES


def hop_and_like(zones: tuple[str, ...], start: datetime, hours: int) -> list[datetime]:
    """A member who every 15 minutes reports each of `zones` in turn and likes whenever that is
    allowed: the moments of their likes (the rule of `member_day`, without a database)."""
    likes: list[datetime] = []
    last: SwipeDay | None = None
    for quarter in range(hours * 4):
        now = start + quarter * timedelta(minutes=15)
        for zone in zones:
            day = member_day(zone, now, last)
            while sum(day.start <= like < day.end for like in likes) < DAILY_LIKES:
                likes.append(now)
                last = day
    return likes


@pytest.mark.parametrize("start_hour", [0, 7, 19, 22])
def test_hopping_between_time_zones_gives_no_more_likes_than_staying(start_hour: int) -> None:
    """Three days of reporting every zone of the world in turn, ahead and behind, every 15
    minutes: no more likes than a member who stays in one zone (4 a day, so at most 8 across
    a midnight)."""
    start = datetime(2026, 3, 10, start_hour, 5, tzinfo=UTC)
    stays = hop_and_like(("Europe/Amsterdam",), start, 72)
    hops = hop_and_like(ELSEWHERE, start, 72)
    assert len(stays) == DAILY_LIKES * 4  # the 72 hours touch four days in Amsterdam
    assert len(hops) <= len(stays)
    for like in hops:
        assert sum(like <= other < like + timedelta(hours=24) for other in hops) <= 2 * DAILY_LIKES


@pytest.mark.parametrize(
    "zone",
    [
        "Europe/Amsterdam",
        "America/Los_Angeles",
        "Pacific/Chatham",
        "Antarctica/Troll",
        "Australia/Lord_Howe",
    ],
)
def test_a_member_who_stays_has_their_calendar_days(zone: str) -> None:
    """Across the start of summer time (8 March in Los Angeles, 29 March in Europe, 5 April
    the end of it in Chatham): every day is the local calendar day."""
    start, last = datetime(2026, 3, 1, 12, tzinfo=UTC), None
    for hour in range(0, 24 * 40, 5):
        now = start + timedelta(hours=hour)
        last = member_day(zone, now, last)
        assert last == swipe_day(zone, now)


def best_zone_at_each_days_end(start: datetime, days: int) -> int:
    """An adversary who, whenever their day ends, reports the zone (of all the site accepts)
    whose day ends soonest and likes 4 times in it: their likes within `days` days."""
    end, now, last, likes = start + timedelta(days=days), start, None, 0
    while now < end:
        last = min((member_day(zone, now, last) for zone in ACCEPTED_ZONES), key=lambda d: d.end)
        likes += DAILY_LIKES
        now = last.end
    return likes


def staying_in_the_best_zone(start: datetime, days: int) -> int:
    """The most likes within `days` days of a member who stays in one zone."""
    end, most = start + timedelta(days=days), 0
    for zone in ACCEPTED_ZONES:
        now, likes = start, 0
        while now < end:
            likes += DAILY_LIKES
            now = swipe_day(zone, now).end
        most = max(most, likes)
    return most


def test_the_best_zone_at_each_days_end_gives_no_more_than_4_likes_a_day() -> None:
    """Issue 28's zone hopping, the best case for the hopper, over 30 days without summer time
    changes: at most 4 likes a day, plus the day that was running when they began."""
    days = 30
    likes = best_zone_at_each_days_end(datetime(2026, 6, 1, 23, 50, tzinfo=UTC), days)
    assert likes <= DAILY_LIKES * days + DAILY_LIKES


def test_across_summer_time_the_hopper_gets_no_more_than_a_member_who_stays() -> None:
    """Over 30 days that hold the start of summer time in America (8 March), Europe and the
    Troll station (29 March, 2 hours): a day that summer time shortens can fit one more day in,
    for a member who stays too; the hopper gets no more than the best of them."""
    days, start = 30, datetime(2026, 3, 5, 23, 50, tzinfo=UTC)
    most_staying = staying_in_the_best_zone(start, days)
    assert most_staying <= DAILY_LIKES * days + 2 * DAILY_LIKES
    assert best_zone_at_each_days_end(start, days) <= most_staying
