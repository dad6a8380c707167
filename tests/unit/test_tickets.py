"""Customer service tickets (docs/customer-service.md): the contact form's request opens a ticket
with its receipt (the reference, never the message) in the page's language, within the
receipts' limits; a follow-up with the mailed link's token, or from the ticket's member
account, joins the thread and reopens it, from anyone else it is refused; the throttle per
client address; support's answer mailed in the ticket's language and its status changes, each
with an audit row that keeps no text; the queue's order; closed tickets purged after 12 months
and an erased account's tickets, its address's too."""

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlmodel import Session, select

from actions.mail import MailOut
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from actions.ticket_reads import ticket_queue, ticket_thread
from actions.tickets import TicketRefused, answer_ticket, send_contact, set_ticket_status
from models.account_errors import AccountError
from models.audit import AuditEntry
from models.deletion import GRACE_PERIOD, erase_expired_accounts
from models.member import Member, MemberStatus, utcnow
from models.staff import Role
from models.staff_reason import REASON_REQUIRED
from models.tickets import (
    MESSAGE_REQUIRED,
    TOPIC_REQUIRED,
    UNKNOWN_REFERENCE,
    ContactRequest,
    Ticket,
    TicketMessage,
    purge_closed_tickets,
)
from services.ticket_tokens import follow_up_token
from tests.factories import make_member

SUPPORT = StaffViewer(99, Role.SUPPORT, frozenset({Role.SUPPORT}), "en", "192.0.2.9")


def request(**fields: str) -> ContactRequest:
    values = {
        "topic": "payments",
        "message": "My payment went through but I got no credits.",
        "email": "Visitor@Example.com ",
        "reference": "",
        "locale": "nl",
    }
    return ContactRequest(**{**values, **fields})


def tickets(db: Session) -> list[Ticket]:
    db.expire_all()
    return list(db.exec(select(Ticket).order_by(Ticket.id)))


def thread(db: Session, ticket: Ticket) -> list[tuple[str, str]]:
    query = select(TicketMessage).where(TicketMessage.ticket_id == ticket.id)
    return [(m.author, m.body) for m in db.exec(query.order_by(TicketMessage.id))]


def mail_of(done: Done):
    (effect,) = done.effects
    assert isinstance(effect, MailOut)
    return effect.mail


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


def test_a_visitor_opens_a_ticket_and_gets_a_receipt_in_the_page_language(db) -> None:
    done = send_contact(request(), None, "192.0.2.1")
    (ticket,) = tickets(db)
    assert done.value.reference == ticket.reference and len(ticket.reference) == 8
    assert done.value.sent_to == ticket.email == "visitor@example.com"
    assert (ticket.member_id, ticket.topic, ticket.status, ticket.locale) == (
        None,
        "payments",
        "open",
        "nl",
    )
    assert thread(db, ticket) == [("member", "My payment went through but I got no credits.")]
    mail = mail_of(done)
    assert mail.to == "visitor@example.com" and mail.language == "nl"
    assert ticket.reference in mail.subject and "We received" not in mail.subject
    assert "Betalingen en terugbetalingen" in mail.text  # the topic, in Dutch
    assert "no credits" not in mail.text + mail.html  # the form relays no text
    assert link_query(mail) == {"reference": [ticket.reference], "token": [token_of(ticket)]}


def link_query(mail) -> dict[str, list[str]]:
    (link,) = (line for line in mail.text.splitlines() if "/pages/service?" in line)
    return parse_qs(urlsplit(link).query)


def token_of(ticket: Ticket) -> str:
    return follow_up_token(ticket.id)


def test_a_member_writes_from_the_account_address(db, anna) -> None:
    done = send_contact(request(email="", locale="de"), anna.id, "192.0.2.1")
    (ticket,) = tickets(db)
    assert (ticket.member_id, ticket.email) == (anna.id, "anna@example.com")
    assert mail_of(done).to == "anna@example.com" and mail_of(done).language == "de"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"topic": "billing"}, "topic", TOPIC_REQUIRED),
        ({"topic": ""}, "topic", TOPIC_REQUIRED),
        ({"message": "  \x00 "}, "message", MESSAGE_REQUIRED),
        ({"message": "x" * 4001}, "message", None),
        ({"email": "not an address"}, "email", None),
    ],
)
def test_a_bad_request_writes_nothing(db, fields, field, message) -> None:
    with pytest.raises(AccountError) as refused:
        send_contact(request(**fields), None, "192.0.2.1")
    assert refused.value.field == field
    assert message is None or refused.value.message == message
    assert tickets(db) == []


