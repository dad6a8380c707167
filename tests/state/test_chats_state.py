"""The chat screens' state: opening chats by address, sending (charged once, refused with a
translated reason), what the other member's tab receives live (and a tab whose session ended
does not), typing, removal; every id the browser sends checked against the member asking; the
statements a page load, a send and a receiving tab cost."""

import json
import logging
import uuid
from collections.abc import Callable
from contextlib import asynccontextmanager, nullcontext
from types import SimpleNamespace

import httpx
import pytest
import reflex as rx
from sqlmodel import Session, select
from starlette.applications import Starlette
from starlette.routing import Route

import actions.chat
import actions.viewer
import app.chat_api
import state.chats
import state.live
from actions.effects import settle
from actions.viewer import token_key
from app.event_rate import KeyedBuckets
from models.auth_session import end_session, start_session
from models.chat import ChatSide, Message, Outgoing, send_message
from models.credits import grant_credits, ledger_sum
from models.member import Member, utcnow
from services.loop_database import on_this_loop, serve_on_loop
from services.site_settings import current_settings
from services.tab_registry import MemoryTabRegistry
from state.chats import CREDITS, ChatsState
from state.i18n import I18nState
from state.live import register_tab, run_on_tab
from state.session import SessionState, balance_delta, current_viewer
from state.shell import ShellState
from tests.factories import block_member, committed, make_member
from tests.outages import database_refused
from tests.queries import statements
from tests.state.conftest import redirects, run, scripts, substate


class Pushes(list):
    """What the effect handlers pushed to members' tabs: (member id, update, except token)."""

    def to(self, member_id: int) -> list[Callable]:
        return [update for member, update, _token in self if member == member_id]


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> Pushes:
    found = Pushes()

    async def push(member_id: int, update: Callable, except_token: str = "") -> None:
        found.append((member_id, update, except_token))

    async def push_each(update: Callable, *members: tuple[int, str], lean=None, reply=None) -> None:
        for member_id, except_token in members:  # every tab the full way, as if none registered
            await push(member_id, update, except_token)

    monkeypatch.setattr(state.chats, "push_to_member", push)
    monkeypatch.setattr(state.chats, "push_to_members", push_each)
    return found


async def delivered(pushes: Pushes, who: Member, chats: ChatsState) -> None:
    """The effects of what was sent reach this tab of `who`, as the live push runs them."""
    await settle()
    for update in pushes.to(who.id):
        await run_on_tab(chats.parent_state, who.id, update)


def member(db: Session, email: str, credits: int = 100, **fields) -> Member:
    found = make_member(db, email, **fields)
    if credits:
        grant_credits(db, found, credits, "test")
        db.commit()
    return found


def new_id() -> str:
    return str(uuid.uuid4())  # as the browser's crypto.randomUUID()


async def tab(
    make_root, db: Session, who: Member, url: str, locale: str = "en", **token: str
) -> rx.State:
    session = committed(db, start_session, who.id)
    root = make_root(url=url, cookie=f"auth.session={session}", **token)
    await substate(root, SessionState)._load()
    substate(root, I18nState).locale = locale
    return root


async def opened(
    make_root, db: Session, who: Member, url: str, locale: str = "en", **token: str
) -> ChatsState:
    root = await tab(make_root, db, who, url, locale, **token)
    chats = substate(root, ChatsState)
    await run(chats.open_page())
    return chats


async def send(chats: ChatsState, text: str, client_id: str | None = None) -> list:
    return await run(chats.send_text({"text": text, "client_id": client_id or new_id()}))


def fresh(db: Session) -> Session:
    """The test's session, showing what the handlers' own sessions committed."""
    db.rollback()
    db.expire_all()
    return db


def stored(db: Session) -> list[Message]:
    return list(fresh(db).exec(select(Message).order_by(Message.id)))


@pytest.fixture
def pair(db: Session) -> tuple[Member, Member]:
    return member(db, "anna@example.com"), member(db, "bob@example.com")


async def test_a_new_chat_offers_icebreakers_and_the_first_message_starts_it(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    assert chats.partner["name"] == "Bob" and chats.conversation_id == 0
    assert chats.icebreakers_open and chats.messages == []
    assert chats.message_price == "€0.50"  # minimum_message_costs of her country, NL

    events = await send(chats, "  Hello Bob  ")

    [message] = stored(db)
    assert (message.body, message.sender_id) == ("Hello Bob", anna.id)
    assert chats.conversation_id == message.conversation_id
    assert [m["body"] for m in chats.messages] == ["Hello Bob"] and chats.messages[0]["mine"]
    assert chats.chats[0]["text"] == "Hello Bob" and chats.error == ""
    assert scripts(events) == ["window.siteChat && window.siteChat.sent()"]  # the draft empties
    session = await chats.get_state(SessionState)
    assert session.credits == 100 - current_settings().message_credits
    await settle()
    assert len(pushes.to(bob.id)) == 1
    assert [token for m, _u, token in pushes if m == anna.id] == ["test-client-token"]


async def test_the_recipient_tab_gets_the_message_badge_and_list_live(make_root, db, pair, pushes):
    anna, bob = pair
    bob_list = await opened(make_root, db, bob, "/chats")
    assert bob_list.chats == []
    await send(await opened(make_root, db, anna, f"/members/{bob.id}/chat"), "Hi!")

    await delivered(pushes, bob, bob_list)

    assert [(c["name"], c["unread"], c["text"]) for c in bob_list.chats] == [("Anna", 1, "Hi!")]
    assert (await bob_list.get_state(SessionState)).unread_messages == 1


async def test_opening_a_chat_clears_its_unread_count(make_root, db, pair, pushes):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "One")
    await send(writer, "Two")

    chats = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")

    assert [m["body"] for m in chats.messages] == ["One", "Two"]
    assert not any(m["mine"] for m in chats.messages)
    assert (await chats.get_state(SessionState)).unread_messages == 0
    assert chats.chats[0]["unread"] == 0
    assert fresh(db).get(ChatSide, (writer.conversation_id, bob.id)).unread == 0


