"""Chat: sending (checks, charge once), the conversation list, unread counts and removal.
Every case runs on both paths of a send: in the thread pool (`send_message`) and, on
PostgreSQL, on the serving loop's own connection (actions/chat.send_on_loop)."""

import asyncio
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from actions.chat import bubble, send_on_loop
from models.chat import (
    EMPTY_MESSAGE,
    FREE_CHAT_STARTS,
    FREE_CHATS_USED,
    MESSAGE_TOO_LONG,
    RECIPIENT_NOT_CONFIRMED,
    UNKNOWN_GIFT,
    ChatError,
    Conversation,
    Message,
    Outgoing,
    Sent,
    chat_counts,
    chat_list,
    chat_opening,
    mark_read,
    messages_of,
    remove_chat,
    remove_chats_with,
    send_message,
)
from models.credits import CreditEntry, grant_credits, ledger_sum
from models.directory import MemberTile
from models.member import Member, MemberStatus, utcnow
from models.site_settings import SiteSettings
from services.loop_database import ELSEWHERE, serve_on_loop
from tests.factories import block_member, edit_profile, make_member
from tests.queries import statements
from translations.errors import INSUFFICIENT_CREDITS, MEMBER_UNAVAILABLE

SETTINGS = SiteSettings(message_credits=5, gift_credits=25, message_length=20)
TODAY = date(2026, 11, 22)


def client_id() -> str:
    return uuid.uuid4().hex


def rich(db: Session, email: str, credits: int = 100, **fields) -> Member:
    member = make_member(db, email, **fields)
    grant_credits(db, member, credits, "test")
    db.commit()
    return member


ON_LOOP = False  # the `path` fixture's: this case sends on the serving loop


@pytest.fixture(autouse=True, params=["thread", "loop"])
def path(request: pytest.FixtureRequest, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "loop":
        if engine.dialect.name != "postgresql":
            pytest.skip("a send on the serving loop is PostgreSQL's; SQLite's is the thread's")
        monkeypatch.setattr(sys.modules[__name__], "ON_LOOP", True)
    return request.param


def send(db: Session, sender: Member, recipient: Member, text: str = "Hi!", **kw) -> Sent:
    outgoing = Outgoing(sender.id, recipient.id, kw.pop("cid", None) or client_id(), text, **kw)
    if ON_LOOP:
        return asyncio.run(_on_the_loop(outgoing))
    return send_message(db, outgoing, SETTINGS)


async def _on_the_loop(outgoing: Outgoing) -> Sent:
    """The send on a serving loop's own connection, with no statement through SQLAlchemy."""
    async with serve_on_loop(wait=True):
        with statements() as on_the_thread_path:
            sent = await send_on_loop(outgoing, SETTINGS, here=False)
    assert sent is not ELSEWHERE and not on_the_thread_path
    return sent


def balance(db: Session, member: Member) -> int:
    db.expire_all()
    return db.get(Member, member.id).credits


def error_of(call) -> ChatError:
    with pytest.raises(ChatError) as caught:
        call()
    return caught.value


@pytest.fixture
def anna(db: Session) -> Member:
    return rich(db, "anna@example.com")


@pytest.fixture
def bert(db: Session) -> Member:
    return edit_profile(db, rich(db, "bert@example.com"), gender="male")


def test_a_message_is_stored_charged_and_unread_for_the_recipient(db, anna, bert) -> None:
    sent = send(db, anna, bert, "  Hello Bert  ")
    assert not sent.duplicate and sent.message.body == "Hello Bert" and sent.message.credits == 5
    assert balance(db, anna) == 95 == ledger_sum(db, anna.id)
    assert unread(db, bert) == 1 and unread(db, anna) == 0
    (summary,) = chat_list(db, bert.id, TODAY, 10)
    assert (summary.member.id, summary.last_body, summary.unread) == (anna.id, "Hello Bert", 1)
    assert not summary.last_from_me
    mark_read(db, bert.id, summary.conversation_id)
    assert unread(db, bert) == 0


def test_the_same_client_id_is_stored_and_charged_once(db, anna, bert) -> None:
    cid = client_id()
    first = send(db, anna, bert, "Hi", cid=cid)
    again = send(db, anna, bert, "Hi", cid=cid)
    assert again.duplicate and again.message.id == first.message.id
    assert balance(db, anna) == 95 and unread(db, bert) == 1


@pytest.mark.parametrize(
    ("text", "error"), [("", EMPTY_MESSAGE), ("   \n", EMPTY_MESSAGE), ("x" * 21, MESSAGE_TOO_LONG)]
)
def test_empty_and_long_messages_are_refused_without_charge(db, anna, bert, text, error) -> None:
    assert error_of(lambda: send(db, anna, bert, text)).message == error
    assert balance(db, anna) == 100 and db.exec(select(Message)).all() == []


def test_short_of_credits_nothing_is_stored(db, bert) -> None:
    poor = rich(db, "poor@example.com", credits=4)
    assert error_of(lambda: send(db, poor, bert)).message == INSUFFICIENT_CREDITS
    assert balance(db, poor) == 4 == ledger_sum(db, poor.id)
    assert db.exec(select(Message)).all() == [] and chat_list(db, bert.id, TODAY, 10) == []
    assert db.exec(select(Conversation)).all() == []  # nor the conversation it would start


def test_an_unconfirmed_recipient_gets_nothing_and_the_sender_pays_nothing(db, anna) -> None:
    new = make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)
    error = error_of(lambda: send(db, anna, new))
    assert error.message == RECIPIENT_NOT_CONFIRMED
    assert balance(db, anna) == 100