def test_a_follow_up_with_the_reference_joins_the_thread_and_reopens_it(db) -> None:
    reference = send_contact(request(), None, "192.0.2.1").value.reference
    (ticket,) = tickets(db)
    answer_ticket(SUPPORT, ticket.id, "We have added the credits.")
    assert tickets(db)[0].status == "answered"
    follow = request(
        message="Thank you, but only half.",
        reference=reference.lower() + " ",
        token=link_query(answer_ticket(SUPPORT, ticket.id, "More?").effects[0].mail)["token"][0],
    )
    done = send_contact(replace_locale(follow, "fr"), None, "192.0.2.2")
    (ticket,) = tickets(db)
    assert done.value.reference == reference and (ticket.status, ticket.locale) == ("open", "fr")
    assert [author for author, _ in thread(db, ticket)] == ["member", "staff", "staff", "member"]
    assert mail_of(done).language == "fr" and reference in mail_of(done).subject


def replace_locale(value: ContactRequest, locale: str) -> ContactRequest:
    return ContactRequest(
        value.topic, value.message, value.email, value.reference, locale, value.token
    )


def test_a_member_follows_up_a_ticket_of_their_account(db, anna) -> None:
    reference = send_contact(request(email=""), anna.id, "192.0.2.1").value.reference
    send_contact(request(email="", topic="", reference=reference), anna.id, "192.0.2.1")
    (ticket,) = tickets(db)
    assert len(thread(db, ticket)) == 2


@pytest.mark.parametrize("reference", ["ZZZZZZZZ", ""])
def test_a_follow_up_without_the_links_token_is_refused_like_an_unknown_reference(
    db, anna, reference
) -> None:
    mine = send_contact(request(), None, "192.0.2.1").value.reference
    (ticket,) = tickets(db)
    other = send_contact(request(email="anna@example.com"), None, "192.0.2.2").value.reference
    senders = (
        ("visitor@example.com", None, ""),  # the same address, typed: proves nothing
        ("other@example.com", None, "0" * 32),
        ("visitor@example.com", None, token_of(tickets(db)[1])),  # another ticket's token
        ("", anna.id, ""),  # a member, for a visitor's ticket from the account's address
    )
    for sender, member, token in senders:
        with pytest.raises(AccountError) as refused:
            follow = request(email=sender, reference=reference or mine, token=token)
            send_contact(follow, member, "192.0.2.3")
        assert (refused.value.field, refused.value.message) == ("reference", UNKNOWN_REFERENCE)
    assert len(thread(db, ticket)) == 1 and other


def test_the_links_token_lets_a_logged_in_member_follow_up_a_visitors_ticket(db, anna) -> None:
    reference = send_contact(request(), None, "192.0.2.1").value.reference
    (ticket,) = tickets(db)
    follow = request(email="", topic="", reference=reference, token=token_of(ticket))
    assert send_contact(follow, anna.id, "192.0.2.1").value.reference == reference
    assert len(thread(db, ticket)) == 2 and tickets(db)[0].email == "visitor@example.com"


def test_three_receipts_a_day_to_one_address(db) -> None:
    sent = [send_contact(request(), None, f"192.0.2.{n}") for n in range(1, 5)]
    assert [done.value.receipt for done in sent] == [True, True, True, False]
    assert [len(done.effects) for done in sent] == [1, 1, 1, 0]
    assert all(done.value.reference for done in sent) and len(tickets(db)) == 4
    other = send_contact(request(email="someone@example.com"), None, "192.0.2.9")
    assert other.value.receipt
    for message in db.exec(select(TicketMessage)).all():  # a day later
        message.created_at -= timedelta(hours=24, minutes=1)
        db.add(message)
    db.commit()
    assert send_contact(request(), None, "192.0.2.10").value.receipt