async def test_an_open_chat_shows_the_arriving_message_already_read(make_root, db, pair, pushes):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "First")
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    reader.partner_typing = True
    pushes.clear()

    await send(writer, "Second")
    await delivered(pushes, bob, reader)

    assert [m["body"] for m in reader.messages] == ["First", "Second"]
    assert not reader.partner_typing
    assert (await reader.get_state(SessionState)).unread_messages == 0


async def test_sending_the_same_draft_twice_stores_and_charges_it_once(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    draft_id = new_id()

    await send(chats, "Only once", draft_id)
    await send(chats, "Only once", draft_id)

    assert len(stored(db)) == 1
    assert fresh(db).get(Member, anna.id).credits == 100 - current_settings().message_credits
    assert [m["body"] for m in chats.messages] == ["Only once"]


async def test_short_of_credits_the_member_is_told_in_their_language(make_root, db, pushes):
    anna, bob = member(db, "anna@example.com", credits=0), member(db, "bob@example.com")
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat", locale="nl")

    await send(chats, "Hallo")

    assert chats.error == "Je hebt onvoldoende credits" and chats.error_kind == CREDITS
    assert chats.message_price == "€\xa00,50"
    assert stored(db) == []
    await settle()
    assert pushes == []


async def test_a_free_member_past_two_chats_gets_the_premium_alert(make_root, db, pushes):
    anna = member(db, "anna@example.com")
    others = [member(db, f"m{i}@example.com") for i in range(3)]
    for other in others[:2]:
        await send(await opened(make_root, db, anna, f"/members/{other.id}/chat"), "Hi")

    chats = await opened(make_root, db, anna, f"/members/{others[2].id}/chat")
    await send(chats, "Hi")

    assert "Premium" in chats.premium_alert and chats.error == ""
    assert len(stored(db)) == 2


async def gift(chats: ChatsState, key: str, client_id: str | None = None) -> list:
    """What the gift picker's form sends: the gift and the id the browser keeps for it."""
    return await run(chats.send_gift({"gift": key, "client_id": client_id or new_id()}))


async def test_a_gift_is_a_message_charged_at_the_gift_price_once(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat?gift=1")
    assert chats.gifts_open and not chats.icebreakers_open
    gift_id = new_id()  # minted by the browser, kept with the page until the server confirms

    events = await gift(chats, "rose", gift_id)
    await gift(chats, "rose", gift_id)  # a double click

    [message] = stored(db)
    assert (message.kind, message.gift, message.client_id) == ("gift", "rose", gift_id)
    assert chats.messages[0]["picture"] == "/gifts/rose.svg" and not chats.gifts_open
    left = 80  # 100 less a gift of 20 credits (the seeded gift_credits)
    assert ledger_sum(db, anna.id) == fresh(db).get(Member, anna.id).credits == left
    assert scripts(events) == ["window.siteChat && window.siteChat.giftSent()"]  # a new id next


async def test_a_gift_retried_after_the_tab_state_was_lost_is_sent_once(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat?gift=1")
    gift_id = new_id()
    await gift(chats, "heart", gift_id)

    lost = substate(
        make_root(url=chats.router.url.path, cookie=chats.router.headers.cookie), ChatsState
    )
    await gift(lost, "heart", gift_id)  # the browser's retry: the id it kept

    assert [m["gift"] for m in lost.messages] == ["heart"] and len(stored(db)) == 1
    assert ledger_sum(db, anna.id) == 80


async def test_a_gift_needs_the_browser_ids_shape(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat?gift=1")

    await run(chats.send_gift({"gift": "rose", "client_id": "../x"}))
    await run(chats.send_gift({"gift": "rose"}))

    assert stored(db) == [] and chats.error == "Something went wrong, please try again later."


async def test_unknown_gifts_and_empty_texts_are_refused_without_charge(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")

    await gift(chats, "diamond-car")
    assert chats.error == "Choose a gift."
    await send(chats, "   ")
    assert chats.error == "Write a message first."
    await send(chats, "x" * (current_settings().message_length + 1))
    assert "at most" in chats.error
    assert stored(db) == [] and fresh(db).get(Member, anna.id).credits == 100


async def test_someone_elses_conversation_is_not_found(make_root, db, pair, pushes):
    anna, bob = pair
    carol = member(db, "carol@example.com")
    sent = send_message(db, Outgoing(anna.id, bob.id, "a" * 12, text="Private"), current_settings())

    chats = await opened(make_root, db, carol, f"/chats/{sent.message.conversation_id}")

    assert chats.not_found and chats.messages == [] and chats.partner == {}
    await send(chats, "Intrusion")
    assert len(stored(db)) == 1


async def test_a_blocked_member_cannot_be_written_to(make_root, db, pair, pushes):
    anna, bob = pair
    block_member(db, bob.id, anna.id)

    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")

    assert chats.not_found and not chats.chat_open


async def test_removing_a_chat_drops_it_at_once_and_on_the_server(make_root, db, pair, pushes):
    anna, bob = pair
    await send(await opened(make_root, db, anna, f"/members/{bob.id}/chat"), "Bye")
    chats = await opened(make_root, db, anna, "/chats")
    [card] = chats.chats

    events = await run(chats.remove(card["id"]))

    assert chats.chats == []  # and what arrived in it live is not shown again:
    assert scripts(events) == [f"window.siteChat && window.siteChat.forget({card['id']})"]
    assert fresh(db).get(ChatSide, (card["id"], anna.id)).removed


async def test_a_failed_removal_alerts_and_reloads_the_list(make_root, db, pair, pushes):
    anna, _bob = pair
    chats = await opened(make_root, db, anna, "/chats")

    events = await run(chats.remove(123456))

    assert any("alert" in str(event) for event in events)
    assert any("open_page" in str(event) for event in events)


async def test_typing_shows_on_the_other_side_and_goes_away(
    make_root, db, pair, pushes, monkeypatch
):
    anna, bob = pair
    later = []
    monkeypatch.setattr(state.chats, "push_later", lambda *args: later.append(args))
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "Hi")
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    await settle()
    pushes.clear()

    await run(writer.typing())
    await run(writer.typing())  # within 3 s: told once
    await settle()
    [shown] = pushes.to(bob.id)
    await run_on_tab(reader.parent_state, bob.id, shown)

    assert reader.partner_typing
    [(seconds, member_id, token, clear)] = later
    assert (member_id, token) == (bob.id, "test-client-token") and seconds > 6
    reader._typing_until = 0  # the seconds have passed
    await run_on_tab(reader.parent_state, bob.id, clear)
    assert not reader.partner_typing


async def test_logged_out_tabs_get_nothing_and_are_sent_to_log_in(make_root, db, pair, pushes):
    _anna, bob = pair
    root = make_root(url=f"/members/{bob.id}/chat")
    chats = substate(root, ChatsState)
    await run(chats.open_page())
    assert chats.chats == [] and not chats.chat_open

    chats.partner = {"id": bob.id}
    events = await send(chats, "Hi")

    assert redirects(events) == ["/login"] and stored(db) == []
    assert scripts(events) == []


async def test_a_tab_that_left_the_chat_leaves_the_message_unread(make_root, db, pair, pushes):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "First")
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    cookie = reader.router.headers.cookie
    reader.parent_state.router = make_root(url="/members", cookie=cookie).router  # searching
    pushes.clear()

    await send(writer, "Second")
    await delivered(pushes, bob, reader)

    assert [m["body"] for m in reader.messages] == ["First"]
    assert (await reader.get_state(SessionState)).unread_messages == 1


async def test_a_lost_tab_state_rebuilds_and_the_retry_is_stored_once(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    client_id = new_id()  # minted by the browser, kept with its draft
    await send(chats, "Sent before the restart", client_id)

    lost = substate(
        make_root(url=f"/members/{bob.id}/chat", cookie=chats.router.headers.cookie), ChatsState
    )
    events = await send(lost, "Sent before the restart", client_id)  # the browser's retry

    assert redirects(events) == [] and lost.chat_open and lost.partner["id"] == bob.id
    assert [m["body"] for m in lost.messages] == ["Sent before the restart"]
    assert (
        len(stored(db)) == 1 and ledger_sum(db, anna.id) == 100 - current_settings().message_credits
    )


async def test_a_new_message_from_a_lost_tab_state_is_stored_whole(make_root, db, pair, pushes):
    """After a restart the tab's state knows no settings yet: the text must not be cut."""
    anna, bob = pair
    cookie = (await opened(make_root, db, anna, f"/members/{bob.id}/chat")).router.headers.cookie
    lost = substate(make_root(url=f"/members/{bob.id}/chat", cookie=cookie), ChatsState)

    await send(lost, "A whole sentence, typed while the server restarted.", new_id())

    assert [m.body for m in stored(db)] == ["A whole sentence, typed while the server restarted."]


@pytest.mark.parametrize("client_id", ["", "short", "x" * 65, "../../etc", None, ["a" * 12]])
async def test_a_client_id_must_have_the_browser_ids_shape(make_root, db, pair, pushes, client_id):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")

    await run(chats.send_text({"text": "Hi", "client_id": client_id}))

    assert stored(db) == [] and chats.error == "Something went wrong, please try again later."


def database_down(*_args) -> None:
    raise database_refused()


@pytest.mark.parametrize(
    "where",
    [
        (actions.chat, "send_message"),  # storing the message
        (actions.viewer, "autocommit_connection"),  # the viewer check, the send's first step
    ],
)
async def test_a_send_while_the_database_is_away_says_not_sent_and_keeps_the_draft(
    make_root, db, pair, pushes, monkeypatch, caplog, where
):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat", locale="de")

    monkeypatch.setattr(*where, database_down)
    with caplog.at_level(logging.INFO):
        events = await send(chats, "Hallo")

    assert chats.error == "Deine Nachricht wurde nicht gesendet. Bitte versuche es noch einmal."
    assert scripts(events) == []  # the browser keeps the draft and its client id
    assert [(r.levelname, r.exc_info) for r in caplog.records] == [("ERROR", None)]
    assert "database unreachable" in caplog.text  # one line, no traceback


async def test_a_tab_whose_session_ended_receives_nothing(make_root, db, pair, pushes):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "First")
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    # a password change elsewhere
    committed(db, end_session, reader.router.headers.cookie.split("=", 1)[1])

    await send(writer, "Private")
    await delivered(pushes, bob, reader)

    assert [m["body"] for m in reader.messages] == ["First"]
    assert (await reader.get_state(SessionState)).unread_messages == 0


async def test_catch_up_fetches_everything_after_the_last_message_shown(make_root, db, pushes):
    anna, bob = member(db, "anna@example.com", 1000), member(db, "bob@example.com")
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "Before")
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    for i in range(45):  # more than a page arrives while the tab hears nothing
        await send(writer, f"m{i}")
    await settle()
    pushes.clear()

    await send(writer, "Last")
    await delivered(pushes, bob, reader)

    assert [m["body"] for m in reader.messages] == ["Before", *(f"m{i}" for i in range(45)), "Last"]


def write_to(db: Session, sender: Member, recipient: Member, count: int) -> int:
    for i in range(count):
        sent = send_message(
            db, Outgoing(sender.id, recipient.id, new_id(), text=f"m{i}"), current_settings()
        )
    return sent.message.conversation_id


def bodies(chats: ChatsState) -> list[str]:
    return [message["body"] for message in chats.messages]


async def read_back(chats: ChatsState, times: int) -> None:
    for _ in range(times):
        await run(chats.load_earlier())


async def test_reading_back_keeps_120_messages_and_newer_ones_bring_back_the_newest(
    make_root, db, pushes, one_event
):
    anna, bob = member(db, "anna@example.com"), member(db, "bob@example.com", credits=1000)
    chats = await opened(make_root, db, anna, f"/chats/{write_to(db, bob, anna, 150)}")
    assert bodies(chats) == [f"m{i}" for i in range(120, 150)] and not chats.more_after

    await read_back(chats, 3)
    assert bodies(chats) == [f"m{i}" for i in range(30, 150)] and not chats.more_after
    await read_back(chats, 1)  # past the window: the newest leave it

    assert bodies(chats) == [f"m{i}" for i in range(120)]
    assert not chats.more_before and chats.more_after

    one_event()
    with statements() as seen:
        await run(chats.load_latest())

    assert bodies(chats) == [f"m{i}" for i in range(120, 150)]
    assert chats.more_before and not chats.more_after
    assert len(seen) == 4  # the viewer, the page, reading it, the frame's counts


async def test_live_arrivals_push_the_oldest_out_of_the_window(make_root, db, pushes):
    anna, bob = member(db, "anna@example.com"), member(db, "bob@example.com", credits=1000)
    reader = await opened(make_root, db, anna, f"/chats/{write_to(db, bob, anna, 120)}")
    await read_back(reader, 3)
    assert len(reader.messages) == 120 and not reader.more_before
    writer = await opened(make_root, db, bob, f"/members/{anna.id}/chat")

    await send(writer, "New")
    await delivered(pushes, anna, reader)

    assert bodies(reader) == [*(f"m{i}" for i in range(1, 120)), "New"]
    assert reader.more_before and not reader.more_after


async def test_what_arrives_while_reading_back_waits_unread_behind_newer_messages(
    make_root, db, pushes
):
    anna, bob = member(db, "anna@example.com"), member(db, "bob@example.com", credits=1000)
    reader = await opened(make_root, db, anna, f"/chats/{write_to(db, bob, anna, 150)}")
    await read_back(reader, 4)
    writer = await opened(make_root, db, bob, f"/members/{anna.id}/chat")
    session = await reader.get_state(SessionState)

    await send(writer, "While you read")
    await delivered(pushes, anna, reader)

    assert bodies(reader) == [f"m{i}" for i in range(120)]  # her place is kept
    assert reader.chats[0]["text"] == "While you read" and reader.chats[0]["unread"] == 1
    assert session.unread_messages == 1

    await run(reader.load_latest())

    assert bodies(reader)[-2:] == ["m149", "While you read"] and not reader.more_after
    assert reader.chats[0]["unread"] == 0 and session.unread_messages == 0


async def test_a_message_sent_while_reading_back_brings_back_the_newest(make_root, db, pushes):
    anna, bob = member(db, "anna@example.com"), member(db, "bob@example.com", credits=1000)
    chats = await opened(make_root, db, anna, f"/chats/{write_to(db, bob, anna, 150)}")
    await read_back(chats, 4)

    events = await send(chats, "Back to now")
    assert any("load_latest" in str(event) for event in events)
    await run(chats.load_latest())

    assert bodies(chats)[-2:] == ["m149", "Back to now"] and not chats.more_after


async def test_statements_of_a_page_load_do_not_grow_with_what_is_shown(make_root, db, one_event):
    anna = member(db, "anna@example.com")
    counts = []
    for size in (2, 40):  # messages in the chat; a tenth as many other chats in the list
        other = member(db, f"m{size}@example.com", credits=1000)
        conversation_id = write_to(db, other, anna, size)
        for i in range(size // 10):
            write_to(db, member(db, f"c{size}-{i}@example.com"), anna, 1)
        cookie = f"auth.session={committed(db, start_session, anna.id)}"
        root = make_root(url=f"/chats/{conversation_id}", cookie=cookie)
        current_settings()  # the site settings are cached per worker
        with statements() as seen:
            one_event()
            await run(substate(root, ShellState).on_page_load(True))
            one_event()
            await run(substate(root, ChatsState).open_page())
        chats = substate(root, ChatsState)
        assert len(chats.messages) == min(size, 30) and len(chats.chats) > size // 10
        counts.append(len(seen))
    assert counts == [6, 6]  # the frame's 1 (shell) and the chat's 5


async def test_statements_of_a_send_and_of_each_receiving_tab(
    make_root, db, pair, pushes, one_event
):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    one_event()
    with statements() as starting:
        await send(writer, "First")  # a free member's first: her chat starts counted too
    # the viewer check, then the sender's lock with the recipient's query, the recipient's
    # query again under the lock (a first message) and the booking: one statement on
    # PostgreSQL, five on SQLite (models/chat._booking)
    per_send = 4 if db.get_bind().dialect.name == "postgresql" else 8
    assert len(starting) == per_send
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    listing = await opened(make_root, db, bob, "/chats")
    elsewhere = await tab(make_root, db, bob, "/members")
    await settle()
    pushes.clear()

    one_event()
    with statements() as sending:
        await send(writer, "Second")
    # a reply asks for the recipient once, and for what came after the tab's last message
    assert len(sending) == per_send
    await settle()
    [update] = pushes.to(bob.id)
    receiving = []
    for root in (listing.parent_state, elsewhere, reader.parent_state):  # reader reads last
        with statements() as seen:
            assert await run_on_tab(root, bob.id, update)
        receiving.append(len(seen))
    assert receiving == [3, 2, 4]  # the list, another page, the open chat (read at once)
    assert [m["body"] for m in reader.messages] == ["First", "Second"]
    assert listing.chats[0]["text"] == "Second" and listing.chats[0]["unread"] == 1


async def test_removing_a_chat_by_a_garbled_id_alerts_and_reloads(make_root, db, pair, pushes):
    anna, _bob = pair
    chats = await opened(make_root, db, anna, "/chats")

    events = await run(chats.remove("1; drop table chatside"))

    assert any("alert" in str(event) for event in events)


async def test_a_message_a_moderator_removed_reaches_no_tab_with_its_body(
    make_root, db, pair, pushes
):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "Something nasty")
    [message] = stored(db)
    message.removed_at = utcnow()
    db.add(message)
    db.commit()

    for who in (anna, bob):
        chats = await opened(make_root, db, who, f"/chats/{writer.conversation_id}")
        assert [(m["removed"], m["body"]) for m in chats.messages] == [(True, "")]
        assert (chats.chats[0]["removed"], chats.chats[0]["text"]) == (True, "")


class _LiveApp:
    """The serving app as state/live.py meets it: every tab connected; what reached a socket
    straight (`emit_update`) and which tabs' states were updated (`modify_state`)."""

    def __init__(self, roots: dict[str, rx.State]) -> None:
        self.roots, self.emitted, self.modified = roots, [], []
        self.closed: set[str] = set()  # tabs whose socket closed

        async def connected(token: str) -> bool:
            return token not in self.closed

        async def emit_update(update, token: str) -> None:
            self.emitted.append((token, update))

        self.event_namespace = SimpleNamespace(
            _token_manager=SimpleNamespace(is_token_connected=connected), emit_update=emit_update
        )

    @asynccontextmanager
    async def modify_state(self, token):
        self.modified.append(token.ident)
        yield self.roots[token.ident]


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch) -> Callable[..., _LiveApp]:
    """Live delivery for real, to the registered tabs, through an app of their own."""
    registry = MemoryTabRegistry()
    monkeypatch.setattr(state.live, "tab_registry", lambda: registry)

    def serve(*roots: rx.State) -> _LiveApp:
        app = _LiveApp({root.router.session.client_token: root for root in roots})
        monkeypatch.setattr(state.live, "serving_app", lambda: app)
        return app

    return serve


async def reading(make_root, db: Session, pair: tuple[Member, Member]) -> tuple:
    """Anna wrote "First"; Bob's tab shows the chat, registered as its page load does."""
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "First")
    await settle()
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    await register_tab(reader.parent_state, bob.id)
    return writer, reader


