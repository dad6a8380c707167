"""Buying credits in the browser journeys: a bundle bought through the built-in test provider's
checkout page, the orders and the balance it leaves, and a withdrawal's refund."""

import re

from journeys import Account, arrive, eventually, expect, open_page
from playwright.sync_api import Page
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.credits import CreditEntry
from models.member import Member
from models.orders import Order, OrderRefund


def orders_of(engine: Engine, account: Account) -> list[Order]:
    with Session(engine) as db:
        query = select(Order).where(Order.member_id == account.member_id).order_by(Order.id)
        return list(db.exec(query))


def member_of(engine: Engine, account: Account) -> Member:
    with Session(engine, expire_on_commit=False) as db:
        return db.get(Member, account.member_id)


def choose(page: Page, tier: str, method: str) -> None:
    """On /credits: the bundle, then the method, then pay."""
    page.get_by_test_id(f"bundle-{tier}").click()
    page.get_by_test_id(f"method-{method}").click()
    page.get_by_test_id("buy-button").click()


def checkout(page: Page, outcome: str, webhook: str = "before") -> None:
    """On the test provider's page: pick the outcome and when its webhook comes."""
    page.wait_for_url(re.compile(r".*/testpay/checkout/tr_\w+"))
    page.locator(f'input[name="outcome"][value="{outcome}"]').check()
    page.locator(f'input[name="webhook"][value="{webhook}"]').check()
    page.locator('button[type="submit"]').click()


def on_result_page(page: Page, site: Server, engine: Engine, account: Account) -> Order:
    order = orders_of(engine, account)[-1]
    arrive(page, site, f"/transactions/{order.id}")
    return order


def buy(
    page: Page,
    site: Server,
    engine: Engine,
    buyer: Account,
    tier: str,
    method: str,
    outcome: str = "paid",
) -> Order:
    """From /credits through the provider's page back to the order's result page."""
    open_page(page, site, "/credits")
    choose(page, tier, method)
    checkout(page, outcome)
    return on_result_page(page, site, engine, buyer)


def result_phase(page: Page, phase: str) -> None:
    expect(page.get_by_test_id("payment-result")).to_have_attribute("data-phase", phase)


def paid_and_spent_a_fifth(
    page: Page, site: Server, engine: Engine, buyer: Account
) -> tuple[Order, int]:
    """The buyer pays bundle p1 by iDEAL and spends a fifth of its credits on messages (written
    into the ledger as the chat books them); the order and its credits left unused, which a
    withdrawal refunds."""
    order = buy(page, site, engine, buyer, "p1", "ideal", "paid")
    result_phase(page, "completed")
    spent = order.credits // 5
    with Session(engine) as db:
        row = db.get(Member, buyer.member_id)
        row.credits -= spent
        db.add_all([row, CreditEntry(member_id=row.id, amount=-spent, reason="text")])
        db.commit()
    return order, order.credits - spent


def refund_of(engine: Engine, order: Order) -> OrderRefund | None:
    with Session(engine) as db:
        return db.exec(select(OrderRefund).where(OrderRefund.order_id == order.id)).first()


def refunded(engine: Engine, buyer: Account, order: Order) -> None:
    """Wait until the provider paid the order's refund out and the order shows refunded."""
    eventually(lambda: refund_of(engine, order).status == "refunded", "the refund paid out")
    eventually(lambda: orders_of(engine, buyer)[-1].status == "refunded", "the order refunded")
