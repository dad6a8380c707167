"""Simulated chat members that speak Reflex's websocket protocol; the server's processes.

Used by `bench/chat.py` (200 members chatting) and `tests/e2e/test_chat_faults.py` (a worker
killed mid-conversation): a `SocketMember` is one browser tab without a browser, so a small
machine can run hundreds of them beside the server. Both also find the server's worker
processes in /proc (their server's own PostgreSQL and Redis databases come from
tests/services.py).

Reflex 0.10's protocol, as `reflex/app.py` (EventNamespace) and the frontend's
`utils/state.js` speak it:

- socket.io over a websocket at path `/_event`, namespace `/_event`; the query parameter
  `token` is the tab's client token (the key of its state in Redis). The request headers
  (cookie, origin, accept-language) are read once per connection and reach every handler as
  `self.router.headers`: the session cookie `auth.session` travels there.
- The socket.io CONNECT packet's auth payload is `{"event": <hydrate event>}`: the event
  `reflex___state____state.hydrate_and_load` with the page's `router_data` (`pathname`,
  `asPath`, `query`) and, as its payload's `vars`, the browser's cookies a state reads (here
  the locale cookie, which the tab's language follows). It sends the whole state back as a
  delta and queues the page's on_load
  handlers (here `ShellState.on_page_load`, which registers the tab for live delivery, and
  `ChatsState.open_page`). An optional `state_schema` key checks the frontend's build; a
  client without one is never told to reload.
- An event is the socket.io message "event" with `{"name": "<state path>.<handler>",
  "payload": {<argument>: <value>}, "router_data": {...}}`, e.g.
  `reflex___state____state.state___chats____chats_state.send_text` with
  `{"form": {"text": ..., "client_id": ...}}`.
- The server answers with socket.io messages "event": `{"delta": {<state path>: {<var> +
  "_rx_state_": <new value>}}, "events": [<frontend events>]}`. A changed list comes whole,
  so every delta of `ChatsState.messages` carries the conversation as the tab shows it.
  Updates pushed to a tab by another member's send (`app.modify_state`) come the same way,
  but for a tab that shows the conversation: its message comes lean, as the frontend event
  `siteChat.arrived(<conversation>, <bubble>)` (a `_call_script`, state/chats.py
  ARRIVED_SCRIPT), which the browser shows beside the state's messages.
  The hydrate's first delta is the tab's stored state (is_hydrated false); the page's on_load
  handlers follow, and `is_hydrated` turns true once the last of them has run.
- Frontend events in an update run in the browser; after `_remove_session_storage` the page
  hydrates again (state/tab_keeper.py sends it to a tab whose state Redis lost). A toast is a
  `_call_function` event whose code holds its text; `siteChat.sent()` (a `_call_script`)
  confirms a send, after which the browser empties the draft.
"""

import asyncio
import json
import os
import re
import ssl
import time
import uuid
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import socketio
from reflex.state import State
from reflex_base.constants.state import FIELD_MARKER

from actions.viewer import SESSION_COOKIE
from state.chats import SENT_SCRIPT, ChatsState
from state.i18n import I18nState
from translations.locales import LOCALE_COOKIE

EVENT_PATH = "/_event"  # socket.io path and namespace of Reflex's websocket
ROOT_STATE = State.get_full_name()
CHATS_STATE = ChatsState.get_full_name()
HYDRATE_EVENT = f"{ROOT_STATE}.hydrate_and_load"
LOCALE_COOKIE_VAR = f"{I18nState.get_full_name()}.locale_cookie"  # the cookie's var (rx.Cookie)
SEND_TEXT_EVENT = f"{CHATS_STATE}.send_text"
LOAD_EARLIER_EVENT = f"{CHATS_STATE}.load_earlier"
SEND_PATH = "/api/chat.php"  # where a chat page's composer posts a text (app/chat_api.py)
MESSAGES_VAR = "messages" + FIELD_MARKER
CONVERSATION_VAR = "conversation_id" + FIELD_MARKER
MORE_BEFORE_VAR = "more_before" + FIELD_MARKER
HYDRATED_VAR = "is_hydrated" + FIELD_MARKER
ERROR_VAR = "error" + FIELD_MARKER
REMOVE_STORAGE = "_remove_session_storage"  # the frontend hydrates the page again after it
OPEN_TIMEOUT = 30.0  # seconds until a hydrated chat page shows its conversation
# A message that arrived lean (state/chats.py ARRIVED_SCRIPT): its conversation and bubble.
ARRIVED = re.compile(r"siteChat\.arrived\((\d+), (.*)\)$")
# A toast's text in the frontend event Reflex sends for it (rx.toast.error(text, ...)).
TOAST_TEXT = re.compile(r"""refs\['__toast'\]\?\.\["\w+"\]\(("(?:[^"\\]|\\.)*")""")

