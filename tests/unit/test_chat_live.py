"""The browser's half of lean delivery (assets/shell.js, run in node): a message that arrived
without the tab's state (state/chats.py ARRIVED_SCRIPT) is shown once, in order, beside the
state's messages, and moves the open chat's card up; none while the member reads back. And the
composer's text sent without the state (app/chat_api.py send_text): shown from the answer, or
sent through the state when anything but a stored message comes back."""

import json

from services.config import PROJECT_ROOT
from state.chats import ARRIVED_SCRIPT
from tests.node import run_node

# What shell.js meets at load in a page, as little as it needs.
BROWSER = """
const noop = () => {};
globalThis.window = globalThis;
const listeners = {}, clicked = [];
globalThis.document = {
  addEventListener: (type, listener) => (listeners[type] ||= []).push(listener),
  querySelector: () => null, querySelectorAll: () => [],
  getElementById: (id) => ({click: () => clicked.push(id)}),
  documentElement: {lang: "de"}, createElement: () => ({style: {}}), head: {appendChild: noop},
};
globalThis.location = {pathname: "/chats/5"};
globalThis.addEventListener = noop;
globalThis.history = {pushState: noop, replaceState: noop};
globalThis.localStorage = globalThis.sessionStorage = {
  getItem: (key) => (key === "token" ? "tab-token" : null), setItem: noop, removeItem: noop,
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
    assert in_browser(program.replace("{capped,", "{taken: clicked.length, capped,")) == {
        "taken": 2,  # the state takes them in every 60: at 60 and at 120
        "capped": 120,  # the newest: 110 to 229
        "pruned": 78,  # 152 to 229: 110 to 149 fell out of the window
        "other": 0,  # chat 5's went when chat 6 opened
    }


# A composer on /chats/5 with Bob (7) as its partner, and the page's fetch answering `answer`
# (a Response's fields, or null for a network failure); `submit()` is the member pressing Send.
COMPOSER = """
globalThis.HTMLFormElement = class {};
const form = Object.assign(new HTMLFormElement(), {
  dataset: {}, submitted: 0,
  attributes: {"data-chat-composer": "", "data-send-chat": "5", "data-send-to": "7"},
  hasAttribute(name) { return name in this.attributes; }, querySelector: () => null,
  getAttribute(name) { return this.attributes[name] ?? null; },
  elements: {text: {value: "Hallo Bob"}, client_id: {value: "first-id-0001"}},
  requestSubmit() { this.submitted += 1; submit(); },
});
const posted = [];
globalThis.fetch = (url, init) => {
  posted.push([url, JSON.parse(init.body)]);
  return answer ? Promise.resolve(answer) : Promise.reject(new TypeError("offline"));
};
const passed = [];
function submit() {
  const event = {target: form, stopped: false, prevented: false,
    preventDefault() { this.prevented = true; }, stopPropagation() { this.stopped = true; }};
  listeners.submit.forEach((listener) => listener(event));
  if (!event.prevented) passed.push(form.elements.client_id.value);  // React's handler: the state
}
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
"""


def sent_over_http(answer: str, program: str) -> object:
    return in_browser(f"const answer = {answer};" + COMPOSER + program)


def test_a_text_sent_over_http_is_shown_from_the_answer() -> None:
    mine = {**bubble(20, "Hallo Bob"), "mine": True}
    answer = f"{{ok: true, json: async () => ({{conversation: 5, message: {json.dumps(mine)}}})}}"
    program = (
        "submit(); submit();"  # pressed twice: one post
        "settled().then(() => console.log(JSON.stringify({"
        " posted, passed, text: form.elements.text.value,"
        " renewed: form.elements.client_id.value !== 'first-id-0001',"
        " shown: siteChatShown([{id: 1}], 5, false).map((m) => m.body)})));"
    )
    post = {
        "conversation": 5, "to": 7, "client_id": "first-id-0001",
        "text": "Hallo Bob", "tab": "tab-token", "language": "de",
    }  # fmt: skip
    assert sent_over_http(answer, program) == {
        "posted": [["/api/chat.php", post]],
        "passed": [],  # the tab's state was not asked
        "text": "",
        "renewed": True,
        "shown": [None, "Hallo Bob"],
    }


def test_a_text_the_server_did_not_store_goes_through_the_state_with_its_client_id() -> None:
    program = (
        "submit();"
        "settled().then(() => console.log(JSON.stringify({"
        " passed, submitted: form.submitted, text: form.elements.text.value})));"
    )
    for answer in ("{ok: false, json: async () => ({error: 'refused'})}", "null"):
        assert sent_over_http(answer, program) == {
            "passed": ["first-id-0001"],  # the same id: stored and charged once
            "submitted": 1,
            "text": "Hallo Bob",  # the draft stays until the state confirms it
        }


def test_a_text_written_on_while_sending_stays_with_a_new_client_id() -> None:
    mine = {**bubble(20, "Hallo Bob"), "mine": True}
    answer = f"{{ok: true, json: async () => ({{conversation: 5, message: {json.dumps(mine)}}})}}"
    program = (
        "submit(); form.elements.text.value = 'Hallo Bob, wie';"
        "settled().then(() => console.log(JSON.stringify({"
        " text: form.elements.text.value,"
        " renewed: form.elements.client_id.value !== 'first-id-0001'})));"
    )
    assert sent_over_http(answer, program) == {"text": "Hallo Bob, wie", "renewed": True}


def test_a_post_that_hangs_is_given_up_and_sent_through_the_state() -> None:
    hanging = (
        "globalThis.fetch = (url, init) => (posted.push(url), new Promise((_, reject) =>"
        " init.signal.addEventListener('abort', () => reject(new Error('aborted')))));"
        "const timers = []; globalThis.setTimeout = (run, ms) => timers.push([ms, run]);"
    )
    program = (
        hanging
        + "submit(); submit();"  # waits: one post
        + "const waiting = passed.length;"
        + "timers.filter(([ms]) => ms === 10000).forEach(([, run]) => run());"
        + "new Promise((resolve) => setImmediate(resolve)).then(() => console.log(JSON.stringify({"
        " posted: posted.length, waiting, passed})));"
    )
    assert sent_over_http("null", program) == {
        "posted": 1,
        "waiting": 0,
        "passed": ["first-id-0001"],  # after 10 s, through the state with the same client id
    }


def test_a_chat_known_only_by_its_member_sends_through_the_state() -> None:
    program = (
        "location.pathname = '/members/7/chat'; submit();"
        "console.log(JSON.stringify({posted: posted.length, passed}));"
    )
    assert sent_over_http("null", program) == {"posted": 0, "passed": ["first-id-0001"]}
