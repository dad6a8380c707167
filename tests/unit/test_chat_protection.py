"""Protecting the member who receives: the message filter's "Are you sure?" before a flagged
text is stored (flagged once confirmed, veiled for the recipient only), who may start a chat
(Member.chat_from), and no credits for a message the recipient never sees."""

import pytest
from sqlmodel import Session, select

from actions.chat import bubble
from models.chat import (
    CONFIRM_CONTACT,
    CONFIRM_OFFENSIVE,
    CONFIRM_SCAM,
    RECIPIENT_NOT_CONFIRMED,
    Conversation,
    Message,
    chat_list,
    start_refused,
)
from models.chat_from import ONLY_LIKED, ONLY_PREMIUM, ChatFrom
from models.credits import ledger_sum
from models.likes import Like
from models.member import Member, MemberStatus
from tests.factories import block_member
from tests.unit import test_chat
from tests.unit.test_chat import TODAY, balance, error_of, rich, send
from translations.errors import MEMBER_UNAVAILABLE

MESSAGE_CREDITS = 5  # tests/unit/test_chat.SETTINGS
anna, bert = test_chat.anna, test_chat.bert  # its fixtures: members with 100 credits


def messages(db: Session) -> list[Message]:
    db.expire_all()
    return list(db.exec(select(Message).order_by(Message.id)))


def liked(db: Session, liker: Member, liked_member: Member) -> None:
    db.add(Like(liker_id=liker.id, liked_id=liked_member.id))
    db.commit()


def setting(db: Session, member: Member, chat_from: ChatFrom) -> None:
    member.chat_from = chat_from.value
    db.add(member)
    db.commit()


def untouched(db: Session, member: Member, credits: int = 100) -> bool:
    """Nothing stored, nothing charged: the balance and the ledger as they were."""
    return (
        balance(db, member) == credits == ledger_sum(db, member.id)
        and messages(db) == []
        and db.exec(select(Conversation)).all() == []
    )


def test_a_flagged_text_asks_first_and_is_stored_flagged_once_confirmed(db, anna, bert) -> None:
    error = error_of(lambda: send(db, anna, bert, "You stupid bitch"))
    assert error.message == CONFIRM_OFFENSIVE and error.params == {"name": "Bert"}
    assert untouched(db, anna)

    sent = send(db, anna, bert, "You stupid bitch", anyway=True)
    assert sent.message.flagged and balance(db, anna) == 100 - MESSAGE_CREDITS
    assert not send(db, anna, bert, "Sorry, that was rude").message.flagged


def test_the_recipient_sees_a_flagged_message_veiled_the_sender_does_not(db, anna, bert) -> None:
    message = send(db, anna, bert, "send me your nudes", anyway=True).message
    assert bubble(message, bert.id)["flagged"] and not bubble(message, anna.id)["flagged"]
    [for_bert] = chat_list(db, bert.id, TODAY, 10)
    [for_anna] = chat_list(db, anna.id, TODAY, 10)
    assert for_bert.last_veiled and not for_anna.last_veiled


def test_scams_and_first_message_contact_details_ask_with_their_own_text(db, anna, bert) -> None:
    assert error_of(lambda: send(db, anna, bert, "Add me on WhatsApp")).message == CONFIRM_CONTACT
    assert untouched(db, anna)
    send(db, bert, anna, "Hello Anna")
    assert not send(db, anna, bert, "Add me on WhatsApp").message.flagged  # Bert wrote back
    assert error_of(lambda: send(db, anna, bert, "Buy me a gift card")).message == CONFIRM_SCAM


def test_contact_details_ask_in_every_message_until_the_recipient_replies(db, anna, bert) -> None:
    send(db, anna, bert, gift="rose")  # an opener does not open the door
    send(db, anna, bert, "Hey, coffee or tea?")  # nor does an icebreaker
    send(db, anna, bert, "Hello?")
    assert error_of(lambda: send(db, anna, bert, "Add me on WhatsApp")).message == CONFIRM_CONTACT
    assert send(db, anna, bert, "Add me on WhatsApp", anyway=True).message.flagged
    send(db, bert, anna, "Hi Anna!")
    assert not send(db, anna, bert, "Call +31 6 12345678").message.flagged
    assert not send(db, bert, anna, "Mine: +31 6 87654321").message.flagged