@pytest.mark.parametrize("blocker", ["sender", "recipient"])
def test_no_message_across_a_block(db, anna, bert, blocker: str) -> None:
    send(db, anna, bert)
    a, b = (anna, bert) if blocker == "sender" else (bert, anna)
    block_member(db, a.id, b.id)
    assert error_of(lambda: send(db, anna, bert)).message == MEMBER_UNAVAILABLE
    assert balance(db, anna) == 95
    assert chat_list(db, a.id, TODAY, 10) == []  # the conversation is gone for the blocker


def test_a_reply_is_two_statements_on_postgresql(db, anna, bert) -> None:
    """The sender's lock with the recipient's query, and the booking (models/chat._booking):
    one statement on PostgreSQL, five on SQLite; a conversation's first message asks for the
    recipient once more, under the lock. None through SQLAlchemy on the serving loop."""
    booking = 1 if db.get_bind().dialect.name == "postgresql" else 5
    counts = []
    for sender, recipient in ((anna, bert), (bert, anna), (anna, bert)):  # a first, then replies
        with statements() as seen:
            send(db, sender, recipient)
        counts.append(len(seen))
    assert counts == ([0, 0, 0] if ON_LOOP else [2 + booking, 1 + booking, 1 + booking])
    assert unread(db, bert) == 2 and unread(db, anna) == 1
    assert balance(db, anna) == 90 == ledger_sum(db, anna.id)


def test_a_free_message_books_no_ledger_line(db, anna, bert) -> None:
    free = SiteSettings(message_credits=0, gift_credits=25, message_length=20)
    sent = send_message(db, Outgoing(anna.id, bert.id, client_id(), "Free"), free)
    assert sent.credits_left == 100 == balance(db, anna) and unread(db, bert) == 1
    lines = db.exec(select(CreditEntry).where(CreditEntry.member_id == anna.id)).all()
    assert [line.reason for line in lines] == ["test"]  # the grant only


def test_gifts_cost_gift_credits_and_must_exist(db, anna, bert) -> None:
    sent = send(db, anna, bert, gift="rose")
    assert (sent.message.kind, sent.message.gift, sent.message.credits) == ("gift", "rose", 25)
    assert balance(db, anna) == 75
    assert error_of(lambda: send(db, anna, bert, gift="diamond")).message == UNKNOWN_GIFT


