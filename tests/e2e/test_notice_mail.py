"""Notification e-mail (issue 15) against the production build: A writes to B, who is not on
the site; B gets one mail in B's language that names A and not what A wrote, and its footer
link opens the page that switches notification mails off with one press."""

import pytest
from journeys import (
    NewMember,
    NewPage,
    eventually,
    expect,
    logged_in_page,
    mails_to,
    open_page,
)
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session
from test_chat import bubbles, name_of, send, start_chat, with_credits

from models.member import Member
from services.mail import links_in
from services.notice_mail import MESSAGE_MAIL
from translations.catalog import gettext

DONE = "Done: we no longer send you e-mails about new messages, likes and matches."
SECRET = "Coffee on Saturday at the harbour?"


@pytest.mark.parametrize(("locale_a", "locale_b"), [("en", "nl")])
def test_a_message_to_an_absent_member_is_mailed_once_and_unsubscribed_in_one_press(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    locale_a: str,
    locale_b: str,
) -> None:
    a, b = with_credits(site_db, member(locale_a), 50), member(locale_b)
    page_a = logged_in_page(new_page, site, a)
    start_chat(page_a, site, locale_a, b)
    send(page_a, SECRET)
    [mail] = eventually(lambda: mails_to(site, b.email) or None, "the mail to B")
    send(page_a, "Or Sunday?")  # the same conversation, within the batch window: no second mail
    expect(bubbles(page_a)).to_have_count(2)

    subject = gettext(locale_b, MESSAGE_MAIL.subject, sender=name_of(site_db, a))
    assert str(mail["Subject"]).startswith(subject)
    assert SECRET not in mail.as_string()
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    page_link = next(link for link in links_in(mail) if "/unsubscribe?key=" in link)

    page_b = new_page(locale_b)
    open_page(page_b, site, page_link.removeprefix(site.url))
    page_b.get_by_test_id("unsubscribe-confirm").click()
    expect(page_b.get_by_test_id("unsubscribe-done")).to_have_text(gettext(locale_b, DONE))
    with Session(site_db) as db:
        assert db.get(Member, b.member_id).notifications_disabled == ["unsubscribe"]
    assert len(mails_to(site, b.email)) == 1
    assert page_a.console_errors == [] and page_b.console_errors == []
