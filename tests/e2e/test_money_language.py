"""The money screens in the page's language, not the account's (issue 28): a member whose account
is German reading the site in English on a British browser sees English texts and method names,
prices written the English way, counts grouped, and British dates; a switch of language in place
rewrites them all."""

import re
from datetime import UTC, datetime

from journeys import NewMember, NewPage, log_in, open_page, past_the_welcome_window
from page_texts import foreign_text_in
from playwright.sync_api import Page, expect
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session

from models.member import Member
from models.orders import Order
from models.payment_methods import METHOD_LABELS
from translations.catalog import gettext

ORDERED_AT = datetime(2026, 11, 27, 14, 50, tzinfo=UTC)  # the browser below lives in UTC
SCREENS = {  # each money screen, and what shows once its data arrived
    "/credits": ".method-choice",
    "/credits/p3/creditcard": ".method-choice",
    "/premium": ".bundle-card",
    "/pricing": ".bundle-card",
    "/transactions": ".order-row",
}
ENGLISH_AMOUNT = re.compile(r"€\d{1,3}(?:,\d{3})*\.\d\d")
OTHER_AMOUNT = re.compile(r"\d,\d\d\s?€|€\s\d|\bEUR\b")  # "19,95 €", "€ 19,95"


def _german_account_with_orders(site_db: Engine, member_id: int) -> None:
    """The account speaks German (chosen elsewhere, say on another device), with two orders."""
    with Session(site_db) as db:
        member = db.get(Member, member_id)
        member.language = "de"
        db.add(member)
        for tier, credits, cents, method in (("p3", 1500, 14995, "creditcard"),
                                             ("p1", 250, 3995, "directdebit")):  # fmt: skip
            db.add(
                Order(
                    member_id=member_id,
                    tier=tier,
                    credits=credits,
                    list_cents=cents,
                    amount_cents=cents,
                    currency="EUR",
                    country="NL",
                    method=method,
                    provider="testpay",
                    status="paid",
                    created_at=ORDERED_AT,
                    paid_at=ORDERED_AT,
                    locale="de",
                )
            )
        db.commit()


def _screen_text(page: Page, site: Server, path: str) -> str:
    open_page(page, site, path)
    expect(page.locator(SCREENS[path]).first).to_be_visible()
    return page.locator("main").inner_text()


def _method_names(page: Page) -> set[str]:
    return set(page.locator(".method-choice > span").all_inner_texts())


def test_the_money_screens_follow_the_page_not_the_account(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember
) -> None:
    account = past_the_welcome_window(site_db, member("en"))
    page = new_page(locale="en-GB")
    log_in(page, site, account)
    _german_account_with_orders(site_db, account.member_id)
    english_methods = {gettext("en", label) for label in METHOD_LABELS.values()}

    for path in SCREENS:
        text = _screen_text(page, site, path)
        assert page.evaluate("document.documentElement.lang") == "en", path
        assert foreign_text_in(text, "en", "de") == [], path
        assert ENGLISH_AMOUNT.search(text) and OTHER_AMOUNT.findall(text) == [], path
        assert _method_names(page) <= english_methods, path
        assert "1500" not in text, path  # the largest bundle: "1,500 credits"

    text = _screen_text(page, site, "/transactions")
    assert "1,500 credits" in text and "€149.95" in text and "€39.95" in text
    assert "Credit card" in text and "Direct debit" in text
    assert "27 Nov 2026, 14:50" in text and "Nov 27" not in text  # British, not American

    _screen_text(page, site, "/credits")
    card = METHOD_LABELS["creditcard"]
    assert gettext("en", card) in _method_names(page)
    page.get_by_test_id("language-menu").click()
    page.get_by_test_id("language-fi").click()  # in place: no page load
    expect(page.locator(".method-choice > span", has_text=gettext("fi", card))).to_be_visible()
    expect(page.get_by_test_id("bundle-p3")).to_contain_text(re.compile(r"149,95\s€"))
    expect(page.get_by_test_id("bundle-p3")).to_contain_text(re.compile(r"1\s500"))
    assert foreign_text_in(page.locator("main").inner_text(), "fi", "en") == []
