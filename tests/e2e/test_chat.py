"""Chat journeys (issue 5) in Chromium against the production build, two members in two browser
contexts: a message arrives live with the typing indicator and the unread badge, opening it
clears the badge; a reply from `/chats/{id}` goes over HTTP (app/chat_api.py) and the balance
follows; gifts; running out of credits (over HTTP, refused, then told through the tab's state);
deleting a chat.

Each journey runs once with A in English and B in German and once the other way round, and
every visible text is looked up in the catalogues, so both languages are checked.
"""

import re

import pytest
from journeys import (
    Account,
    NewMember,
    NewPage,
    arrive,
    eventually,
    expect,
    logged_in_page,
    open_page,
)
from playwright.sync_api import Locator, Page, Response
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.chat import ChatSide, Message
from models.credits import grant_credits, ledger_sum
from models.member import Member, Profile
from models.site_settings import SiteSettings
from translations.catalog import gettext
from translations.errors import INSUFFICIENT_CREDITS

MEMBER_LOCALES = [("en", "de"), ("de", "en")]  # (A, B)
SEEDED = SiteSettings()
MESSAGE_CREDITS, GIFT_CREDITS = SEEDED.message_credits, SEEDED.gift_credits

# Interface texts (msgids) of screens whose modules import Reflex, so are not imported here.
TYPING = "{name} is typing…"
WRITE_MY_OWN = "Write my own"
BUY_CREDITS = "Buy credits"
GIFT_PREVIEW = "Gift: {gift}"
RED_ROSE = "Red rose"
NO_CONVERSATIONS = "No conversations yet. Find someone you like and say hello!"


def with_credits(engine: Engine, account: Account, credits: int) -> Account:
    """The member's balance set to exactly `credits` through the ledger."""
    with Session(engine) as db:
        member = db.get(Member, account.member_id)
        if credits > member.credits:
            grant_credits(db, member, credits - member.credits, "test")
        db.commit()
        assert db.get(Member, account.member_id).credits == credits
    return account


def name_of(engine: Engine, account: Account) -> str:
    with Session(engine) as db:
        return db.get(Profile, account.member_id).name


def stored_messages(engine: Engine, sender: Account) -> list[Message]:
    with Session(engine) as db:
        query = select(Message).where(Message.sender_id == sender.member_id)
        return list(db.exec(query.order_by(Message.id)))


def unread_badge(page: Page) -> Locator:
    return page.locator('header a[href="/chats"] [data-testid="badge"]')


def start_chat(page: Page, site: Server, locale: str, partner: Account) -> None:
    """Open the chat with `partner` and put the icebreakers aside."""
    open_page(page, site, f"/members/{partner.member_id}/chat")
    expect(page.get_by_test_id("icebreakers")).to_be_visible()
    page.get_by_role("button", name=gettext(locale, WRITE_MY_OWN)).click()
    expect(page.get_by_test_id("icebreakers")).to_have_count(0)


