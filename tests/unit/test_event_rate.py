"""The websocket's rates over time (issue 28, finding 4): a member never meets them, a flood
from one socket or from many sockets of one address is cut to a small part of itself, and each
client's drops make one log line a period."""

import asyncio
import logging

import pytest
from starlette.types import Message, Receive, Scope, Send

from app.drop_log import DropLog
from app.event_frames import EventFrames
from app.event_rate import EventRate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _frames_passed(pattern: list[tuple[int, float]]) -> list[int]:
    """For each run of (frames, per second) one socket sends in turn, how many frames reach the
    app behind EventFrames."""
    clock, passed = Clock(), []
    schedule = iter(
        (run, 1 / per_second)
        for run, (frames, per_second) in enumerate(pattern)
        for _ in range(frames)
    )

    async def receive() -> Message:
        if (sent := next(schedule, None)) is None:
            return {"type": "websocket.disconnect", "code": 1000}
        run, gap = sent
        clock.now += gap
        return {"type": "websocket.receive", "text": f'42/_event,["event",{run}]'}

    async def app(_scope: Scope, receive: Receive, _send: Send) -> None:
        while (message := await receive())["type"] == "websocket.receive":
            passed.append(int(message["text"].split(",")[-1].rstrip("]")))

    async def send(_message: Message) -> None:
        return None

    scope = {"type": "websocket", "path": "/_event/", "client": ("203.0.113.7", 1), "headers": []}
    asyncio.run(EventFrames(app, clock)(scope, receive, send))
    return [passed.count(run) for run in range(len(pattern))]


def test_a_member_never_meets_the_socket_limit() -> None:
    # half an hour: a page a minute (its burst), then debounced typing (one event per 300 ms)
    pattern = [(25, 1_000.0), (180, 1 / 0.3)] * 30
    assert _frames_passed(pattern) == [frames for frames, _ in pattern]


def test_a_flood_from_one_socket_is_cut_to_a_small_part() -> None:
    sent = 1_200 * 10  # the probe's rate for ten seconds
    assert _frames_passed([(sent, 1_200.0)])[0] < sent / 50


def _events_passed(
    rate: EventRate, clock: Clock, sockets: list[str], rounds: int, gap: float
) -> int:
    passed = 0
    for _ in range(rounds):
        passed += sum(rate.allows(sid) for sid in sockets)
        clock.now += gap
    return passed


def test_members_behind_one_address_are_not_held_back() -> None:
    """bench/chat.py's 200 members from one address hydrate about at once (a page: about ten
    events); then members behind a carrier's NAT send an event a second each."""
    clock = Clock()
    rate = EventRate(clock)
    members = [f"tab{number}" for number in range(250)]
    for sid in members:
        rate.connected(sid, "203.0.113.7")
    assert _events_passed(rate, clock, members[:200], rounds=10, gap=0) == 200 * 10
    clock.now += 10
    assert _events_passed(rate, clock, members, rounds=60, gap=1.0) == 250 * 60


def test_a_flood_from_many_sockets_of_one_address_is_bounded() -> None:
    clock = Clock()
    rate = EventRate(clock)
    sockets = [f"tab{number}" for number in range(1_000)]
    for sid in sockets:
        rate.connected(sid, "203.0.113.7")
    # ten seconds, each socket within its own rate (10 a second): 100,000 events in all
    passed = _events_passed(rate, clock, sockets, rounds=100, gap=0.1)
    assert passed < 100_000 / 10
    rate.connected("neighbour", "198.51.100.1")  # another address is not held back
    assert rate.allows("neighbour")


def test_a_forgotten_socket_leaves_nothing_behind() -> None:
    rate = EventRate(Clock())
    rate.connected("tab", "203.0.113.7")
    rate.forget("tab")
    rate.allows("tab")  # an event after the socket went
    assert rate.address_of("tab") == "" and not rate._sockets


def test_drops_make_one_line_per_client_and_period(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    drops = DropLog(clock)
    with caplog.at_level(logging.WARNING):
        for _ in range(5_000):
            drops.note("203.0.113.7", "over the event rate")
            clock.now += 0.001  # five seconds of a flood
        drops.note("198.51.100.1", "no such event handler", "x" * 10_000)
        clock.now += 60
        drops.note("203.0.113.7", "over the event rate")
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 3
    assert "dropped 1 " in lines[0] and "dropped 5000 " in lines[2]
    assert all(len(line) < 300 for line in lines)
