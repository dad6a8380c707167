"""Customer service (issue 30) in Chromium against the production build: a visitor's contact form
becomes a ticket and the support answer arrives by mail.

A visitor writes through /pages/service in their language and gets the receipt with the
ticket's reference in it; a support member (made staff by the real command line, enrolled with
TOTP) finds the ticket in /staff/tickets, answers it in English, and the answer arrives by mail
in the visitor's language; the mail's link opens the form with the reference (and the token
that proves the mail arrived) filled in, and the visitor's follow-up joins the thread and
reopens the ticket. Once in English, once in Dutch.
"""

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from journeys import (
    NewPage,
    accept_entry_warning,
    arrive,
    eventually,
    expect,
    mails_to,
    open_page,
    unique_email,
)
from playwright.sync_api import Browser, Page
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select
from staff_login import staff_page
from test_moderation import mail_titled, text_of

from models.tickets import Ticket, TicketMessage
from services.mail import links_in
from services.ticket_mail import ANSWER_SUBJECT, RECEIPT_SUBJECT
from translations.catalog import gettext

QUESTION = "I paid for a bundle an hour ago but my credits have not arrived yet."
ANSWER = "Your payment reached us a little late; the credits are in your account now."
FOLLOW_UP = "Thank you, I can see them now."


@pytest.fixture(scope="module")
def support(site: Server, site_db: Engine, browser: Browser) -> Iterator[Page]:
    """A member made support on the command line, logged in and past the second factor."""
    page = staff_page(site, site_db, browser, "support")
    yield page
    page.context.close()


def ticket_of(engine: Engine, email: str) -> tuple[Ticket, list[str]]:
    """The ticket written from `email` and its thread's authors, the oldest first."""
    with Session(engine) as db:
        ticket = db.exec(select(Ticket).where(Ticket.email == email)).one()
        query = select(TicketMessage.author).where(TicketMessage.ticket_id == ticket.id)
        return ticket, list(db.exec(query.order_by(TicketMessage.id)))


def write(page: Page, message: str, email: str, topic: str = "") -> None:
    form = page.get_by_test_id("contact-form")
    if topic:
        form.get_by_test_id("contact-topic").select_option(topic)
    form.get_by_test_id("contact-message").fill(message)
    form.locator("#field-email").fill(email)
    form.get_by_test_id("contact-send").click()


@pytest.mark.parametrize("locale", ["en", "nl"])
def test_a_visitors_message_becomes_a_ticket_and_the_answer_arrives_by_mail(
    site: Server, new_page: NewPage, site_db: Engine, support: Page, locale: str
) -> None:
    visitor, email = new_page(locale=locale), unique_email("visitor")
    open_page(visitor, site, "/pages/service")
    accept_entry_warning(visitor)
    write(visitor, QUESTION, email, topic="credits")
    expect(visitor.get_by_test_id("contact-sent")).to_be_visible()
    ticket, authors = ticket_of(site_db, email)
    expect(visitor.get_by_test_id("contact-sent")).to_contain_text(ticket.reference)
    assert (ticket.topic, ticket.locale, ticket.status, authors) == (
        "credits",
        locale,
        "open",
        ["member"],
    )
    receipt_subject = gettext(locale, RECEIPT_SUBJECT, reference=ticket.reference)
    receipt = eventually(lambda: mail_titled(site, email, receipt_subject), "the receipt")
    assert QUESTION not in text_of(receipt)  # the reference only: the form relays no text

    # support finds it in the queue and answers from the console, in English
    open_page(support, site, "/staff/tickets")
    support.get_by_test_id("ticket-queue").get_by_role("link", name=ticket.reference).click()
    arrive(support, site, f"/staff/tickets/{ticket.id}")
    expect(support.get_by_test_id("ticket-message")).to_have_count(1)
    expect(support.get_by_test_id("ticket-message")).to_contain_text(QUESTION)
    support.get_by_test_id("ticket-answer").fill(ANSWER)
    support.get_by_test_id("ticket-send-answer").click()
    expect(support.get_by_test_id("ticket-message")).to_have_count(2)
    expect(support.get_by_test_id("ticket-message").last).to_contain_text(ANSWER)

    # the answer arrives in the visitor's language; its link leads back to the form
    answer_subject = gettext(locale, ANSWER_SUBJECT, reference=ticket.reference)
    mail = eventually(lambda: mail_titled(site, email, answer_subject), "the answer")
    assert mail["Content-Language"] == locale and ANSWER in text_of(mail)
    [reply] = [link for link in links_in(mail) if "/pages/service" in link]
    visitor.goto(reply)
    link = urlsplit(reply)
    assert parse_qs(link.query)["reference"] == [ticket.reference]
    arrive(visitor, site, f"{link.path}?{link.query}")  # with the follow-up token
    expect(visitor.locator("#field-reference")).to_have_value(ticket.reference)
    write(visitor, FOLLOW_UP, email)
    expect(visitor.get_by_test_id("contact-sent")).to_contain_text(ticket.reference)
    ticket, authors = ticket_of(site_db, email)
    assert (ticket.status, authors) == ("open", ["member", "staff", "member"])
    # the receipt, the answer and the follow-up's receipt, which is sent after the commit
    mails = eventually(lambda: len(found := mails_to(site, email)) >= 3 and found, "3 mails")
    assert len(mails) == 3
