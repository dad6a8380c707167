"""The runner: actions and reads off the event loop, effects only after a commit."""

import threading
from dataclasses import dataclass

import pytest
from sqlmodel import Session

from actions.effects import handles, settle
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
