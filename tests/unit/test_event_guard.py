"""What a visitor sends over Reflex's websocket is bounded before Reflex stores or logs it
(issue 28, findings 2-4), through the whole stack: the app's middleware and event namespace,
its event processor and its state manager."""

import base64
import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator

import pytest
from starlette.websockets import WebSocketDisconnect

import app.drop_log
import app.event_guard
from app.event_rate import ADDRESS_BURST, ADDRESS_RATE, ADDRESSES_TRACKED, KeyedBuckets
from state.shell import ShellState
from state.signup import SignupState
from tests.event_socket import NAMESPACE, EventSocketSite

FEW_KB = 4 * 1024  # a tab's root state on a plain address is about 1.3 KB
BIG = 240_000  # the probe's address: /members?q= and 240 KB
IN_APP = f"{ShellState.get_full_name()}.set_in_app"
DRAFT = f"{SignupState.get_full_name()}.signup_message_rx_state_"


@pytest.fixture(scope="module")
def served() -> Iterator[EventSocketSite]:
    """One event loop for the module: the state manager's Redis client stays on it."""
    served = EventSocketSite()
    with served.client:
        yield served


@pytest.fixture
def site(served: EventSocketSite, engine) -> EventSocketSite:
    return served


@pytest.fixture(autouse=True)
def fresh_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test client's address starts afresh: no allowance used, nothing logged yet."""
    addresses = KeyedBuckets(ADDRESS_RATE, ADDRESS_BURST, ADDRESSES_TRACKED)
    monkeypatch.setattr(app.event_guard.RATE, "_addresses", addresses)
    monkeypatch.setattr(app.drop_log.DROPS, "_seen", OrderedDict())


