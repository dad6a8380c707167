"""The websocket's event rates over time (issue 28, finding 4): a member never meets them, a
flood is cut to a small part of itself, and each client's drops make one log line a period."""

import logging

import pytest

from app.drop_log import DropLog
from app.event_rate import EventRate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _passed(rate: EventRate, clock: Clock, sid: str, events: int, per_second: float) -> int:
    passed = 0
    for _ in range(events):
        passed += rate.allows(sid)
        clock.now += 1 / per_second
    return passed


def test_a_member_never_meets_the_limit() -> None:
    clock = Clock()
    rate = EventRate(clock)
    rate.connected("tab", "203.0.113.7")
    for _minute in range(30):  # half an hour: a page a minute, then typing and clicking
        assert _passed(rate, clock, "tab", 25, per_second=1_000) == 25  # the page's burst
        assert _passed(rate, clock, "tab", 180, per_second=1 / 0.3) == 180  # debounced typing


def test_a_flood_from_one_socket_is_cut_to_a_small_part() -> None:
    clock = Clock()
    rate = EventRate(clock)
    rate.connected("tab", "203.0.113.7")
    sent = 1_200 * 10  # the probe's rate for ten seconds
    assert _passed(rate, clock, "tab", sent, per_second=1_200) < sent / 50


def test_many_sockets_from_one_address_share_its_allowance() -> None:
    clock = Clock()
    rate = EventRate(clock)
    sockets = [f"tab{number}" for number in range(100)]
    for sid in sockets:
        rate.connected(sid, "203.0.113.7")
    passed = 0
    for _ in range(120):  # ten seconds, each socket at 12 events a second: 12,000 in all
        passed += sum(rate.allows(sid) for sid in sockets)
        clock.now += 1 / 12
    assert passed < 12_000 / 5
    rate.connected("neighbour", "198.51.100.1")  # another address is not held back
    assert rate.allows("neighbour")


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
