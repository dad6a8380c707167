"""The chat's protections as tabs meet them: the sender's "Are you sure?" (Edit keeps the
draft, Send anyway stores the text flagged), the recipient's veil until "Show", the refusal of
a member's "who may start a chat with me" in the chat and on the profile, and the setting."""

from sqlmodel import Session

from models.chat_from import ChatFrom
from models.likes import Like
from models.member import Member
from state.chat_from import ChatFromState
from state.chats import FOCUS_DRAFT_SCRIPT, SENT_SCRIPT
from state.profile_view import ProfileViewState
from tests.state import test_chats_state
from tests.state.conftest import redirects, run, scripts, substate
from tests.state.test_chats_state import delivered, fresh, opened, send, stored, tab

CREDITS = 100
pair, pushes = test_chats_state.pair, test_chats_state.pushes  # its fixtures


def credits_of(db: Session, who: Member) -> int:
    return fresh(db).get(Member, who.id).credits


def chooses(db: Session, who: Member, chat_from: ChatFrom) -> None:
    who.chat_from = chat_from.value
    db.add(who)
    db.commit()


async def test_a_flagged_text_asks_are_you_sure_in_the_senders_language(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat", locale="de")

    events = await send(chats, "Fick dich, du Schlampe")

    assert chats.confirm_text == (
        "Bob könnte diese Nachricht als beleidigend empfinden. Sie wird hinter einem "
        "Warnhinweis angezeigt."
    )
    assert scripts(events) == [] and stored(db) == []  # the draft and its client id stay
    assert credits_of(db, anna) == CREDITS

    events = await run(chats.send_anyway())

    [message] = stored(db)
    assert message.flagged and message.body == "Fick dich, du Schlampe"
    assert scripts(events) == [SENT_SCRIPT] and chats.confirm_text == ""
    assert chats.messages[-1]["flagged"] is False  # the sender's own bubble is not veiled
    assert credits_of(db, anna) < CREDITS
    assert await run(chats.send_anyway()) == []  # nothing left to send
    assert len(stored(db)) == 1


async def test_edit_goes_back_to_the_draft_and_sends_nothing(make_root, db, pair, pushes):
    anna, bob = pair
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(chats, "Add me on WhatsApp")
    assert "contact details" in chats.confirm_text

    events = await run(chats.edit_flagged())

    assert scripts(events) == [FOCUS_DRAFT_SCRIPT] and chats.confirm_text == ""
    assert await run(chats.send_anyway()) == [] and stored(db) == []
    await send(chats, "Hello Bob, how was your day?")
    assert [m.flagged for m in stored(db)] == [False] and chats.confirm_text == ""


async def test_the_recipient_sees_the_veil_until_show(make_root, db, pair, pushes):
    anna, bob = pair
    reader = await opened(make_root, db, bob, "/chats")
    writer = await opened(make_root, db, anna, f"/members/{bob.id}/chat")
    await send(writer, "You stupid bitch")
    await run(writer.send_anyway())
    await delivered(pushes, bob, reader)
    assert reader.chats[0]["veiled"] and writer.chats[0]["veiled"] is False

    reader = await opened(make_root, db, bob, f"/chats/{writer.conversation_id}")
    [message] = reader.messages
    assert message["flagged"] and reader.chats[0]["veiled"]

    await run(reader.show_flagged(message["id"]))
    assert reader.messages[0]["flagged"] is False
    await run(reader.show_flagged("not an id"))  # the browser's id is checked
    assert reader.messages[0]["body"] == "You stupid bitch"


async def test_a_refused_chat_start_is_told_in_the_chat_before_any_charge(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chooses(db, bob, ChatFrom.LIKED)
    chats = await opened(make_root, db, anna, f"/members/{bob.id}/chat", locale="nl")

    await send(chats, "Hoi Bob!")

    assert chats.error == "Alleen leden die Bob heeft geliket, kunnen een nieuwe chat beginnen."
    assert stored(db) == [] and credits_of(db, anna) == CREDITS

    chooses(db, bob, ChatFrom.PREMIUM)
    await send(chats, "Hoi Bob!")
    assert chats.premium_alert == "Alleen premiumleden kunnen een nieuwe chat met Bob beginnen."
    assert stored(db) == [] and credits_of(db, anna) == CREDITS


async def test_the_profiles_message_button_says_why_it_cannot_start_a_chat(
    make_root, db, pair, pushes
):
    anna, bob = pair
    chooses(db, bob, ChatFrom.LIKED)
    root = await tab(make_root, db, anna, f"/members/{bob.id}", locale="sv")
    view = substate(root, ProfileViewState)
    await run(view.load_profile())

    assert redirects(await run(view.open_chat())) == []
    assert view.chat_refusal == "Bara medlemmar som Bob har gillat kan starta en ny chatt."

    db.add(Like(liker_id=bob.id, liked_id=anna.id))
    db.commit()
    await run(view.load_profile())
    assert view.chat_refusal == ""
    assert redirects(await run(view.open_chat())) == [f"/members/{bob.id}/chat"]


async def test_the_setting_is_read_and_stored_at_once(make_root, db, pair):
    anna, _bob = pair
    root = await tab(make_root, db, anna, "/settings?tab=privacy")
    setting = substate(root, ChatFromState)
    await run(setting.load())
    assert setting.chat_from == "everyone" and not setting.saved

    await run(setting.choose("premium"))
    assert setting.saved and fresh(db).get(Member, anna.id).chat_from == "premium"

    for bad in ("nobody", "liked" * 5, None):
        await run(setting.choose(bad))
        assert fresh(db).get(Member, anna.id).chat_from == "premium"
    await run(setting.load())
    assert setting.chat_from == "premium"


async def test_a_visitor_cannot_store_the_setting(make_root, db, pair):
    visitor = substate(make_root(url="/settings?tab=privacy"), ChatFromState)
    assert redirects(await run(visitor.choose("liked"))) == [
        "/login?next=%2Fsettings%3Ftab%3Dprivacy"
    ]