def unread(db: Session, conversation_id: int, who: Member) -> int:
    return fresh(db).get(ChatSide, (conversation_id, who.id)).unread


async def test_a_tab_showing_the_chat_gets_the_message_lean_and_read(make_root, db, pair, live):
    writer, reader = await reading(make_root, db, pair)
    app = live(reader.parent_state)
    reader.partner_typing = True

    await send(writer, "Second")
    with statements() as delivering:
        await settle()

    # beside the notice job's: the tab's session and the read mark (one statement on
    # PostgreSQL), no catch-up read
    delivery = [line for line in delivering if "authsession" in line or "chatside" in line]
    one = db.get_bind().dialect.name == "postgresql"
    assert [line.split()[0] for line in delivery] == (["WITH"] if one else ["SELECT", "UPDATE"])
    assert not any("FROM message" in line for line in delivering)
    assert app.modified == []  # the tab's state was not loaded, nor locked
    [(token, update)] = app.emitted
    assert token == reader.router.session.client_token
    assert update.delta == {ChatsState.get_full_name(): {"partner_typing_rx_state_": False}}
    [event] = update.events
    script = event.payload["javascript_code"]
    prefix = f"window.siteChat && window.siteChat.arrived({writer.conversation_id}, "
    assert script.startswith(prefix)
    bubble = json.loads(script.removeprefix(prefix).removesuffix(")"))
    assert (bubble["body"], bubble["mine"], bubble["id"]) == ("Second", False, stored(db)[-1].id)
    assert unread(db, writer.conversation_id, pair[1]) == 0  # shown, so read
    # the tab's state learns of it on its next catch-up, once, after "First"
    await reader._refresh(await current_viewer(reader))
    assert [m["body"] for m in reader.messages] == ["First", "Second"]