class Clock:
    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def frozen_rate(served: EventSocketSite, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """No time passes for the rates until a test moves the clock: only the burst a client is
    allowed counts."""
    clock = Clock()
    for counter in (app.event_guard.RATE._addresses, app.drop_log.DROPS):
        monkeypatch.setattr(counter, "_clock", clock)
    monkeypatch.setattr(served.frames, "clock", clock)
    return clock


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


# ----- 2. what a tab's router data can hold -----


def test_a_huge_address_leaves_the_stored_state_small(site: EventSocketSite) -> None:
    with site.tab() as tab:
        tab.hydrate("/members")
    plain = site.stored_size(tab.token)
    with site.tab() as tab:
        tab.hydrate("/members?q=" + "x" * 30_000)  # within the frame bound: cut to its path
    assert site.stored_size(tab.token) < FEW_KB
    assert site.stored_size(tab.token) - plain < 200
    with site.tab() as tab, pytest.raises(WebSocketDisconnect):
        tab.hydrate("/members?q=" + "x" * BIG)
    assert site.stored_size(tab.token) < FEW_KB


def test_an_address_of_a_normal_length_is_kept(site: EventSocketSite) -> None:
    with site.tab() as tab:
        tab.hydrate("/members?q=" + "x" * 1_000)
    assert site.stored_size(tab.token) > 1_000 * 3  # kept: the raw data, page and URL


def test_headers_cookies_and_browser_storage_are_bounded(site: EventSocketSite) -> None:
    headers = {
        "user-agent": "u" * 20_000,
        "cookie": "tracker=" + "c" * 20_000 + "; auth.session=abc",
        "x-padding": "p" * 20_000,
    }
    storage = {DRAFT: "m" * 20_000}
    with site.tab(headers) as tab:
        tab.hydrate("/members", storage)
    assert site.stored_size(tab.token) < FEW_KB * 2  # the storage value is cut at 2,000


def test_a_token_reflex_could_not_have_made_is_refused(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(ConnectionRefusedError), site.tab(token="t" * 10_000) as tab:
        tab.hydrate("/members")  # the token names the tab's state in Redis
    assert ["impossible tab token" in line for line in _warnings(caplog)] == [True]


# ----- 3. oversized and unknown events are refused, logged bounded -----


def test_an_oversized_frame_is_refused_unread_and_logged_in_one_line(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture
) -> None:
    with site.tab() as tab:
        tab.hydrate("/members")
        tab.emit("no_such_state.no_such_handler", {"x": "y" * 900_000})
        with pytest.raises(WebSocketDisconnect) as closed:
            tab.ws.receive_text()
    assert closed.value.code == 1009
    logged = "\n".join(_warnings(caplog))
    assert logged.count("refused unread") == 1
    assert "yyyy" not in logged and len(logged) < 500


def test_events_for_no_handler_are_dropped_without_their_payload(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture
) -> None:
    with site.tab() as tab:
        tab.hydrate("/members")
        for _ in range(20):
            tab.emit("no_such_state.no_such_handler", {"x": "y" * 50_000})
        tab.emit(IN_APP, {"standalone": True, "z": "y" * 50_000})  # an argument it lacks
        tab.barrier()  # the socket still serves
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "yyyy" not in logged and len(logged) < 2_000


# ----- 4. events per socket and per client are rate limited -----


def _sent_at_once(
    site: EventSocketSite, clock: Clock, monkeypatch: pytest.MonkeyPatch, events: int
) -> list[str]:
    """The names of the events that reached their handlers when one tab sent `events` at once."""
    passed = _count_passed(site, monkeypatch)
    with site.tab() as tab:
        tab.hydrate("/members")
        for number in range(events):
            tab.emit(IN_APP, {"standalone": number % 2 == 0})
        clock.now += 10  # the barrier's own frame passes
        tab.barrier()
    return passed


def test_a_flood_is_dropped_and_logged_once(
    site: EventSocketSite,
    frozen_rate: Clock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    passed = _sent_at_once(site, frozen_rate, monkeypatch, 1_200)  # the probe's second
    assert passed.count(IN_APP) < 1_200 / 10
    assert sum("over the socket's frame rate" in line for line in _warnings(caplog)) == 1


def test_a_members_burst_passes(
    site: EventSocketSite,
    frozen_rate: Clock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    passed = _sent_at_once(site, frozen_rate, monkeypatch, 30)  # a page's calls, clicks
    assert passed.count(IN_APP) == 30
    assert not [line for line in _warnings(caplog) if "dropped" in line]


def _count_passed(site: EventSocketSite, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the events Reflex's event processor is given (the page's own included)."""
    processor, passed = site.app.event_processor, []
    enqueue = processor.enqueue

    async def counted(token: str, event, *args, **kwargs):
        passed.append(event.name)
        return await enqueue(token, event, *args, **kwargs)

    monkeypatch.setattr(processor, "enqueue", counted)
    return passed


def test_frames_that_name_no_event_count_too(
    site: EventSocketSite,
    frozen_rate: Clock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unknown socket.io event names, acks and client errors never reach `on_event`: the
    socket's frames are metered before socket.io parses them."""
    parsed = _count_parsed(site, monkeypatch)
    with site.tab() as tab:
        tab.hydrate("/members")
        before = len(parsed)
        for _ in range(100):
            tab.send(f"42{NAMESPACE}," + json.dumps(["no_such_socket_event", "y" * 60_000]))
            tab.send(f"43{NAMESPACE},7[]")
            tab.send(f"42{NAMESPACE}," + json.dumps(["client_error", {"y": "y" * 1_000}]))
        frozen_rate.now += 10
        tab.barrier()
    assert len(parsed) - before < 300 / 2
    logged = "\n".join(_warnings(caplog))
    assert logged.count("over the socket's frame rate") == 1 and "yyyy" not in logged


def _count_parsed(site: EventSocketSite, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The engine.io messages socket.io is given to parse."""
    sio, parsed = site.app.sio, []
    handle = sio._handle_eio_message

    async def counted(eio_sid: str, data: object) -> None:
        parsed.append(data)
        await handle(eio_sid, data)

    monkeypatch.setattr(sio, "_handle_eio_message", counted)
    sio.eio.on("message", counted)
    return parsed


# ----- the guards cannot be bypassed -----


def test_connect_and_disconnect_sent_as_events_are_dropped(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture
) -> None:
    """python-socketio hands any event to the namespace's `on_<name>`: a forged environ must
    not replace the socket's address (the log-in's throttles count it), nor a forged disconnect
    unlink the tab or refill its allowance."""
    namespace = site.app.event_namespace
    with site.tab() as tab:
        tab.hydrate("/members")
        sid = site.sid_of(tab)
        address = app.event_guard.RATE.address_of(sid)
        forged = {"REMOTE_ADDR": "198.51.100.9", "QUERY_STRING": f"token={uuid.uuid4()}"}
        tab.send(f"42{NAMESPACE}," + json.dumps(["connect", forged]))
        tab.barrier()
        assert namespace._static_router_data[sid]["ip"] != "198.51.100.9"
        tab.send(f"42{NAMESPACE}," + json.dumps(["disconnect"]))
        tab.barrier()
        assert namespace.sid_to_token.get(sid) == tab.token
        assert app.event_guard.RATE.address_of(sid) == address != ""
    assert sum("a reserved event name" in line for line in _warnings(caplog)) == 1


def test_a_socket_without_a_token_is_refused(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture
) -> None:
    """Reflex would log every event of such a socket whole."""
    with site.tab(token=None) as tab:
        tab.send(f"40{NAMESPACE},")
        assert tab.ws.receive_text().startswith(f"44{NAMESPACE},")
    assert sum("impossible tab token" in line for line in _warnings(caplog)) == 1


def test_an_event_from_a_socket_without_a_tab_token_is_dropped(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with site.tab() as tab:
        tab.hydrate("/members")
        monkeypatch.delitem(site.app.event_namespace.sid_to_token, site.sid_of(tab))
        tab.emit(IN_APP, {"standalone": True}, address="/members?q=" + "y" * 1_000)
        tab.barrier()
    logged = "\n".join(_warnings(caplog))
    assert "without a tab token" in logged and "yyyy" not in logged


@pytest.mark.parametrize(
    "frames",
    [
        [f'451-{NAMESPACE},["event",{{"_placeholder":true,"num":0}}]', b"x"],
        [b"x" * 10],
        ["b" + base64.b64encode(b"x" * 10).decode()],
    ],
    ids=["binary event", "bytes", "base64"],
)
def test_binary_frames_close_the_socket(
    site: EventSocketSite, caplog: pytest.LogCaptureFixture, frames: list[str | bytes]
) -> None:
    """Reflex's frontend sends no binary packets: socket.io would collect what their header
    announces."""
    with site.tab() as tab:
        tab.hydrate("/members")
        for frame in frames:
            tab.ws.send_bytes(frame) if isinstance(frame, bytes) else tab.send(frame)
        with pytest.raises(WebSocketDisconnect) as closed:
            tab.barrier()
    assert closed.value.code == 1003
    assert sum("binary websocket frame" in line for line in _warnings(caplog)) == 1


def test_a_connect_that_fails_leaves_no_socket_behind(
    site: EventSocketSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = set(app.event_guard.RATE._sockets)  # sockets of earlier tests may still go

    async def failing(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the processor is down")

    monkeypatch.setattr(site.app.event_processor, "enqueue", failing)
    with pytest.raises(ConnectionRefusedError), site.tab() as tab:  # answered: the tab retries
        tab.hydrate("/members")
    assert not set(app.event_guard.RATE._sockets) - before
