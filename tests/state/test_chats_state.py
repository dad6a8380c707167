"""The chat screens' state: opening chats by address, sending (charged once, refused with a
translated reason), what the other member's tab receives live, typing, removal; every id the
browser sends checked against the member asking."""

from collections.abc import Callable

import pytest
import reflex as rx
from sqlmodel import Session, select

import state.chats
from models.auth_session import start_session
from models.blocks import block_member
from models.chat import ChatSide, Message, Outgoing, send_message
from models.credits import grant_credits, ledger_sum
from models.member import Member
from services.site_settings import current_settings
from state.chats import CREDITS, ChatsState
from state.i18n import I18nState
from state.session import SessionState
from tests.factories import make_member
from tests.state.conftest import redirects, run, scripts, substate


class Pushes(list):
    """What the handlers pushed to members' tabs: (member id, update, except token)."""

    def to(self, member_id: int) -> list[Callable]:
        return [update for member, update, _token in self if member == member_id]


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> Pushes:
    found = Pushes()
    monkeypatch.setattr(
        state.chats, "push_to_member", lambda m, update, token="": found.append((m, update, token))
    )
    return found


def member(db: Session, email: str, credits: int = 100, **fields) -> Member:
    found = make_member(db, email, **fields)
    if credits:
        grant_credits(db, found, credits, "test")
        db.commit()
    return found


def tab(make_root, db: Session, who: Member, url: str, locale: str = "en") -> rx.State:
    root = make_root(url=url, cookie=f"auth.session={start_session(db, who.id)}")
    substate(root, SessionState).load()
    substate(root, I18nState).locale = locale
    return root


async def opened(make_root, db: Session, who: Member, url: str, locale: str = "en") -> ChatsState:
    root = tab(make_root, db, who, url, locale)
    chats = substate(root, ChatsState)
    await run(chats.open_page())
    return chats


async def send(chats: ChatsState, text: str, client_id: str | None = None) -> list:
    form = {"text": text, "client_id": client_id or chats.draft_id}
    return await run(chats.send_text(form))


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
    assert chats.message_price == "€0.25"  # minimum_message_costs of her country, NL
    first_id = chats.draft_id

    await send(chats, "  Hello Bob  ")

    [message] = stored(db)
    assert (message.body, message.sender_id) == ("Hello Bob", anna.id)
    assert chats.conversation_id == message.conversation_id
    assert [m["body"] for m in chats.messages] == ["Hello Bob"] and chats.messages[0]["mine"]
    assert chats.draft == "" and chats.draft_id != first_id and chats.error == ""
    session = await chats.get_state(SessionState)
    assert session.credits == 100 - current_settings().message_credits
    assert len(pushes.to(bob.id)) == 1
    assert [token for m, _u, token in pushes if m == anna.id] == ["test-client-token"]


async def test_the_recipient_tab_gets_the_message_badge_and_list_live(make_root, db, pair, pushes):
    anna, bob = pair
    bob_list = await opened(make_root, db, bob, "/chats")
    assert bob_list.chats == []
    await send(await opened(make_root, db, anna, f"/members/{bob.id}/chat"), "Hi!")

    [update] = pushes.to(bob.id)
    await update(bob_list.parent_state)

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
    for update in pushes.to(bob.id):
        await update(reader.parent_state)

    assert [m["body"] for m in reader.messages] == ["First", "Second"]
    assert not reader.partner_typing
    assert (await reader.get_state(SessionState)).unread_messages == 0


async def test_sending_the_same_draft_twice_stores_and_charges_it_once(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    draft_id = chats.draft_id

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
    assert chats.message_price == "€\xa00,25"
    assert stored(db) == [] and chats.draft_id  # the draft stays for after buying credits
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


async def test_a_gift_is_a_message_charged_at_the_gift_price(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat?gift=1")
    assert chats.gifts_open and not chats.icebreakers_open
    gift_id = chats.gift_id

    await run(chats.send_gift("rose", gift_id))
    await run(chats.send_gift("rose", gift_id))

    [message] = stored(db)
    assert (message.kind, message.gift) == ("gift", "rose")
    assert chats.messages[0]["picture"] == "/gifts/rose.svg" and not chats.gifts_open
    assert ledger_sum(db, anna.id) == fresh(db).get(Member, anna.id).credits == 75


async def test_unknown_gifts_and_empty_texts_are_refused_without_charge(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")

    await run(chats.send_gift("diamond-car", chats.gift_id))
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
    await send(chats, "Intrusion", "b" * 12)
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

    assert chats.chats == [] and events == []
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
    pushes.clear()

    await run(writer.set_draft("How are y"))
    await run(writer.set_draft("How are you"))  # within 3 s: told once
    [shown] = pushes.to(bob.id)
    await shown(reader.parent_state)

    assert reader.partner_typing
    [(seconds, member_id, token, clear)] = later
    assert (member_id, token) == (bob.id, "test-client-token") and seconds > 6
    reader._typing_until = 0  # the seconds have passed
    await clear(reader.parent_state)
    assert not reader.partner_typing


async def test_logged_out_tabs_get_nothing_and_are_sent_to_log_in(make_root, db, pair, pushes):
    _anna, bob = pair
    root = make_root(url=f"/members/{bob.id}/chat")
    chats = substate(root, ChatsState)
    await run(chats.open_page())
    assert chats.chats == [] and not chats.chat_open

    chats.partner = {"id": bob.id}
    events = await run(chats.send_text({"text": "Hi", "client_id": "c" * 12}))

    assert redirects(events) == ["/login"] and stored(db) == []
    assert scripts(events) == []


async def test_a_tab_that_left_the_chat_leaves_the_message_unread(make_root, db, pair, pushes):
    anna, bob = pair
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "First")
    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    reader.parent_state.router = make_root(url="/members").router  # Bob went on searching
    pushes.clear()

    await send(writer, "Second")
    for update in pushes.to(bob.id):
        await update(reader.parent_state)

    assert [m["body"] for m in reader.messages] == ["First"]
    assert (await reader.get_state(SessionState)).unread_messages == 1


async def test_a_reconnect_keeps_the_draft_and_its_client_id(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await run(chats.set_draft("Half a sentence"))
    draft_id = chats.draft_id

    await run(chats.open_page())  # the page's load again, as after a reconnect

    assert (chats.draft, chats.draft_id) == ("Half a sentence", draft_id)
    chats.parent_state.router = make_root(url="/chats").router
    await run(chats.open_page())
    assert chats.draft == "" and chats.draft_id != draft_id


async def test_removing_a_chat_by_a_garbled_id_alerts_and_reloads(make_root, db, pair, pushes):
    anna, _bob = pair
    chats = await opened(make_root, db, anna, "/chats")

    events = await run(chats.remove("1; drop table chatside"))

    assert any("alert" in str(event) for event in events)