def test_at_most_a_hundred_visitor_receipts_an_hour(db, anna) -> None:
    earlier = utcnow() - timedelta(minutes=50)
    for n in range(99):
        ticket = Ticket(reference=f"H{n:07d}", email=f"v{n}@example.com", topic="other")
        db.add(ticket)
        db.flush()
        db.add(TicketMessage(ticket_id=ticket.id, author="member", body="x", created_at=earlier))
    db.commit()
    assert send_contact(request(), None, "192.0.2.1").value.receipt  # the hundredth
    assert not send_contact(request(email="late@example.com"), None, "192.0.2.2").value.receipt
    assert send_contact(request(email=""), anna.id, "192.0.2.3").value.receipt  # a member's


def test_five_messages_from_one_address_then_a_wait(db) -> None:
    sent = [send_contact(request(), None, "192.0.2.7").value for _ in range(6)]
    assert all(s.reference for s in sent[:5]) and sent[5].reference == ""
    assert 1 <= sent[5].minutes_refused <= 15
    assert len(tickets(db)) == 5
    assert send_contact(request(), None, "192.0.2.8").value.reference  # another address


def test_the_answer_is_mailed_in_the_ticket_language_kept_and_audited(db) -> None:
    send_contact(request(locale="it"), None, "192.0.2.1")
    (ticket,) = tickets(db)
    done = answer_ticket(SUPPORT, ticket.id, "  I crediti sono stati aggiunti.\n\nSaluti  ")
    mail = mail_of(done)
    assert (mail.to, mail.language) == ("visitor@example.com", "it")
    assert "I crediti sono stati aggiunti." in mail.text and ticket.reference in mail.subject
    assert thread(db, ticket)[-1] == ("staff", "I crediti sono stati aggiunti.\n\nSaluti")
    answer = db.exec(select(TicketMessage).order_by(TicketMessage.id.desc())).first()
    assert answer.staff_id == 99
    (row,) = db.exec(select(AuditEntry)).all()
    assert (row.action, row.target_type, row.target_id, row.actor_role) == (
        "tickets.answer",
        "ticket",
        ticket.id,
        "support",
    )
    assert (row.before, row.after) == (
        {"status": "open"},
        {"status": "answered", "message_id": answer.id, "length": 38},
    )
    assert "crediti" not in row.reason  # the text stays in the thread, which is purged


def test_an_empty_answer_or_a_missing_ticket_is_refused(db) -> None:
    send_contact(request(), None, "192.0.2.1")
    (ticket,) = tickets(db)
    with pytest.raises(AccountError):
        answer_ticket(SUPPORT, ticket.id, "   ")
    with pytest.raises(TicketRefused):
        answer_ticket(SUPPORT, ticket.id + 100, "Hello")
    assert len(thread(db, ticket)) == 1 and db.exec(select(AuditEntry)).all() == []


def test_a_status_change_needs_a_known_status_and_a_reason(db) -> None:
    send_contact(request(), None, "192.0.2.1")
    (ticket,) = tickets(db)
    refusals = (
        ("done", "x", "status"),
        ("closed", "  ", "reason"),
        ("closed", "x" * 501, "reason"),
    )
    for status, reason, field in refusals:
        with pytest.raises(AccountError) as refused:
            set_ticket_status(SUPPORT, ticket.id, status, reason)
        assert refused.value.field == field
    assert refused.value.message == REASON_REQUIRED
    done = set_ticket_status(SUPPORT, ticket.id, "closed", "Solved by phone")
    assert done.effects == () and tickets(db)[0].status == "closed"
    (row,) = db.exec(select(AuditEntry)).all()
    assert (row.action, row.reason, row.after) == (
        "tickets.status",
        "Solved by phone",
        {"status": "closed"},
    )
    set_ticket_status(SUPPORT, ticket.id, "closed", "again")  # no change: no row
    assert len(db.exec(select(AuditEntry)).all()) == 1


