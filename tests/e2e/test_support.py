"""The support tools (issue 30) in Chromium against the production build: a support member
finds a buyer by order number, withdraws the order with the pro-rata refund, and the member's
/transactions shows it.

The buyer pays a bundle through the built-in test provider and spends a fifth of it; a member
made support by the real command line and enrolled with TOTP searches /staff/support by the
order number, opens the account, chooses the withdrawal with a reason, and the refund of the
unused credits goes to the provider (the audit log keeps the reason); the buyer's /transactions
then shows the order refunded with the amount. The console is also photographed at desktop
width and at 375 px (H1_SCREENSHOTS names a folder to keep them)."""

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from journeys import (
    NewMember,
    NewPage,
    arrive,
    eventually,
    expect,
    logged_in_page,
    open_page,
    past_the_welcome_window,
)
from playwright.sync_api import Browser, Page
from purchases import member_of, paid_and_spent_a_fifth, refund_of, refunded
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select
from staff_login import staff_page

from models.audit import AuditEntry
from models.orders import order_number

REASON = "The member withdrew by e-mail within the withdrawal period."


@pytest.fixture(scope="module")
def support(site: Server, site_db: Engine, browser: Browser) -> Iterator[Page]:
    """A member made support on the command line, logged in and past the second factor."""
    page = staff_page(site, site_db, browser, "support")
    yield page
    page.context.close()


def photograph(page: Page, tmp_path: Path, name: str) -> None:
    """The page at desktop width and at 375 px, whole."""
    folder = Path(os.environ.get("H1_SCREENSHOTS") or tmp_path)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=folder / f"{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_support_finds_a_buyer_by_order_number_and_withdraws_the_order(
    site: Server,
    new_page: NewPage,
    site_db: Engine,
    member: NewMember,
    support: Page,
    tmp_path: Path,
) -> None:
    buyer = past_the_welcome_window(site_db, member("en"))
    shop = logged_in_page(new_page, site, buyer)
    order, unused = paid_and_spent_a_fifth(shop, site, site_db, buyer)

    open_page(support, site, "/staff/support")
    search = support.get_by_test_id("support-search")
    search.locator("#field-key").select_option("order")
    search.get_by_test_id("query").fill(order_number(order.id))
    search.get_by_test_id("search").click()
    found = support.get_by_test_id("support-found").locator("tbody tr")
    expect(found).to_have_count(1)
    expect(found).to_contain_text(buyer.email)
    found.get_by_role("link").click()
    arrive(support, site, f"/staff/support/members/{buyer.member_id}")
    expect(support.get_by_test_id("support-orders")).to_contain_text(order_number(order.id))
    photograph(support, tmp_path, "support-member")

    form = support.get_by_test_id("support-form")
    form.locator("#field-action").select_option("withdraw")
    form.locator("#field-order").select_option(str(order.id))
    form.locator("textarea[name=reason]").fill(REASON)
    form.get_by_test_id("support-act").click()
    expect(support.get_by_test_id("support-done")).to_be_visible()
    expect(support.get_by_test_id("member-credits")).to_have_text("0")

    made = eventually(lambda: refund_of(site_db, order), "the refund")
    cents = order.amount_cents * unused // order.credits
    assert (made.credits_taken, made.amount_cents, made.requested_by) == (unused, cents, "support")
    assert member_of(site_db, buyer).credits == 0
    with Session(site_db) as db:
        audit = db.exec(select(AuditEntry).where(AuditEntry.action == "support.withdraw")).one()
    assert (audit.target_id, audit.reason) == (order.id, REASON)
    refunded(site_db, buyer, order)

    open_page(shop, site, "/transactions")
    row = shop.get_by_test_id(f"order-{order.id}")
    expect(row.locator(".order-status")).to_have_text("Refunded")
    amount = f"€{cents // 100}.{cents % 100:02d}"
    expect(row.locator(".order-refund")).to_have_text(re.compile(rf"{re.escape(amount)} refunded"))
    expect(shop.get_by_test_id(f"withdraw-{order.id}")).to_have_count(0)

    open_page(support, site, "/staff/support")
    photograph(support, tmp_path, "support-search")