def send(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def bubbles(page: Page) -> Locator:
    return page.get_by_test_id("message")


def send_over_http(page: Page, text: str) -> int:
    """`send` on /chats/{id}, where the page posts the text: the answer's status."""

    def posted(response: Response) -> bool:
        return response.url.endswith("/api/chat.php") and response.request.method == "POST"

    with page.expect_response(posted) as answer:
        send(page, text)
    return answer.value.status


@pytest.mark.parametrize(("locale_a", "locale_b"), MEMBER_LOCALES)
def test_a_message_arrives_live_and_opening_it_clears_the_badge(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    locale_a: str,
    locale_b: str,
) -> None:
    a, b = with_credits(site_db, member(locale_a), 50), with_credits(site_db, member(locale_b), 50)
    page_a, page_b = logged_in_page(new_page, site, a), logged_in_page(new_page, site, b)
    expect(unread_badge(page_b)).to_have_count(0)

    start_chat(page_a, site, locale_a, b)
    send(page_a, "Hello from A")
    expect(bubbles(page_a)).to_have_text([re.compile("Hello from A")])

    expect(unread_badge(page_b)).to_have_text("1")  # live, on /members, without a reload
    eventually(lambda: page_b.title().startswith("(1) "), "the unread count in B's tab title")
    page_b.locator('header a[href="/chats"]').click()
    arrive(page_b, site, "/chats")
    expect(page_b.get_by_test_id("chat-unread")).to_have_text("1")
    page_b.get_by_test_id("chat-row").click()
    expect(bubbles(page_b)).to_have_text([re.compile("Hello from A")])
    expect(unread_badge(page_b)).to_have_count(0)
    expect(page_b.get_by_test_id("chat-unread")).to_have_count(0)

    page_a.get_by_test_id("chat-input").fill("I am writing someth")
    typing = gettext(locale_b, TYPING, name=name_of(site_db, a))
    expect(page_b.get_by_test_id("typing-indicator")).to_have_text(typing)
    page_a.get_by_test_id("chat-send").click()
    expect(bubbles(page_b)).to_have_count(2)
    expect(bubbles(page_b).last).to_contain_text("I am writing someth")
    expect(page_b.get_by_test_id("chat-row").first).to_contain_text("I am writing someth")
    expect(page_b.get_by_test_id("typing-indicator")).to_have_count(0)
    expect(unread_badge(page_b)).to_have_count(0)  # read at once in the open chat
    assert len(stored_messages(site_db, a)) == 2

    assert send_over_http(page_b, "Reply from B") == 200  # B is on /chats/{id}
    expect(bubbles(page_b)).to_have_count(3)
    expect(bubbles(page_b).last).to_contain_text("Reply from B")
    expect(page_b.get_by_test_id("chat-input")).to_have_value("")
    expect(page_b.get_by_test_id("chat-balance")).to_contain_text(str(50 - MESSAGE_CREDITS))
    expect(bubbles(page_a)).to_have_count(3)
    expect(bubbles(page_a).last).to_contain_text("Reply from B")
    assert [m.body for m in stored_messages(site_db, b)] == ["Reply from B"]
    assert page_a.console_errors == [] and page_b.console_errors == []


@pytest.mark.parametrize(("locale_a", "locale_b"), MEMBER_LOCALES)
def test_gifts_credits_running_out_and_deleting_the_chat(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    locale_a: str,
    locale_b: str,
) -> None:
    a = with_credits(site_db, member(locale_a), GIFT_CREDITS + MESSAGE_CREDITS)
    b = member(locale_b)
    page_a, page_b = logged_in_page(new_page, site, a), logged_in_page(new_page, site, b)
    open_page(page_b, site, "/chats")
    expect(page_b.get_by_test_id("chats-empty")).to_be_visible()

    start_chat(page_a, site, locale_a, b)
    page_a.get_by_test_id("open-gifts").click()
    page_a.get_by_test_id("gift-rose").click()
    expect(page_a.get_by_test_id("gift-picker")).to_have_count(0)
    expect(bubbles(page_a)).to_have_text([re.compile(gettext(locale_a, RED_ROSE))])
    gift_line = gettext(locale_b, GIFT_PREVIEW, gift=gettext(locale_b, RED_ROSE))
    expect(page_b.get_by_test_id("chat-row")).to_contain_text(gift_line)  # B's list, live
    send(page_a, "Do you like roses?")
    expect(bubbles(page_a)).to_have_count(2)
    expect(page_b.get_by_test_id("chat-row")).to_contain_text("Do you like roses?")
    expect(page_a.get_by_test_id("chat-balance")).to_contain_text("0")

    conversation_id = stored_messages(site_db, a)[0].conversation_id
    open_page(page_a, site, f"/chats/{conversation_id}")
    assert send_over_http(page_a, "One more?") == 409  # then through the tab's state
    error = page_a.get_by_test_id("chat-error")
    expect(error).to_contain_text(gettext(locale_a, INSUFFICIENT_CREDITS))
    expect(error.get_by_role("link", name=gettext(locale_a, BUY_CREDITS))).to_have_attribute(
        "href", "/credits"
    )
    expect(bubbles(page_a)).to_have_count(2)
    assert [m.kind for m in stored_messages(site_db, a)] == ["gift", "text"]
    with Session(site_db) as db:
        assert db.get(Member, a.member_id).credits == 0 == ledger_sum(db, a.member_id)

    page_b.get_by_test_id("chat-row").click()
    expect(bubbles(page_b).first).to_contain_text(gettext(locale_b, RED_ROSE))

    page_a.get_by_test_id("delete-chat").click()
    page_a.get_by_test_id("confirm-delete-chat").click()
    arrive(page_a, site, "/chats")
    expect(page_a.get_by_text(gettext(locale_a, NO_CONVERSATIONS))).to_be_visible()
    with Session(site_db) as db:
        assert db.get(ChatSide, (conversation_id, a.member_id)).removed
        assert not db.get(ChatSide, (conversation_id, b.member_id)).removed
    expect(page_b.get_by_test_id("chat-row")).to_have_count(1)  # still there for B