async def test_a_reply_brings_the_lean_arrivals_before_it_into_the_state(make_root, db, pair, live):
    writer, reader = await reading(make_root, db, pair)
    live(reader.parent_state)
    await send(writer, "Second")
    await settle()  # shown by shell.js only
    assert [m["body"] for m in reader.messages] == ["First"]

    await send(reader, "Reply")

    assert [m["body"] for m in reader.messages] == ["First", "Second", "Reply"]
    await reader._refresh(await current_viewer(reader))  # nothing twice
    assert [m["body"] for m in reader.messages] == ["First", "Second", "Reply"]


async def test_the_state_takes_in_what_arrived_lean_when_shell_js_asks(make_root, db, pair, live):
    writer, reader = await reading(make_root, db, pair)
    live(reader.parent_state)
    for text in ("Second", "Third"):
        await send(writer, text)
        await settle()  # shown by shell.js only
    assert [m["body"] for m in reader.messages] == ["First"]

    await run(reader.take_arrivals())

    assert [m["body"] for m in reader.messages] == ["First", "Second", "Third"]
    assert unread(db, writer.conversation_id, pair[1]) == 0


async def test_a_tab_whose_lean_check_failed_gets_the_full_update(
    make_root, db, pair, live, monkeypatch
):
    """The check and the read mark are one action: when it fails (the database away a
    moment), the tab's state catches up instead, which reads the message."""
    writer, reader = await reading(make_root, db, pair)
    app = live(reader.parent_state)
    monkeypatch.setattr(actions.chat, "arrived_for", database_down)

    await send(writer, "Second")
    await settle()

    assert app.emitted == [] and app.modified == [reader.router.session.client_token]
    assert [m["body"] for m in reader.messages] == ["First", "Second"]
    assert unread(db, writer.conversation_id, pair[1]) == 0