def test_free_members_start_two_chats_premium_members_more(db, anna) -> None:
    others = [rich(db, f"m{i}@example.com") for i in range(FREE_CHAT_STARTS + 1)]
    for other in others[:FREE_CHAT_STARTS]:
        send(db, anna, other)
    error = error_of(lambda: send(db, anna, others[-1]))
    assert error.message == FREE_CHATS_USED and error.params["count"] == FREE_CHAT_STARTS
    send(db, anna, others[0])  # an existing chat goes on
    send(db, others[-1], anna)  # and anyone may write to her
    send(db, anna, others[-1])  # which she may answer
    anna.paid_user = True
    db.add(anna)
    db.commit()
    send(db, anna, rich(db, "late@example.com"))


def test_messages_page_backwards_oldest_first(db, anna, bert) -> None:
    ids = [
        send(db, anna if i % 2 else bert, bert if i % 2 else anna, f"m{i}").message.id
        for i in range(5)
    ]
    (summary,) = chat_list(db, anna.id, TODAY, 10)
    newest = messages_of(db, anna.id, summary.conversation_id, 3)
    assert [m.id for m in newest] == ids[2:]
    older = messages_of(db, anna.id, summary.conversation_id, 3, before_id=ids[2])
    assert [m.id for m in older] == ids[:2]
    stranger = make_member(db, "stranger@example.com")
    assert messages_of(db, stranger.id, summary.conversation_id, 3) == []


def test_removing_a_chat_hides_it_until_a_new_message(db, anna, bert) -> None:
    send(db, bert, anna, "old")
    (summary,) = chat_list(db, anna.id, TODAY, 10)
    assert remove_chat(db, anna.id, summary.conversation_id)
    db.commit()
    assert chat_list(db, anna.id, TODAY, 10) == [] and unread(db, anna) == 0
    assert len(chat_list(db, bert.id, TODAY, 10)) == 1  # only gone on her side
    send(db, bert, anna, "new")
    (back,) = chat_list(db, anna.id, TODAY, 10)
    assert back.last_body == "new" and back.unread == 1
    assert [m.body for m in messages_of(db, anna.id, back.conversation_id, 10)] == ["new"]
    stranger = make_member(db, "stranger@example.com")
    assert not remove_chat(db, stranger.id, back.conversation_id)


def test_removing_chats_by_profile(db, anna, bert) -> None:
    send(db, anna, bert)
    assert len(remove_chats_with(db, anna.id, bert.id)) == 1
    assert chat_list(db, anna.id, TODAY, 10) == []
    assert remove_chats_with(db, anna.id, bert.id) == [] or chat_list(db, anna.id, TODAY, 10) == []


def test_the_list_is_latest_first_and_leaves_out_members_who_left(db, anna, bert) -> None:
    carl = rich(db, "carl@example.com")
    send(db, anna, bert)
    send(db, carl, anna)
    assert [s.member.id for s in chat_list(db, anna.id, TODAY, 10)] == [carl.id, bert.id]
    carl.status = MemberStatus.DELETED_PENDING
    db.add(carl)
    db.commit()
    assert [s.member.id for s in chat_list(db, anna.id, TODAY, 10)] == [bert.id]
    assert unread(db, anna) == 0


# ----- concurrency (PostgreSQL: real parallel transactions) -----


def _parallel(engine: Engine, calls: int, make_outgoing) -> list[object]:
    """The sends at once, each its Sent or its refusal; on the loop path as a web process
    sends them: on the loop's connections while one is free, the others in threads."""

    def one(outgoing: Outgoing) -> object:
        with Session(engine, expire_on_commit=False) as db:
            try:
                return send_message(db, outgoing, SETTINGS)
            except ChatError as error:
                return error.message

    if ON_LOOP:
        return asyncio.run(_at_once_on_the_loop(one, [make_outgoing(i) for i in range(calls)]))
    with ThreadPoolExecutor(max_workers=20) as pool:
        return list(pool.map(one, map(make_outgoing, range(calls))))


async def _at_once_on_the_loop(in_a_thread, outgoings: list[Outgoing]) -> list[object]:
    async def one(outgoing: Outgoing) -> object:
        try:
            sent = await send_on_loop(outgoing, SETTINGS, here=False)
        except ChatError as error:
            return error.message
        return await asyncio.to_thread(in_a_thread, outgoing) if sent is ELSEWHERE else sent

    async with serve_on_loop(wait=True):
        return await asyncio.gather(*map(one, outgoings))


