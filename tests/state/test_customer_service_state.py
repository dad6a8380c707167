"""The contact form of /pages/service and the tickets console, as a tab calls them: a visitor's
request becomes a ticket with a receipt in the page's language; a member writes from the
account; a follow-up from the receipt's link (its token) joins the thread, one typed without
it is refused; the throttle's translated error; support answers (the mail in the ticket's
language, once for a double click) and changes the status with a reason; a moderator is
refused (the full matrix: tests/state/test_staff_authorization.py)."""

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from models.audit import AuditEntry
from models.member import Member
from models.staff import Role
from models.tickets import TOO_MANY_REQUESTS, UNKNOWN_REFERENCE, Ticket, TicketMessage
from services.config import get_config
from services.mail import links_in
from state.i18n import I18nState
from state.service_contact import ServiceContactState
from state.staff_tickets import StaffTicketsState, StaffTicketState
from tests.factories import make_member
from tests.state.conftest import redirects, run, substate
from tests.state.test_likes_state import fresh, logged_in
from tests.unit.test_staff_console_routes import staff_session
from translations.catalog import gettext

MESSAGE = "I bought credits twice by mistake."


def contact(**fields: str) -> dict[str, str]:
    return {"topic": "payments", "message": MESSAGE, "email": "nora@example.com", **fields}


def tickets(db: Session) -> list[Ticket]:
    return list(fresh(db).exec(select(Ticket).order_by(Ticket.id)))


async def form_tab(make_root, locale: str = "en", url: str = "/pages/service"):
    root = make_root(url=url)
    substate(root, I18nState).locale = locale
    form = substate(root, ServiceContactState)
    await run(form.load())
    return form


@pytest.fixture
def sue(db: Session) -> tuple[Member, str]:
    member = make_member(db, "sue@example.com")
    return member, staff_session(db, member, Role.SUPPORT)


async def test_a_visitor_sends_the_form_and_gets_the_receipt(make_root, db, outbox) -> None:
    form = await form_tab(make_root, "nl")
    assert form.member is False
    await run(form.send(contact()))
    await settle()
    (ticket,) = tickets(db)
    assert form.sent_reference == ticket.reference and form.sent_to == "nora@example.com"
    assert (ticket.topic, ticket.locale, ticket.member_id) == ("payments", "nl", None)
    (mail,) = outbox()
    assert ticket.reference in mail["Subject"] and mail["Content-Language"] == "nl"
    assert mail["To"] == "nora@example.com"


async def test_a_member_writes_without_an_address(make_root, db, outbox) -> None:
    anna = make_member(db, "anna@example.com")
    root = await logged_in(make_root, db, anna, "/pages/service")
    form = substate(root, ServiceContactState)
    await run(form.load())
    assert form.member is True
    await run(form.send(contact(email="")))
    (ticket,) = tickets(db)
    assert (ticket.member_id, ticket.email, form.sent_to) == (
        anna.id,
        "anna@example.com",
        "anna@example.com",
    )


async def test_bad_fields_are_shown_in_the_page_language(make_root, db) -> None:
    form = await form_tab(make_root, "de")
    for fields, field in (({"topic": "x" * 99}, "topic"), ({"message": ""}, "message")):
        await run(form.send(contact(**fields)))
        assert list(form.errors) == [field] and form.sent_reference == ""
    await run(form.send(contact(reference="NOPE1234")))
    assert form.errors["reference"] == gettext("de", UNKNOWN_REFERENCE) != UNKNOWN_REFERENCE
    assert tickets(db) == []


async def test_the_receipts_link_fills_the_reference_and_the_follow_up_reopens(
    make_root, db, sue, outbox
) -> None:
    form = await form_tab(make_root)
    await run(form.send(contact()))
    await settle()
    reference = form.sent_reference
    typed = await form_tab(make_root, "fr")  # the reference alone proves nothing
    await run(typed.send(contact(topic="", message="Any news?", reference=reference)))
    assert typed.errors["reference"] == gettext("fr", UNKNOWN_REFERENCE)
    (link,) = (link for link in links_in(outbox()[0]) if "/pages/service" in link)
    follow = await form_tab(make_root, "fr", link.removeprefix(get_config().public_url))
    assert follow.reference == reference and follow.sent_reference == ""
    await run(follow.send(contact(topic="", message="Any news?", reference=follow.reference)))
    assert follow.sent_reference == reference and follow.errors == {}
    (ticket,) = tickets(db)
    assert (ticket.status, ticket.locale) == ("open", "fr")
    count = fresh(db).exec(select(TicketMessage).where(TicketMessage.ticket_id == ticket.id))
    assert len(count.all()) == 2


async def test_the_sixth_message_in_a_quarter_hour_waits(make_root, db) -> None:
    for _ in range(6):
        form = await form_tab(make_root, "sv")
        await run(form.send(contact()))
    assert form.sent_reference == "" and len(tickets(db)) == 5
    assert form.errors[""].startswith(gettext("sv", TOO_MANY_REQUESTS, minutes=99)[:20])


async def test_support_answers_and_closes_a_ticket(make_root, db, sue, outbox) -> None:
    form = await form_tab(make_root, "es")
    await run(form.send(contact()))
    (ticket,) = tickets(db)
    queue = substate(
        make_root(url="/staff/tickets", cookie=f"auth.session={sue[1]}"), StaffTicketsState
    )
    await run(queue.load())
    assert [row["reference"] for row in queue.rows] == [ticket.reference]

    root = make_root(url=f"/staff/tickets/{ticket.id}", cookie=f"auth.session={sue[1]}")
    page = substate(root, StaffTicketState)
    await run(page.load())
    assert page.ticket["reference"] == ticket.reference and len(page.messages) == 1
    await run(page.answer({"answer": " ", "nonce": page.answer_nonce}))
    assert list(page.errors) == ["message"] and len(page.messages) == 1
    submitted = {"answer": "Te hemos devuelto el segundo pago.", "nonce": page.answer_nonce}
    await run(page.answer(submitted))
    await run(page.answer(submitted))  # the same form again: a double click
    await settle()
    assert page.errors == {} and page.ticket["status"] == "answered"
    assert [m["author"] for m in page.messages] == ["member", "staff"]
    assert len(outbox()) == 2  # the receipt and one answer
    answer = outbox()[-1]
    assert answer["Content-Language"] == "es" and ticket.reference in answer["Subject"]

    await run(page.change_status({"status": "closed", "reason": ""}))
    assert list(page.errors) == ["reason"] and page.ticket["status"] == "answered"
    await run(page.change_status({"status": "closed", "reason": "Refunded"}))
    assert page.ticket["status"] == "closed"
    actions = fresh(db).exec(select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert actions == ["tickets.answer", "tickets.status"]


async def test_a_moderator_is_sent_to_verify(make_root, db) -> None:
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    page = substate(
        make_root(url="/staff/tickets/1", cookie=f"auth.session={token}"), StaffTicketState
    )
    events = await run(page.load())
    assert [path.split("?")[0] for path in redirects(events)] == ["/staff/verify"]
    assert page.ticket == {}


async def test_an_unknown_ticket_shows_nothing_found(make_root, db, sue) -> None:
    root = make_root(url="/staff/tickets/999", cookie=f"auth.session={sue[1]}")
    page = substate(root, StaffTicketState)
    await run(page.load())
    assert page.missing and page.ticket == {}
    await run(page.answer({"answer": "Hello", "nonce": page.answer_nonce}))
    assert fresh(db).exec(select(TicketMessage)).all() == []