async def test_a_lean_tab_whose_socket_closed_gets_nothing_and_it_stays_unread(
    make_root, db, pair, live
):
    writer, reader = await reading(make_root, db, pair)
    app = live(reader.parent_state)
    app.closed.add(reader.router.session.client_token)  # still registered, its socket gone

    await send(writer, "Unseen")
    await settle()

    assert (app.emitted, app.modified) == ([], [])
    assert unread(db, writer.conversation_id, pair[1]) == 1


async def test_a_lean_tab_whose_session_ended_gets_nothing_and_it_stays_unread(
    make_root, db, pair, live
):
    writer, reader = await reading(make_root, db, pair)
    app = live(reader.parent_state)
    committed(db, end_session, reader.router.headers.cookie.split("=", 1)[1])

    await send(writer, "Private")
    await settle()

    assert (app.emitted, app.modified) == ([], [])
    assert unread(db, writer.conversation_id, pair[1]) == 1


async def test_a_tab_reading_back_gets_the_full_update_and_it_stays_unread(
    make_root, db, pair, live
):
    writer, reader = await reading(make_root, db, pair)
    app = live(reader.parent_state)
    reader.more_after = True  # read back past the window, as load_earlier registers it
    await register_tab(reader.parent_state, pair[1].id, reader._showing())

    await send(writer, "Later")
    await settle()

    assert app.emitted == [] and app.modified == [reader.router.session.client_token]
    assert [m["body"] for m in reader.messages] == ["First"]
    assert unread(db, writer.conversation_id, pair[1]) == 1
    assert (await reader.get_state(SessionState)).unread_messages == 1