def test_the_recipients_language_list_applies_too(db, anna) -> None:
    german = rich(db, "dieter@example.com", language="de")
    assert error_of(lambda: send(db, anna, german, "Fick dich")).message == CONFIRM_OFFENSIVE
    assert not send(db, anna, german, "Dicke Umarmung!").message.flagged


def test_the_senders_page_language_list_applies_too(db, anna, bert) -> None:
    assert not send(db, anna, bert, "Fick dich").message.flagged  # both write English
    error = error_of(lambda: send(db, anna, bert, "Fick dich", language="de"))
    assert error.message == CONFIRM_OFFENSIVE


def test_gifts_are_not_screened(db, anna, bert) -> None:
    assert not send(db, anna, bert, gift="rose").message.flagged


def test_members_i_liked_only_a_like_opens_the_chat(db, anna, bert) -> None:
    setting(db, bert, ChatFrom.LIKED)
    error = error_of(lambda: send(db, anna, bert))
    assert (error.message, error.params) == (ONLY_LIKED, {"name": "Bert"})
    assert untouched(db, anna)
    assert start_refused(db, anna.id, bert.id) == (ONLY_LIKED, "Bert")

    liked(db, bert, anna)
    assert start_refused(db, anna.id, bert.id) is None
    assert send(db, anna, bert).message.id


def test_premium_members_only_refuses_free_members(db, anna, bert) -> None:
    setting(db, bert, ChatFrom.PREMIUM)
    assert error_of(lambda: send(db, anna, bert)).message == ONLY_PREMIUM
    assert untouched(db, anna)
    paid = rich(db, "paid@example.com", paid_user=True)
    assert start_refused(db, paid.id, bert.id) is None
    assert send(db, paid, bert).message.id


def test_a_started_chat_goes_on_whatever_the_setting(db, anna, bert) -> None:
    send(db, anna, bert)
    setting(db, bert, ChatFrom.PREMIUM)
    assert start_refused(db, anna.id, bert.id) is None
    assert send(db, anna, bert, "Still there?").message.id
    assert balance(db, anna) == 100 - 2 * MESSAGE_CREDITS


def test_the_refusal_comes_before_are_you_sure(db, anna, bert) -> None:
    setting(db, bert, ChatFrom.LIKED)
    assert error_of(lambda: send(db, anna, bert, "You stupid bitch")).message == ONLY_LIKED
    assert error_of(lambda: send(db, anna, bert, "bitch", anyway=True)).message == ONLY_LIKED
    assert untouched(db, anna)


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (MemberStatus.BANNED, MEMBER_UNAVAILABLE),
        (MemberStatus.SUSPENDED, MEMBER_UNAVAILABLE),
        (MemberStatus.DELETED, MEMBER_UNAVAILABLE),
        (MemberStatus.DELETED_PENDING, MEMBER_UNAVAILABLE),
        (MemberStatus.NOT_CONFIRMED, RECIPIENT_NOT_CONFIRMED),
    ],
)
def test_no_credits_for_a_recipient_who_would_never_see_it(db, anna, status, error) -> None:
    gone = rich(db, f"{status}@example.com", status=status)
    for kw in ({"text": "Hi!"}, {"gift": "rose"}, {"text": "bitch", "anyway": True}):
        assert error_of(lambda kw=kw: send(db, anna, gone, **kw)).message == error
    assert untouched(db, anna)


def test_no_credits_for_a_message_to_a_member_who_blocked_the_sender(db, anna, bert) -> None:
    send(db, anna, bert)
    block_member(db, bert.id, anna.id)
    assert error_of(lambda: send(db, anna, bert, "Hello?")).message == MEMBER_UNAVAILABLE
    assert error_of(lambda: send(db, anna, bert, gift="rose")).message == MEMBER_UNAVAILABLE
    assert balance(db, anna) == 100 - MESSAGE_CREDITS == ledger_sum(db, anna.id)
    assert len(messages(db)) == 1