def _postgres_only(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("parallel transactions are a PostgreSQL matter; SQLite runs one writer")


def test_100_sends_at_once_against_10_messages_worth(engine: Engine, db, bert) -> None:
    _postgres_only(engine)
    sender = rich(db, "sender@example.com", credits=50)
    results = _parallel(engine, 100, lambda i: Outgoing(sender.id, bert.id, client_id(), f"m{i}"))
    assert sum(1 for r in results if r == INSUFFICIENT_CREDITS) == 90
    assert len(db.exec(select(Message).where(Message.sender_id == sender.id)).all()) == 10
    assert balance(db, sender) == 0 == ledger_sum(db, sender.id)


def test_the_same_client_id_five_times_at_once(engine: Engine, db, anna, bert) -> None:
    _postgres_only(engine)
    cid = client_id()
    results = _parallel(engine, 5, lambda _: Outgoing(anna.id, bert.id, cid, "once"))
    assert len({r.message.id for r in results}) == 1 and sum(not r.duplicate for r in results) == 1
    assert balance(db, anna) == 95 == ledger_sum(db, anna.id)
    assert unread(db, bert) == 1


def test_both_members_writing_first_at_once_share_one_conversation(engine: Engine, db) -> None:
    _postgres_only(engine)
    pairs = [(rich(db, f"a{i}@example.com"), rich(db, f"b{i}@example.com")) for i in range(10)]
    senders = [(a, b) for a, b in pairs] + [(b, a) for a, b in pairs]
    results = _parallel(
        engine,
        len(senders),
        lambda i: Outgoing(senders[i][0].id, senders[i][1].id, client_id(), "first!"),
    )
    assert all(not r.duplicate for r in results)
    for a, b in pairs:
        (summary,) = chat_list(db, a.id, TODAY, 10)
        assert summary.member.id == b.id and summary.unread == 1
        assert len(messages_of(db, a.id, summary.conversation_id, 10)) == 2


def test_a_free_member_writing_first_to_six_at_once_starts_two_chats(
    engine: Engine, db, anna
) -> None:
    _postgres_only(engine)
    others = [rich(db, f"m{i}@example.com") for i in range(6)]
    results = _parallel(engine, 6, lambda i: Outgoing(anna.id, others[i].id, client_id(), "Hi"))
    assert sum(result == FREE_CHATS_USED for result in results) == 4  # spec section 9: two
    assert len(chat_list(db, anna.id, TODAY, 10)) == 2
    assert balance(db, anna) == 90 == ledger_sum(db, anna.id)


def unread(db: Session, member: Member) -> int:
    return chat_counts(db, member.id).unread


def partner(db: Session, viewer: Member, partner_id: int) -> MemberTile | None:
    opening = chat_opening(db, viewer.id, TODAY, partner_id=partner_id)
    return opening.partner if opening else None


def test_the_chat_partner_is_a_visible_or_unconfirmed_member_not_blocked(db: Session) -> None:
    anna, bob = rich(db, "anna@example.com"), rich(db, "bob@example.com")
    new = make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)

    assert partner(db, anna, bob.id).name == "Bob"
    assert partner(db, anna, new.id).name == "New"
    assert partner(db, anna, anna.id) is None
    block_member(db, bob.id, anna.id)
    assert partner(db, anna, bob.id) is None
    assert partner(db, anna, 999_999) is None


def test_a_message_a_moderator_removed_shows_no_body_to_either_member(db, anna, bert) -> None:
    message = db.get(Message, send(db, anna, bert, "Something nasty").message.id)
    message.removed_at = utcnow()
    db.add(message)
    db.commit()
    for member in (anna, bert):
        (summary,) = chat_list(db, member.id, TODAY, 10)
        assert summary.last_removed and summary.last_body == ""
        (row,) = messages_of(db, member.id, summary.conversation_id, 10)
        shown = bubble(row, member.id)
        assert shown["removed"] and shown["body"] == "" and not shown["flagged"]
        assert "Something nasty" not in str(shown)