async def test_a_flagged_message_reaches_a_tab_showing_the_chat_the_full_way(
    make_root, db, pair, live
):
    writer, reader = await reading(make_root, db, pair)
    app = live(reader.parent_state)

    await send(writer, "You stupid bitch")  # the filter asks "Are you sure?"
    await run(writer.send_anyway())
    await settle()

    assert app.emitted == [] and app.modified == [reader.router.session.client_token]
    assert [(m["body"], m["flagged"]) for m in reader.messages][-1] == ("You stupid bitch", True)
    await run(reader.show_flagged(reader.messages[-1]["id"]))  # "Show" finds it in the state
    assert not reader.messages[-1]["flagged"]


# ----- a text sent outside the tab's state (app/chat_api.py send_text, assets/shell.js) -----


SESSION = SessionState.get_full_name()


@pytest.fixture(autouse=True)
def send_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's members start with full buckets (ids repeat from one database to the next)."""
    fresh = KeyedBuckets(app.chat_api.SEND_RATE, app.chat_api.SEND_BURST, 100)
    monkeypatch.setattr(app.chat_api, "SENDS", fresh)


def http_sender(chats: ChatsState) -> httpx.AsyncClient:
    """The chat page's fetch: the tab's cookies, JSON, in this test's event loop."""
    routes = [Route("/api/chat.php", app.chat_api.send_text, methods=["POST"])]
    transport = httpx.ASGITransport(app=Starlette(routes=routes))
    headers = {"cookie": chats.router.headers.cookie}
    return httpx.AsyncClient(transport=transport, base_url="https://testserver", headers=headers)


