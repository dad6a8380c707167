"""The runner: actions and reads off the event loop, effects only after a commit."""

import asyncio
import threading
from dataclasses import dataclass

import pytest
from sqlmodel import Session

from actions.effects import handles, settle, spawn
from actions.runner import Done, act, read
from models.member import Member
from services.database import transaction
from tests.factories import make_member


@dataclass(frozen=True)
class Renamed:
    member_id: int


told: list[int] = []


@handles(Renamed)
async def _tell(effect: Renamed) -> None:
    told.append(effect.member_id)


def _rename(member_id: int, fail: bool) -> Done[str]:
    with transaction() as db:
        member = db.get(Member, member_id)
        member.language = "fi"
        db.add(member)
        if fail:
            raise ValueError("refused")
    return Done(threading.current_thread().name, effects=(Renamed(member_id),))


def _language(member_id: int) -> str:
    with transaction() as db:
        return db.get(Member, member_id).language


async def test_an_action_runs_in_the_pool_then_its_effects(db: Session) -> None:
    told.clear()
    member = make_member(db)
    thread = await act(_rename, member.id, False)
    await settle()
    assert thread != threading.current_thread().name and thread.startswith("db")
    assert told == [member.id]
    assert await read(_language, member.id) == "fi"


async def test_a_failed_action_rolls_back_and_tells_nobody(db: Session) -> None:
    told.clear()
    member = make_member(db)
    with pytest.raises(ValueError):
        await act(_rename, member.id, True)
    await settle()
    assert told == []
    assert await read(_language, member.id) == "en"


async def test_a_caller_cancelled_mid_action_still_gets_its_effects(db: Session) -> None:
    """A tab that closes while its action runs: the commit happened, so its effects run."""
    told.clear()
    member = make_member(db)
    started, release = threading.Event(), threading.Event()

    def slow_rename(member_id: int) -> Done[str]:
        started.set()
        release.wait(5)
        return _rename(member_id, False)

    caller = asyncio.ensure_future(act(slow_rename, member.id))
    await asyncio.to_thread(started.wait, 5)
    caller.cancel()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await caller
    for _ in range(500):  # the action finishes in its thread after the caller has gone
        if told:
            break
        await asyncio.sleep(0.01)
    await settle()
    assert told == [member.id]


async def test_settling_waits_for_this_loops_effects_only() -> None:
    """A helper running actions on a loop of its own (as browser tests do) may leave effects
    pending there; settling this loop's effects must not wait for, or trip over, those."""
    other = asyncio.new_event_loop()
    thread = threading.Thread(target=other.run_forever, daemon=True)
    thread.start()
    release = threading.Event()

    async def start_stuck_effect() -> None:
        spawn(asyncio.to_thread(release.wait, 10))

    asyncio.run_coroutine_threadsafe(start_stuck_effect(), other).result(5)
    try:
        await asyncio.wait_for(settle(), 5)
    finally:
        release.set()
        other.call_soon_threadsafe(other.stop)
        thread.join(5)
        other.close()
    await settle()  # the other loop has closed: its effect is let go
