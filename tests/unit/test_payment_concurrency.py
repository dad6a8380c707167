"""Payments under concurrency on PostgreSQL: webhooks replayed at once grant once (and take a
refund made at the provider back once), a hundred members paying at once each get exactly
their bundle, the ledger sums to every balance."""

import asyncio

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from actions.payment_flow import start_checkout, sync_payment
from actions.viewer import Viewer
from models.credits import CreditEntry, ledger_sum
from models.member import Member, utcnow
from models.orders import Order
from services.payments.provider import TEST_PROVIDER_KEY
from services.payments.test_provider import store as testpay_store
from tests.factories import make_member
from tests.payments_fixtures import Shop

REPLAYS = 5
MEMBERS = 100


@pytest.fixture(autouse=True)
def postgres_only(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("row locks and concurrent transactions: PostgreSQL")


async def _checkout(member: Member, tier: str) -> int:
    viewer = Viewer(member.id, member.status, "en", member.paid_user)
    started = await start_checkout(viewer, tier, "creditcard", "NL", None)
    assert started.error == ""
    return started.order_id


async def _mark_paid(shop: Shop, db: Session, order_id: int) -> str:
    payment_id = db.get(Order, order_id).provider_payment_id
    answer = await shop.browser.post(
        f"/testpay/v2/payments/{payment_id}/test-outcome",
        json={"status": "paid", "webhook": "none"},
        headers={"Authorization": f"Bearer {TEST_PROVIDER_KEY}"},
    )
    assert answer.status_code == 200
    return payment_id


async def test_a_webhook_replayed_five_times_at_once_grants_once(db: Session, shop: Shop) -> None:
    member = make_member(db)
    order_id = await _checkout(member, "p2")
    payment_id = await _mark_paid(shop, db, order_id)
    changed = await asyncio.gather(*(sync_payment(payment_id) for _ in range(REPLAYS)))
    assert changed.count(True) == 1
    db.expire_all()
    credits = db.get(Order, order_id).credits
    assert db.get(Member, member.id).credits == credits == ledger_sum(db, member.id)


async def test_a_refund_made_at_the_provider_replayed_at_once_takes_back_once(
    db: Session, shop: Shop
) -> None:
    member = make_member(db)
    order_id = await _checkout(member, "p2")
    payment_id = await _mark_paid(shop, db, order_id)
    assert await sync_payment(payment_id) is True
    # made in the provider's books, its webhook yet to come: then it comes five times at once
    refund = testpay_store.refund(payment_id, 7995, "dashboard", None, utcnow())
    assert refund.new
    changed = await asyncio.gather(*(sync_payment(payment_id) for _ in range(REPLAYS)))
    assert changed.count(True) == 1
    db.expire_all()
    taken = db.exec(select(CreditEntry).where(CreditEntry.reason == "refund")).all()
    assert [entry.amount for entry in taken] == [-db.get(Order, order_id).credits]
    assert db.get(Member, member.id).credits == 0 == ledger_sum(db, member.id)


async def test_a_hundred_members_paying_at_once_each_get_their_bundle(
    db: Session, shop: Shop
) -> None:
    members = [make_member(db, f"m{n}@example.com") for n in range(MEMBERS)]
    tiers = [f"p{n % 4}" for n in range(MEMBERS)]
    orders = await asyncio.gather(*(_checkout(m, t) for m, t in zip(members, tiers, strict=True)))
    payments = [await _mark_paid(shop, db, order_id) for order_id in orders]
    await asyncio.gather(*(sync_payment(p) for p in payments for _ in range(REPLAYS)))
    db.expire_all()
    by_member = {o.member_id: o for o in db.exec(select(Order))}
    for member in members:
        balance = db.get(Member, member.id).credits
        assert by_member[member.id].status == "paid"
        assert balance == by_member[member.id].credits == ledger_sum(db, member.id)