async def post_text(chats: ChatsState, partner: Member, text: str, /, **fields: object):
    body = {
        "conversation": chats.conversation_id,
        "to": partner.id,
        "client_id": new_id(),
        "text": text,
        "tab": chats.router.session.client_token,
        "language": "en",
    }
    async with http_sender(chats) as client:
        return await client.post("/api/chat.php", json=body | fields)


async def sending_over_http(make_root, db: Session, pair: tuple[Member, Member]) -> tuple:
    """Bob's tab shows the chat Anna started (`reading`); Anna's tab shows it too, registered."""
    _writer, reader = await reading(make_root, db, pair)
    url = f"/chats/{reader.conversation_id}"
    sender = await opened(make_root, db, pair[0], url, token="sending-tab")
    await register_tab(sender.parent_state, pair[0].id)
    return sender, reader


def balance(db: Session, who: Member) -> int:
    return fresh(db).get(Member, who.id).credits


async def test_a_text_sent_over_http_reaches_both_tabs_without_their_states(
    make_root, db, pair, live
):
    anna, bob = pair
    sender, reader = await sending_over_http(make_root, db, pair)
    app = live(sender.parent_state, reader.parent_state)
    before = balance(db, anna)

    answer = await post_text(sender, bob, "Over HTTP")
    await settle()

    assert answer.status_code == 200
    sent = answer.json()
    assert (sent["message"]["body"], sent["message"]["mine"]) == ("Over HTTP", True)
    assert sent["conversation"] == sender.conversation_id
    assert sent["credits"] == balance(db, anna) == before - current_settings().message_credits
    assert app.modified == []  # neither tab's state was loaded, nor locked
    emitted = dict(app.emitted)
    arrival = emitted[reader.router.session.client_token].events[0].payload["javascript_code"]
    assert '"body": "Over HTTP"' in arrival and '"mine": false' in arrival
    shown = emitted[sender.router.session.client_token].delta[SESSION]
    assert shown["credits_rx_state_"] == sent["credits"]
    assert [m.body for m in stored(db)] == ["First", "Over HTTP"]
    assert unread(db, sender.conversation_id, bob) == 0  # Bob's tab shows it: read
    # the sender's state learns of it on its next refresh, once
    await sender._refresh(await current_viewer(sender))
    assert [m["body"] for m in sender.messages] == ["First", "Over HTTP"]


async def test_a_text_sent_twice_over_http_is_stored_and_charged_once(make_root, db, pair, live):
    anna, bob = pair
    sender, reader = await sending_over_http(make_root, db, pair)
    live(sender.parent_state, reader.parent_state)
    before, client_id = balance(db, anna), new_id()

    first = await post_text(sender, bob, "Once", client_id=client_id)
    again = await post_text(sender, bob, "Once", client_id=client_id)

    assert first.json()["message"]["id"] == again.json()["message"]["id"]
    assert [m.body for m in stored(db)] == ["First", "Once"]
    assert balance(db, anna) == before - current_settings().message_credits


