"""The welcome time bonus on the page: the server starts it on entering the members area and
holds the deadline (4 h from signup, never later); the modal comes 40 s after the first entry
for a member with 0 credits, never once dismissed; nothing for paid, old or logged-out members."""

from datetime import timedelta

import pytest
from sqlmodel import Session

import state.time_bonus
from models.credits import grant_credits
from models.member import Member, as_utc
from state.likes import LikeModalState
from state.session import SessionState
from state.time_bonus import LIKE_MODAL_PAUSE_MS, TimeBonusState
from tests.factories import committed, make_member
from tests.state.conftest import redirects, run, scripts, substate
from tests.state.payment_tabs import old_member, tab

WINDOW_MS = 14_400_000  # spec section 9


class Clock:
    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The state's idea of now in epoch ms, starting at the real now."""
    found = Clock()
    found.ms = state.time_bonus.now_ms()
    monkeypatch.setattr(state.time_bonus, "now_ms", found)
    return found


def signup_ms(member: Member) -> int:
    return int(as_utc(member.signup_date).timestamp() * 1000)


def generation_of(script: str) -> int:
    """The answer a wait script resolves to: the generation its callback carries."""
    return int(script.split("resolve(")[1].split(")")[0])


async def entered(make_root, db: Session, member: Member | None, url: str = "/members"):
    bonus = substate(await tab(make_root, db, member, url), TimeBonusState)
    return bonus, scripts(await run(bonus.enter()))


async def test_entering_the_members_area_starts_the_bonus(make_root, db: Session, clock) -> None:
    anna = make_member(db)
    bonus, waits = await entered(make_root, db, anna)
    assert bonus.deadline_ms == signup_ms(anna) + WINDOW_MS
    assert len(waits) == 1 and waits[0].endswith(", 40000))")  # spec section 9: 40 s
    assert not bonus.modal_open


async def test_the_modal_comes_40_s_after_the_first_entry(make_root, db: Session, clock) -> None:
    bonus, first = await entered(make_root, db, make_member(db))
    clock.ms += 15_000
    second = scripts(await run(bonus.enter()))
    assert second[0].endswith(", 25000))")  # the next page waits only for the rest of the 40 s
    await run(bonus.show_modal(generation_of(first[0])))
    assert not bonus.modal_open  # the first page's wait is void
    await run(bonus.show_modal(generation_of(second[0])))
    assert bonus.modal_open and bonus.shown_at == "/members"
    clock.ms += 60_000
    assert scripts(await run(bonus.enter()))[0].endswith(", 0))")  # past 40 s: at once


async def test_no_modal_with_credits_or_once_dismissed(make_root, db: Session, clock) -> None:
    anna = make_member(db)
    bonus, waits = await entered(make_root, db, anna)
    committed(db, grant_credits, anna, 10, "test")
    await (await bonus.get_state(SessionState))._refresh_counts()
    await run(bonus.show_modal(generation_of(waits[0])))
    assert not bonus.modal_open

    bob = make_member(db, "bob@example.com")
    bonus, waits = await entered(make_root, db, bob)
    await run(bonus.show_modal(generation_of(waits[0])))
    assert bonus.modal_open
    events = await run(bonus.to_credits())
    assert not bonus.modal_open and bonus.dismissed_at.startswith("20")
    assert redirects(events) == ["/credits"]
    assert scripts(await run(bonus.enter())) == []  # dismissed: no new wait
    await run(bonus.show_modal(bonus._generation))
    assert not bonus.modal_open


async def test_closing_the_modal_dismisses_it(make_root, db: Session, clock) -> None:
    bonus, waits = await entered(make_root, db, make_member(db))
    await run(bonus.show_modal(generation_of(waits[0])))
    bonus.open_changed(True)
    assert bonus.modal_open and not bonus.dismissed_at
    bonus.open_changed(False)
    assert not bonus.modal_open and bonus.dismissed_at


async def test_the_deadline_never_moves(make_root, db: Session, clock) -> None:
    anna = make_member(db)
    first, _ = await entered(make_root, db, anna)
    again, _ = await entered(make_root, db, anna, "/likes")
    assert again.deadline_ms == first.deadline_ms == signup_ms(anna) + WINDOW_MS


@pytest.mark.parametrize("who", ["paid", "old", "logged_out"])
async def test_no_bonus_for_paid_old_or_logged_out(make_root, db: Session, clock, who) -> None:
    member = {
        "paid": lambda: make_member(db, paid_user=True),
        "old": lambda: old_member(db),
        "logged_out": lambda: None,
    }[who]()
    bonus, waits = await entered(make_root, db, member)
    assert bonus.deadline_ms == 0 and waits == []
    await run(bonus.show_modal(bonus._generation))
    assert not bonus.modal_open


async def test_an_ended_bonus_shows_no_modal(make_root, db: Session, clock) -> None:
    anna = make_member(db)
    bonus, waits = await entered(make_root, db, anna)
    clock.ms = bonus.deadline_ms + int(timedelta(seconds=1).total_seconds() * 1000)
    await run(bonus.show_modal(generation_of(waits[0])))
    assert not bonus.modal_open


async def test_the_modal_goes_when_the_countdown_reaches_zero(
    make_root, db: Session, clock
) -> None:
    bonus, waits = await entered(make_root, db, make_member(db))
    clock.ms += 40_000
    until_zero = scripts(await run(bonus.show_modal(generation_of(waits[0]))))
    left = bonus.deadline_ms - clock.ms
    assert bonus.modal_open and until_zero[0].endswith(f", {left}))")
    await run(bonus.expire(generation_of(until_zero[0])))
    assert bonus.modal_open  # not yet zero: a stale or early call changes nothing
    clock.ms = bonus.deadline_ms
    await run(bonus.expire(generation_of(until_zero[0])))
    assert not bonus.modal_open and bonus.deadline_ms == 0


async def test_it_waits_for_the_new_like_modal_to_close(make_root, db: Session, clock) -> None:
    bonus, waits = await entered(make_root, db, make_member(db))
    likes = await bonus.get_state(LikeModalState)
    likes.open, likes.shown_at = True, "/members"
    again = scripts(await run(bonus.show_modal(generation_of(waits[0]))))
    assert not bonus.modal_open and again[0].endswith(f", {LIKE_MODAL_PAUSE_MS}))")
    likes.open = False
    await run(bonus.show_modal(generation_of(again[0])))
    assert bonus.modal_open


async def test_a_tab_asks_the_server_once_not_on_every_page(
    make_root, db: Session, clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = []
    start = state.time_bonus.start_time_bonus

    def counted(viewer):
        asked.append(viewer.member_id)
        return start(viewer)

    monkeypatch.setattr(state.time_bonus, "start_time_bonus", counted)
    bonus, _ = await entered(make_root, db, make_member(db, "new@example.com"))
    deadline = bonus.deadline_ms
    for _ in range(3):  # three more members-area pages in this tab
        await run(bonus.enter())
    assert len(asked) == 1 and bonus.deadline_ms == deadline > clock.ms