def test_the_queue_shows_open_tickets_first_the_longest_waiting_first(db) -> None:
    now = utcnow()
    for minutes, status in ((10, "closed"), (30, "answered"), (5, "open"), (60, "open")):
        db.add(
            Ticket(
                reference=f"REF{minutes:05d}",
                email="x@example.com",
                topic="other",
                status=status,
                updated_at=now - timedelta(minutes=minutes),
            )
        )
    db.commit()
    page = ticket_queue(1)
    assert [row["reference"] for row in page.rows] == [
        "REF00060",
        "REF00005",
        "REF00030",
        "REF00010",
    ]
    assert page.page == 1 and not page.has_next


def test_the_queue_is_paged_fifty_at_a_time(db) -> None:
    db.add_all(
        Ticket(reference=f"P{n:07d}", email="x@example.com", topic="other") for n in range(51)
    )
    db.commit()
    first, second = ticket_queue(1), ticket_queue(2)
    assert (len(first.rows), first.has_next, len(second.rows), second.has_next) == (
        50,
        True,
        1,
        False,
    )


def test_the_thread_names_the_member_and_lists_the_oldest_first(db, anna) -> None:
    send_contact(request(email=""), anna.id, "192.0.2.1")
    (ticket,) = tickets(db)
    answer_ticket(SUPPORT, ticket.id, "Answer")
    found = ticket_thread(ticket.id)
    assert found.ticket["member_id"] == anna.id and found.member_name
    assert [m["author"] for m in found.messages] == ["member", "staff"]
    assert ticket_thread(ticket.id + 1) is None


def test_the_queue_pages_run_on_from_one_status_to_the_next(db) -> None:
    now = utcnow()
    for n in range(60):
        status = "open" if n < 40 else ("answered" if n < 55 else "closed")
        updated = now - timedelta(minutes=100 - n)
        db.add(Ticket(reference=f"Q{n:07d}", email="x@example.com", topic="other",
                      status=status, updated_at=updated))  # fmt: skip
    db.commit()
    first, second = ticket_queue(1), ticket_queue(2)
    references = [row["reference"] for row in first.rows + second.rows]
    assert references == [f"Q{n:07d}" for n in range(60)]
    assert (len(first.rows), first.has_next, len(second.rows), second.has_next) == (
        50,
        True,
        10,
        False,
    )
    assert [row["status"] for row in second.rows] == ["answered"] * 5 + ["closed"] * 5


def aged_ticket(db: Session, reference: str, status: str, days: int, email: str) -> Ticket:
    ticket = Ticket(reference=reference, email=email, topic="other", status=status,
                    updated_at=utcnow() - timedelta(days=days))  # fmt: skip
    db.add(ticket)
    db.flush()
    db.add(TicketMessage(ticket_id=ticket.id, author="member", body="Old question"))
    db.commit()
    return ticket


def test_closed_tickets_go_twelve_months_after_their_last_change(db) -> None:
    aged_ticket(db, "GONE0001", "closed", 366, "a@example.com")
    aged_ticket(db, "KEPT0001", "closed", 364, "a@example.com")
    aged_ticket(db, "KEPT0002", "open", 400, "a@example.com")
    assert purge_closed_tickets(db, utcnow()) == 1
    db.commit()
    assert [t.reference for t in tickets(db)] == ["KEPT0001", "KEPT0002"]
    assert len(db.exec(select(TicketMessage)).all()) == 2


def test_an_erased_account_takes_the_tickets_sent_from_its_address(db, anna) -> None:
    send_contact(request(email=""), anna.id, "192.0.2.1")
    aged_ticket(db, "VISIT001", "open", 1, "anna@example.com")  # written before logging in
    aged_ticket(db, "OTHER001", "open", 1, "bob@example.com")
    anna.status, anna.deleted_at = MemberStatus.DELETED_PENDING, utcnow() - GRACE_PERIOD
    db.add(anna)
    db.commit()
    erase_expired_accounts(db, utcnow())
    db.commit()
    assert [t.reference for t in tickets(db)] == ["OTHER001"]
    assert len(db.exec(select(TicketMessage)).all()) == 1