async def test_a_tab_of_another_session_gets_no_balance(make_root, db, pair, live):
    """The tab named in the post must be held under the session that posted it."""
    _anna, bob = pair
    sender, reader = await sending_over_http(make_root, db, pair)
    app = live(sender.parent_state, reader.parent_state)

    answer = await post_text(sender, bob, "Hi", tab=reader.router.session.client_token)
    await settle()

    assert answer.status_code == 200
    assert [
        token for token, update in app.emitted if update.delta.get(SessionState.get_full_name())
    ] == []


async def test_what_the_state_must_handle_is_refused_over_http_and_nothing_is_stored(
    make_root, db, pair, live
):
    """A refusal, a flagged text or a malformed post: nothing stored or charged, and the page
    sends it through the tab's state, which says why."""
    anna, bob = pair
    sender, reader = await sending_over_http(make_root, db, pair)
    live(sender.parent_state, reader.parent_state)
    stranger = member(db, "carl@example.com")
    before = balance(db, anna)

    assert (await post_text(sender, stranger, "Elsewhere")).status_code == 409
    assert (await post_text(sender, bob, "You stupid bitch")).status_code == 409
    for malformed in (
        {"client_id": "x"},
        {"tab": None},
        {"to": str(bob.id)},
        {"conversation": True},
        {"text": 5},
    ):
        assert (await post_text(sender, bob, "Hi", **malformed)).status_code == 400
    async with http_sender(sender) as client:
        assert (await client.post("/api/chat.php", content=b"{}")).status_code == 400  # no JSON
        client.headers["cookie"] = ""
        assert (await client.post("/api/chat.php", json={})).status_code == 403

    assert [m.body for m in stored(db)] == ["First"]
    assert balance(db, anna) == before


async def test_a_text_over_http_without_credits_is_refused(make_root, db, live):
    poor, bob = member(db, "poor@example.com", credits=0), member(db, "bob@example.com")
    committed(
        db, lambda s: send_message(s, Outgoing(bob.id, poor.id, new_id(), "Hi"), current_settings())
    )
    chats = await opened(make_root, db, poor, f"/chats/{stored(db)[0].conversation_id}")
    live(chats.parent_state)

    assert (await post_text(chats, bob, "Free?")).status_code == 409
    assert [m.body for m in stored(db)] == ["Hi"]


async def test_a_member_posting_too_fast_sends_through_the_state(
    make_root, db, pair, live, monkeypatch
):
    _anna, bob = pair
    sender, reader = await sending_over_http(make_root, db, pair)
    live(sender.parent_state, reader.parent_state)
    monkeypatch.setattr(app.chat_api, "SENDS", KeyedBuckets(1.0, 2.0, 10, clock=lambda: 0.0))

    codes = [(await post_text(sender, bob, f"Hi {n}")).status_code for n in range(3)]

    assert codes == [200, 200, 429]


def test_the_balance_delta_holds_every_var_the_balance_changes() -> None:
    """What a tab's nav shows of its balance, sent without the state, is what the state would
    send: the balance and each computed var that reads it."""
    session = SessionState(_reflex_internal_init=True)
    readers = {name for _state, name in SessionState._var_dependencies["credits"]}
    for paid, credits in ((True, 0), (True, 10), (True, 11), (False, 3)):
        session.paid_user, session.credits = paid, credits
        shown = {f"{name}_rx_state_": getattr(session, name) for name in {"credits", *readers}}
        assert balance_delta(credits, paid)[SESSION] == shown


@pytest.mark.parametrize(
    ("whose", "status", "read"),
    [
        ("bob", "active", True),
        ("bob", "not_confirmed", True),  # signed in, as the viewer check allows
        ("bob", "banned", False),
        ("anna", "active", False),  # a session of another member
    ],
)
@pytest.mark.parametrize("on_loop", [False, True])
async def test_a_lean_arrival_is_read_only_for_the_signed_in_recipient(
    make_root, db, pair, pushes, whose, status, read, on_loop
) -> None:
    """actions.chat.arrived: the tab's viewer and the read mark in one go (one statement on
    PostgreSQL, from the serving loop's own pool there when it has one); nothing read for a
    session that is not the recipient's signed-in one."""
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "Hi")
    conversation_id = writer.conversation_id
    key = token_key(committed(db, start_session, {"anna": anna, "bob": bob}[whose].id))
    bob.status = status
    db.add(bob)
    db.commit()

    served_on_loop = on_loop and db.bind.dialect.name == "postgresql"
    async with serve_on_loop(wait=True) if on_loop else nullcontext():
        assert (on_this_loop() is not None) == served_on_loop
        with statements() as on_the_thread_path:
            viewer = await actions.chat.arrived(key, bob.id, conversation_id)
            nobody = await actions.chat.arrived("", bob.id, conversation_id)

    assert bool(on_the_thread_path) != served_on_loop

    assert (viewer is not None and viewer.member_id == bob.id) == read
    assert unread(db, conversation_id, bob) == (0 if read else 1)
    assert nobody is None