Arrival = Callable[[str, float], None]  # (message body, time.perf_counter() on arrival)


@dataclass(frozen=True)
class Answer:
    """What the tab was told about one send: the chat's error text, toasts, or that the send
    was confirmed (`siteChat.sent()`, after which the browser empties the draft)."""

    errors: tuple[str, ...]
    toasts: tuple[str, ...]
    confirmed: bool


@cache
def _tls_context() -> ssl.SSLContext:
    """One context for every member's HTTP client: httpx builds one per client otherwise, which
    costs 40 ms of this process's CPU, all of it on the event loop every member shares (a
    member's first send held up every delivery the bench was timing)."""
    return ssl.create_default_context()


class SocketMember:
    """One logged-in tab on `/chats/{conversation_id}`, seen through its state deltas.

    `received` and `confirmed` map each message body to when it first showed in the tab's
    `ChatsState.messages`: the partner's messages, and this member's own (a send is confirmed
    once the server has stored it and sent the list with it). `on_arrival` is called with
    each partner message as it first shows.
    """

    def __init__(
        self,
        base_url: str,
        session_token: str,
        conversation_id: int,
        on_arrival: Arrival | None = None,
        locale: str = "en",
        cookies: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url, self.session_token = base_url, session_token
        self.cookies = dict(cookies or {})  # more cookies the tab's browser sends
        self.locale = locale  # the tab's language: its locale cookie and Accept-Language
        self.conversation_id = conversation_id
        self.client_token = str(uuid.uuid4())
        self.on_arrival = on_arrival
        self.received: dict[str, float] = {}
        self.confirmed: dict[str, float] = {}
        self.shown_ids: set[int] = set()  # ids of the messages the tab has shown
        self.opened = False  # ChatsState shows the conversation
        self.hydrated = False  # the page's on_load handlers have all run
        self.more_before = False
        self.updates = 0
        self.rehydrations = 0  # times the server told the tab to hydrate again
        self.errors: list[str] = []  # ChatsState.error as it was set, when not empty
        self.toasts: list[str] = []  # every toast's text (Reflex's own error too)
        self.sends_confirmed = 0  # siteChat.sent() calls
        self._changed = asyncio.Event()
        self._client: socketio.AsyncClient | None = None
        self._http: httpx.AsyncClient | None = None  # for sends over HTTP, made on the first

    @property
    def path(self) -> str:
        return f"/chats/{self.conversation_id}"

    @property
    def connected(self) -> bool:
        return self._client is not None and self._client.connected

    def local_port(self) -> int | None:
        """The client side's TCP port of the open websocket (to find the worker serving it)."""
        websocket = getattr(self._client.eio, "ws", None) if self._client else None
        name = websocket.get_extra_info("sockname") if websocket is not None else None
        return int(name[1]) if name else None

    def cookie_jar(self) -> dict[str, str]:
        return {SESSION_COOKIE: self.session_token, LOCALE_COOKIE: self.locale, **self.cookies}

    def _cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookie_jar().items())

    def router_data(self) -> dict[str, Any]:
        return {
            "pathname": self.path,
            "asPath": self.path,
            "query": {"id": str(self.conversation_id)},
        }

    def hydrate_payload(self) -> dict[str, Any]:
        """The browser's cookies a state reads (rx.Cookie), as the frontend sends them."""
        return {"vars": {LOCALE_COOKIE_VAR: self.locale}}

    async def open(self, timeout: float = OPEN_TIMEOUT) -> None:
        """Connect a new socket (same client token, as a reloaded tab) and hydrate the chat
        page; return once its on_load handlers have run and the tab shows the conversation.
        (The hydrate's snapshot comes first and may be the tab's state from before.)"""
        await self.close()
        self.opened = self.hydrated = False
        client = socketio.AsyncClient(reconnection=False)
        client.on("event", self._on_update, namespace=EVENT_PATH)
        client.on("disconnect", self._on_disconnect, namespace=EVENT_PATH)
        self._client = client
        hydrate = {
            "name": HYDRATE_EVENT,
            "payload": self.hydrate_payload(),
            "router_data": self.router_data(),
        }
        await client.connect(
            f"{self.base_url}?token={self.client_token}",
            headers={
                "cookie": self._cookie_header(),
                "origin": self.base_url,
                "accept-language": self.locale,
            },
            auth={"event": hydrate},
            transports=["websocket"],
            namespaces=[EVENT_PATH],
            socketio_path=EVENT_PATH,
            wait_timeout=timeout,
        )
        if not await self.until(lambda: self.hydrated and self.opened, timeout):
            raise TimeoutError(f"{self.path} did not open within {timeout:.0f} s")

    async def send_text(self, text: str, client_id: str) -> None:
        """What the composer sends through the tab's state (where it cannot send over HTTP):
        ChatsState.send_text with the form's text and client id."""
        await self._emit(SEND_TEXT_EVENT, {"form": {"text": text, "client_id": client_id}})

    async def send_over_http(self, text: str, client_id: str, partner_id: int) -> bool:
        """What the composer on a chat page sends (assets/shell.js): the text posted to
        /api/chat.php, outside the tab's state. True when stored: the tab shows the message
        from the answer (its balance comes through the socket); else the page would send it
        through the state (`send_text`)."""
        if self._http is None:
            headers = {"cookie": self._cookie_header(), "origin": self.base_url}
            self._http = httpx.AsyncClient(
                base_url=self.base_url, headers=headers, verify=_tls_context()
            )
        body = {
            "conversation": self.conversation_id,
            "to": partner_id,
            "client_id": client_id,
            "text": text,
            "tab": self.client_token,
            "language": self.locale,
        }
        try:
            answer = await self._http.post(SEND_PATH, json=body)
        except httpx.TransportError:  # the page's fetch fails alike, and it sends through the state
            return False
        if answer.status_code != 200:
            return False
        self._saw(answer.json()["message"], time.perf_counter())
        self._changed.set()
        return True

    async def send_answered(self, text: str, client_id: str, timeout: float) -> Answer | None:
        """send_text, then what the tab was told about it; None when nothing came within
        `timeout` seconds. (One send at a time: the tab's next answer is this send's.)"""
        before = len(self.errors), len(self.toasts), self.sends_confirmed
        await self.send_text(text, client_id)
        if not await self.until(
            lambda: (len(self.errors), len(self.toasts), self.sends_confirmed) != before, timeout
        ):
            return None
        return Answer(
            tuple(self.errors[before[0] :]),
            tuple(self.toasts[before[1] :]),
            self.sends_confirmed > before[2],
        )

    async def load_earlier(self, timeout: float = 10.0) -> bool:
        """Scroll up once: the page of messages before the first one shown; False on timeout."""
        before = self.updates
        await self._emit(LOAD_EARLIER_EVENT, {})
        return await self.until(lambda: self.updates > before, timeout)

    async def _emit(self, name: str, payload: dict[str, Any]) -> None:
        if self._client is None:
            raise ConnectionError("the member's socket is not open")
        event = {"name": name, "payload": payload, "router_data": self.router_data()}
        await self._client.emit("event", event, namespace=EVENT_PATH)

    async def until(self, check: Callable[[], bool], timeout: float) -> bool:
        """Wait until check() holds after some update, at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while not check():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self._changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return True

    async def close(self) -> None:
        client, self._client = self._client, None
        http, self._http = self._http, None
        if client is not None:
            with suppress(Exception):
                await client.disconnect()
        if http is not None:
            await http.aclose()

    async def _on_update(self, update: dict[str, Any]) -> None:
        at = time.perf_counter()
        delta = update.get("delta") or {}
        if HYDRATED_VAR in (root := delta.get(ROOT_STATE) or {}):
            self.hydrated = bool(root[HYDRATED_VAR])
        chats = delta.get(CHATS_STATE) or {}
        if CONVERSATION_VAR in chats:
            self.opened = chats[CONVERSATION_VAR] == self.conversation_id
        if MORE_BEFORE_VAR in chats:
            self.more_before = bool(chats[MORE_BEFORE_VAR])
        for bubble in chats.get(MESSAGES_VAR) or []:
            self._saw(bubble, at)
        if chats.get(ERROR_VAR):
            self.errors.append(chats[ERROR_VAR])
        events = update.get("events") or []
        self._told(events)
        for event in events:
            code = str((event.get("payload") or {}).get("javascript_code", ""))
            if (found := ARRIVED.search(code)) and int(found.group(1)) == self.conversation_id:
                self._saw(json.loads(found.group(2)), at)
        self.updates += 1
        self._changed.set()
        if any(event.get("name") == REMOVE_STORAGE for event in events):
            self.rehydrations += 1
            self.hydrated = False  # as state.js does: the page hydrates again
            await self._emit(HYDRATE_EVENT, self.hydrate_payload())

    def _told(self, events: list[dict[str, Any]]) -> None:
        """Toasts and send confirmations among the frontend events of an update."""
        for event in events:
            payload = event.get("payload") or {}
            self.sends_confirmed += payload.get("javascript_code") == SENT_SCRIPT
            if found := TOAST_TEXT.search(str(payload.get("function", ""))):
                self.toasts.append(json.loads(found.group(1)))

    def _saw(self, bubble: dict[str, Any], at: float) -> None:
        self.shown_ids.add(int(bubble["id"]))
        body = str(bubble.get("body", ""))
        seen = self.confirmed if bubble.get("mine") else self.received
        if body in seen:
            return
        seen[body] = at
        if not bubble.get("mine") and self.on_arrival is not None:
            self.on_arrival(body, at)

    async def _on_disconnect(self, *_reason: object) -> None:
        self._changed.set()


# ----- the server's processes (Linux /proc) -----


def _parent_of(pid: int) -> int | None:
    """The parent's pid; None when the process is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])  # after "pid (comm) state": ppid


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _parent_of(int(entry.name)) == pid:
            found.append(int(entry.name))
    return sorted(found)


