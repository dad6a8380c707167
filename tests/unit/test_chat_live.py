"""The browser's half of lean delivery (assets/shell.js, run in node): a message that arrived
without the tab's state (state/chats.py ARRIVED_SCRIPT) is shown once, in order, beside the
state's messages, and moves the open chat's card up; none while the member reads back."""

import json

from services.config import PROJECT_ROOT
from state.chats import ARRIVED_SCRIPT
from tests.node import run_node

# What shell.js meets at load in a page, as little as it needs.
BROWSER = """
const noop = () => {};
globalThis.window = globalThis;
globalThis.document = {
  addEventListener: noop, querySelector: () => null, querySelectorAll: () => [],
  documentElement: {}, createElement: () => ({style: {}}), head: {appendChild: noop},
};
globalThis.addEventListener = noop;
globalThis.history = {pushState: noop, replaceState: noop};
globalThis.localStorage = globalThis.sessionStorage = {
  getItem: () => null, setItem: noop, removeItem: noop,
};
globalThis.MutationObserver = class { observe() {} };
"""


def bubble(message_id: int, body: str, at: str = "2026-11-29T08:00:00+00:00") -> dict:
    return {
        "id": message_id, "mine": False, "flagged": False, "removed": False,
        "body": body, "gift": "", "picture": "", "at": at,
    }  # fmt: skip


def in_browser(program: str) -> object:
    shell = (PROJECT_ROOT / "assets" / "shell.js").read_text(encoding="utf-8")
    return json.loads(run_node(BROWSER + shell + program))


def arrives(conversation_id: int, message: dict) -> str:
    return ARRIVED_SCRIPT.format(conversation=conversation_id, bubble=json.dumps(message)) + ";"


def test_arrivals_show_once_in_order_beside_the_states_messages() -> None:
    state = [bubble(10, "one"), bubble(12, "mine")]
    program = (
        "let redraws = 0; siteChatLiveSubscribe(() => redraws++);"
        + arrives(5, bubble(13, "three"))
        + arrives(5, bubble(11, "two"))  # pushed concurrently: it may come second
        + arrives(5, bubble(13, "three"))  # never twice
        + arrives(6, bubble(14, "elsewhere"))
        + arrives(5, bubble(9, "before the window"))
        + f"const state = {json.dumps(state)};"
        + "console.log(JSON.stringify({"
        + " shown: siteChatShown(state, 5, false).map((m) => m.body),"
        + " caughtUp: siteChatShown([...state, {id: 13, body: 'three'}], 5, false).length,"
        + " readingBack: siteChatShown(state, 5, true).length,"
        + " removed: (siteChat.forget(6), siteChatShown([], 6, false).length),"
        + " redraws, version: siteChatLiveVersion()}));"
    )
    assert in_browser(program) == {
        "shown": ["one", "two", "mine", "three"],
        "caughtUp": 4,  # the state has it now: shown once
        "readingBack": 2,  # they wait behind "Newer messages"
        "removed": 0,  # the member removed the chat: not shown again
        "redraws": 5,
        "version": 5,
    }


def test_the_open_chats_card_moves_up_with_its_newest_arrival() -> None:
    other = {"id": 3, "text": "hi", "at": "2026-11-29T09:00:00+00:00", "last_id": 0}
    own = {"id": 5, "text": "mine", "at": "2026-11-29T08:00:00+00:00", "last_id": 12}
    later = {**own, "text": "newer", "last_id": 20}
    program = (
        arrives(5, bubble(13, "three", "2026-11-29T08:00:01+00:00"))
        + f"const cards = {json.dumps([other, own])}, later = {json.dumps([other, later])};"
        + "const moved = siteChatCards(cards, 5);"
        + "console.log(JSON.stringify({"
        + " moved: moved.map((c) => [c.id, c.text, c.unread, c.last_id]),"
        + " newer: siteChatCards(later, 5) === later,"
        + " none: siteChatCards(cards, 3) === cards}));"
    )
    assert in_browser(program) == {
        "moved": [[5, "three", 0, 13], [3, "hi", None, 0]],
        "newer": True,  # a card from a newer message stays as the state has it
        "none": True,
    }


def test_arrivals_are_bounded_and_dropped_once_the_state_has_them() -> None:
    many = "".join(arrives(5, bubble(100 + n, f"m{n}")) for n in range(130))
    program = (
        many
        + "const kept = () => siteChatShown([{id: 1}], 5, false).length - 1;"
        + "const capped = kept();"
        + "siteChatShown([{id: 150}, {id: 151}], 5, false);"  # the state has these two now
        + "const pruned = kept();"
        + arrives(6, bubble(300, "elsewhere"))
        + "siteChatShown([], 6, false);"  # the open chat changed
        + "console.log(JSON.stringify({capped, pruned, other: kept()}));"
    )
    assert in_browser(program) == {
        "capped": 120,  # the newest: 110 to 229
        "pruned": 78,  # 152 to 229: 110 to 149 fell out of the window
        "other": 0,  # chat 5's went when chat 6 opened
    }