def process_tree(pid: int) -> list[int]:
    """pid and all its descendants."""
    tree, queue = [], [pid]
    while queue:
        current = queue.pop()
        tree.append(current)
        queue.extend(children_of(current))
    return tree


def reflex_server(port: int) -> int | None:
    """The `reflex run ... --backend-port {port}` (or `serve_built.py --backend-port {port}`)
    process this one started: in production, granian's supervisor, whose children are the
    backend workers. None when it is gone."""
    for pid in children_of(os.getpid()):
        if f"--backend-port {port}" in command_line(pid):
            return pid
    return None


def rss_bytes(pids: list[int]) -> int:
    """Summed resident set size (VmRSS) of the processes still alive."""
    total = 0
    for pid in pids:
        with suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def processes_named(name: str) -> list[int]:
    """Processes whose command name is `name` (e.g. the PostgreSQL server's "postgres")."""
    found = []
    for entry in Path("/proc").iterdir():
        with suppress(OSError):
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == name:
                found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time the processes still alive have used so far."""
    total = 0
    for pid in pids:
        with suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def _connection_inodes(server_port: int, client_port: int) -> set[str]:
    """Socket inodes of the server's side of the TCP connection from client_port."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, remote = fields[1], fields[2]
                if int(local.rsplit(":", 1)[1], 16) == server_port and (
                    int(remote.rsplit(":", 1)[1], 16) == client_port
                ):
                    inodes.add(fields[9])
    return inodes


def process_holding(pids: list[int], server_port: int, client_port: int) -> int | None:
    """Which of pids holds the server side of the connection from client_port."""
    wanted = {f"socket:[{inode}]" for inode in _connection_inodes(server_port, client_port)}
    for pid in pids:
        with suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with suppress(OSError):
                    if str(fd.readlink()) in wanted:
                        return pid
    return None
