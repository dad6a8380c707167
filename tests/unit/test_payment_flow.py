"""Buying credits end to end below the browser: our checkout and webhook route against the
built-in test provider (the real Mollie client talking to it in process), on SQLite and
PostgreSQL. Numbers are the spec's and the issue's: TIMEBONUS25 is 25 %, refunds pro rata."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from actions.payment_flow import (
    order_status,
    resubmit_refunds,
    start_checkout,
    sync_payment,
    withdraw,
)
from actions.payment_reads import credits_offer, orders_of
from actions.refunds import refund_refused
from actions.runner import act, read
from actions.viewer import Viewer
from models.credits import CreditEntry, grant_credits, ledger_sum
from models.discount_codes import DiscountCode, DiscountRedemption
from models.member import Member, utcnow
from models.orders import Order, OrderRefund
from services.mail import outbox_messages
from services.payments.types import ProviderError
from tests.factories import make_member
from tests.payments_fixtures import Shop
from translations.errors import (
    DISCOUNT_CODE_IN_USE,
    DISCOUNT_CODE_USED,
    GENERIC_ERROR,
    PAYMENT_FAILED,
    REFUND_NOT_POSSIBLE,
)

P1_EUR = 3995  # the p1 bundle's list price in euros, in cents (models/site_settings defaults)


def _viewer(member: Member, language: str = "en") -> Viewer:
    return Viewer(member.id, member.status, language, member.paid_user)


def _member(db: Session, **fields) -> Member:
    """A member past the welcome window, so no time bonus applies unless a test wants one."""
    return make_member(db, signup_date=utcnow() - timedelta(days=2), **fields)


def _fresh(db: Session, model, key):
    db.expire_all()
    return db.get(model, key)


async def test_a_paid_checkout_grants_the_bundle_once_and_makes_a_premium_member(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    grant_credits(db, member, 10, "signup")
    db.commit()
    started = await start_checkout(_viewer(member), "p1", "ideal", "NL", None)
    assert started.error == "" and "/testpay/checkout/" in started.checkout_url

    back = await shop.pay(started.checkout_url, webhook="twice")
    assert back.endswith(f"/transactions/{started.order_id}")
    order = _fresh(db, Order, started.order_id)
    assert (order.status, order.amount_cents, order.currency) == ("paid", P1_EUR, "EUR")
    member = _fresh(db, Member, member.id)
    assert member.paid_user and member.credits == 10 + order.credits
    assert ledger_sum(db, member.id) == member.credits
    assert await sync_payment(order.provider_payment_id) is False  # a replay changes nothing
    assert _fresh(db, Member, member.id).credits == 10 + order.credits
    receipts = [m for m in outbox_messages() if "A-" in m["Subject"]]
    assert len(receipts) == 1 and member.email in receipts[0]["To"]


async def test_a_failed_payment_grants_nothing_and_says_payment_failed(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    started = await start_checkout(_viewer(member), "p0", "creditcard", "NL", None)
    await shop.pay(started.checkout_url, "failed")
    view = await order_status(_viewer(member), started.order_id)
    assert view is not None and view.status == "failed"
    assert _fresh(db, Member, member.id).credits == 0
    assert not _fresh(db, Member, member.id).paid_user


async def test_a_pending_payment_settles_when_the_late_webhook_lands(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p0", "creditcard", "NL", None)
    await shop.pay(started.checkout_url, "pending")
    assert (await order_status(viewer, started.order_id)).status == "pending"
    payment_id = _fresh(db, Order, started.order_id).provider_payment_id
    control = f"/testpay/v2/payments/{payment_id}/test-outcome"
    answer = await shop.browser.post(
        control,
        json={"status": "paid", "webhook": "late"},
        headers={"Authorization": "Bearer test_builtin"},
    )
    assert answer.status_code == 200
    await shop.provider.webhooks.drain()
    await settle()
    assert (await order_status(viewer, started.order_id)).status == "paid"


async def test_someone_elses_order_is_invisible_and_cannot_be_withdrawn(
    db: Session, shop: Shop
) -> None:
    buyer, other = _member(db), _member(db, email="bob@example.com")
    started = await start_checkout(_viewer(buyer), "p0", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    assert await order_status(_viewer(other), started.order_id) is None
    assert await withdraw(_viewer(other), started.order_id) == REFUND_NOT_POSSIBLE
    assert _fresh(db, Member, buyer.id).credits == _fresh(db, Order, started.order_id).credits


async def test_a_method_the_provider_does_not_offer_there_is_refused(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    refused = await start_checkout(_viewer(member), "p0", "ideal", "DE", None)  # iDEAL: NL only
    assert refused.error == PAYMENT_FAILED
    assert db.exec(select(Order)).all() == []


async def test_the_time_bonus_takes_25_percent_and_ends_with_the_payment(
    db: Session, shop: Shop
) -> None:
    member = make_member(db, time_bonus_until=utcnow() + timedelta(hours=1))
    started = await start_checkout(_viewer(member), "p1", "ideal", "NL", None)
    order = _fresh(db, Order, started.order_id)
    assert (order.discount_code, order.discount_percentage) == ("TIMEBONUS25", 25)
    assert order.amount_cents == 2996  # 39.95 less 25 %, half up to the cent
    await shop.pay(started.checkout_url)
    member = _fresh(db, Member, member.id)
    assert member.time_bonus_until is None and member.paid_user
    assert len(db.exec(select(DiscountRedemption)).all()) == 1


async def test_a_code_is_redeemed_only_once_paid_and_then_refused(db: Session, shop: Shop) -> None:
    member = _member(db)
    db.add(
        DiscountCode(code="SPRING20", value_percentage=20, expires_at=utcnow() + timedelta(days=9))
    )
    db.commit()
    viewer = _viewer(member)
    unpaid = await start_checkout(viewer, "p1", "ideal", "NL", "spring20")
    await shop.pay(unpaid.checkout_url, "canceled")
    assert db.exec(select(DiscountRedemption)).all() == []
    paid = await start_checkout(viewer, "p1", "ideal", "NL", "SPRING20")
    assert _fresh(db, Order, paid.order_id).amount_cents == 3196  # 39.95 less 20 %
    await shop.pay(paid.checkout_url)
    again = await start_checkout(viewer, "p1", "ideal", "NL", "SPRING20")
    assert again.error == DISCOUNT_CODE_USED


async def test_a_withdrawal_refunds_the_unused_credits_pro_rata(db: Session, shop: Shop) -> None:
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    spent = order.credits // 4
    _spend(db, member.id, spent)
    [view] = await read(orders_of, viewer)
    assert view.refundable and view.refund_credits == order.credits - spent

    assert await withdraw(viewer, order.id) == ""
    refund = db.exec(select(OrderRefund)).one()
    assert refund.amount_cents == P1_EUR * (order.credits - spent) // order.credits
    assert _fresh(db, Member, member.id).credits == 0
    assert ledger_sum(db, member.id) == 0
    assert await withdraw(viewer, order.id) == REFUND_NOT_POSSIBLE  # one at a time

    shop.provider.clock.advance(seconds=10)  # the provider pays the refund out
    await sync_payment(order.provider_payment_id)
    assert _fresh(db, Order, order.id).status == "refunded"
    assert _fresh(db, OrderRefund, refund.id).status == "refunded"


async def test_no_withdrawal_after_refund_days(db: Session, shop: Shop) -> None:
    member = _member(db)
    started = await start_checkout(_viewer(member), "p0", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    order.paid_at = utcnow() - timedelta(days=15)  # refund_days is 14 by default
    db.add(order)
    db.commit()
    assert await withdraw(_viewer(member), order.id) == REFUND_NOT_POSSIBLE
    assert _fresh(db, Member, member.id).credits == order.credits


async def test_a_chargeback_claws_back_what_is_left(db: Session, shop: Shop) -> None:
    member = _member(db)
    started = await start_checkout(_viewer(member), "p0", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    _spend(db, member.id, 5)
    answer = await shop.browser.post(
        f"/testpay/v2/payments/{order.provider_payment_id}/test-chargeback",
        headers={"Authorization": "Bearer test_builtin"},
    )
    assert answer.status_code == 200
    await shop.provider.webhooks.drain()
    await settle()
    assert _fresh(db, Order, order.id).status == "charged_back"
    assert _fresh(db, Member, member.id).credits == 0
    assert ledger_sum(db, member.id) == 0


async def test_the_offer_prices_every_bundle_in_the_members_currency(db: Session) -> None:
    member = _member(db)
    offer = await read(credits_offer, _viewer(member, "sv"), "SE", None)
    assert offer.currency == "SEK" and [b.tier for b in offer.bundles] == ["p0", "p1", "p2", "p3"]
    assert sum(b.popular for b in offer.bundles) == 1
    assert {b.currency for b in offer.bundles} == {"SEK"} and offer.discount is None


def _spend(db: Session, member_id: int, credits: int) -> None:
    member = _fresh(db, Member, member_id)
    member.credits -= credits
    db.add_all([member, CreditEntry(member_id=member_id, amount=-credits, reason="message")])
    db.commit()


async def test_a_once_per_member_discount_is_held_by_one_open_order_at_a_time(
    db: Session, shop: Shop
) -> None:
    member = make_member(db, time_bonus_until=utcnow() + timedelta(hours=1))
    viewer = _viewer(member)
    first = await start_checkout(viewer, "p3", "ideal", "NL", None)
    assert _fresh(db, Order, first.order_id).discount_code == "TIMEBONUS25"
    second = await start_checkout(viewer, "p3", "ideal", "NL", None)
    assert second.error == DISCOUNT_CODE_IN_USE and len(db.exec(select(Order)).all()) == 1
    await shop.pay(first.checkout_url, "canceled")
    third = await start_checkout(viewer, "p3", "ideal", "NL", None)
    assert third.error == "" and _fresh(db, Order, third.order_id).discount_percentage == 25


async def test_a_refund_without_an_answer_keeps_its_credits_and_is_asked_for_again(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    create_refund = shop.client.create_refund

    async def no_answer(*args, **kwargs):
        raise ProviderError(0, "No answer", "timeout")

    monkeypatch.setattr(shop.client, "create_refund", no_answer)
    assert await withdraw(viewer, started.order_id) == ""
    refund = db.exec(select(OrderRefund)).one()
    assert (refund.status, refund.provider_refund_id) == ("queued", None)
    assert _fresh(db, Member, member.id).credits == 0  # taken, and not given back

    monkeypatch.setattr(shop.client, "create_refund", create_refund)
    await resubmit_refunds()
    assert _fresh(db, OrderRefund, refund.id).provider_refund_id is not None
    shop.provider.clock.advance(seconds=10)
    await sync_payment(_fresh(db, Order, started.order_id).provider_payment_id)
    assert _fresh(db, Order, started.order_id).status == "refunded"


async def test_a_refused_refund_gives_the_credits_back_and_may_be_asked_again(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p0", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    credits = _fresh(db, Order, started.order_id).credits
    create_refund = shop.client.create_refund

    async def refused(*args, **kwargs):
        raise ProviderError(422, "Unprocessable Entity", "refunds are off")

    monkeypatch.setattr(shop.client, "create_refund", refused)
    assert await withdraw(viewer, started.order_id) == GENERIC_ERROR
    assert _fresh(db, Member, member.id).credits == credits
    monkeypatch.setattr(shop.client, "create_refund", create_refund)
    assert await withdraw(viewer, started.order_id) == ""
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)


async def test_a_refund_failing_after_a_chargeback_gives_nothing_back(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p0", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    _spend(db, member.id, 50)  # half used: the refund is half the price, the rest charged back
    assert await withdraw(viewer, started.order_id) == ""
    order = _fresh(db, Order, started.order_id)
    answer = await shop.browser.post(
        f"/testpay/v2/payments/{order.provider_payment_id}/test-chargeback",
        headers={"Authorization": "Bearer test_builtin"},
    )
    assert answer.status_code == 200, answer.text
    await shop.provider.webhooks.drain()
    await settle()
    refund = db.exec(select(OrderRefund)).one()
    await act(refund_refused, refund.id)
    assert _fresh(db, Order, order.id).status == "charged_back"
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)


async def _refund_at_provider(shop: Shop, payment_id: str, cents: int) -> None:
    """A refund made outside the site (Mollie's dashboard): the provider's own refunds endpoint;
    its webhook delivered to our route and the effects dispatched."""
    answer = await shop.browser.post(
        f"/testpay/v2/payments/{payment_id}/refunds",
        json={"amount": {"currency": "EUR", "value": f"{cents / 100:.2f}"}, "description": "x"},
        headers={"Authorization": "Bearer test_builtin"},
    )
    assert answer.status_code == 201, answer.text
    await shop.provider.webhooks.drain()
    await settle()


async def _refunds_paid_out(shop: Shop) -> None:
    """The provider pays queued refunds out (its sweeper), with their webhooks."""
    shop.provider.clock.advance(seconds=10)
    await shop.provider.sweep()
    await shop.provider.webhooks.drain()
    await settle()


def _refund_entries(db: Session, member_id: int) -> list[int]:
    query = select(CreditEntry.amount).where(
        CreditEntry.member_id == member_id, CreditEntry.reason == "refund"
    )
    return list(db.exec(query))


async def test_a_full_refund_made_at_the_provider_takes_the_credits_back_once(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    grant_credits(db, member, 20, "signup")
    db.commit()
    started = await start_checkout(_viewer(member), "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    _spend(db, member.id, 30)  # 240 left: 20 of signup, 220 of the purchase at the least

    await _refund_at_provider(shop, order.provider_payment_id, P1_EUR)
    assert _fresh(db, Member, member.id).credits == 0  # what is left of the 250, at once
    refund = db.exec(select(OrderRefund)).one()
    assert (refund.requested_by, refund.status, refund.credits_taken) == ("provider", "queued", 240)
    assert refund.amount_cents == P1_EUR
    assert _fresh(db, Order, order.id).status == "paid"  # until the money went back

    await _refunds_paid_out(shop)
    assert _fresh(db, Order, order.id).status == "refunded"
    assert _fresh(db, OrderRefund, refund.id).status == "refunded"
    for _ in range(3):  # the provider calls again: nothing more happens
        assert await sync_payment(order.provider_payment_id) is False
    assert _refund_entries(db, member.id) == [-240]
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)
    [view] = await read(orders_of, _viewer(member))
    assert (view.status, view.refundable, view.refund_status) == ("refunded", False, "refunded")


async def test_a_part_refunded_at_the_provider_takes_its_share_and_the_rest_can_be_withdrawn(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)

    await _refund_at_provider(shop, order.provider_payment_id, 1000)  # 10.00 of 39.95
    await _refunds_paid_out(shop)
    # 10.00 is worth 62.6 of the 250 credits: 63, the fewest whose pro rata covers it
    assert _fresh(db, Member, member.id).credits == 250 - 63 == ledger_sum(db, member.id)
    assert _fresh(db, Order, order.id).status == "paid"  # partly refunded: still paid
    [view] = await read(orders_of, viewer)
    assert view.refundable and view.refund_credits == 187

    assert await withdraw(viewer, order.id) == ""
    await _refunds_paid_out(shop)
    refunds = db.exec(select(OrderRefund).order_by(OrderRefund.id)).all()
    assert [r.amount_cents for r in refunds] == [1000, P1_EUR * 187 // 250]
    assert sum(r.amount_cents for r in refunds) <= P1_EUR
    assert _fresh(db, Order, order.id).status == "refunded"
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)


async def test_a_refund_at_the_provider_after_the_credits_were_spent_takes_nothing(
    db: Session, shop: Shop
) -> None:
    member = _member(db)
    started = await start_checkout(_viewer(member), "p0", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    _spend(db, member.id, order.credits)
    await _refund_at_provider(shop, order.provider_payment_id, 1995)
    await _refunds_paid_out(shop)
    assert _fresh(db, Order, order.id).status == "refunded"
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)
    assert db.exec(select(OrderRefund)).one().credits_taken == 0


async def test_our_refund_whose_answer_was_lost_is_not_taken_for_one_made_at_the_provider(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The provider made our refund (and called the webhook) but its answer never reached us:
    the webhook's refund is ours, the credits are taken once, asking again links it."""
    member = _member(db)
    viewer = _viewer(member)
    started = await start_checkout(viewer, "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    create_refund = shop.client.create_refund

    async def answer_lost(*args, **kwargs):
        await create_refund(*args, **kwargs)
        raise ProviderError(0, "No answer", "timeout")

    monkeypatch.setattr(shop.client, "create_refund", answer_lost)
    assert await withdraw(viewer, started.order_id) == ""
    await shop.provider.webhooks.drain()
    await settle()
    refund = db.exec(select(OrderRefund)).one()
    assert refund.requested_by == "member" and refund.provider_refund_id is not None
    monkeypatch.setattr(shop.client, "create_refund", create_refund)
    await resubmit_refunds()
    await _refunds_paid_out(shop)
    assert len(db.exec(select(OrderRefund)).all()) == 1
    assert _refund_entries(db, member.id) == [-250]
    assert _fresh(db, Order, started.order_id).status == "refunded"
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)


async def _unheard_payment(
    db: Session, shop: Shop, member: Member, monkeypatch: pytest.MonkeyPatch
) -> Order:
    """A p1 order paid at the provider whose paid webhook never came (still open here)."""
    started = await start_checkout(_viewer(member), "p1", "ideal", "NL", None)
    with monkeypatch.context() as lost:
        lost.setattr(shop.provider.webhooks, "_deliver", _nowhere)
        await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    assert order.status == "open"
    return order


async def test_first_fetch_paid_with_a_pending_refund_grants_then_takes_the_credits_back(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first we hear of a payment is its refund's webhook: the bundle is granted and then
    what the refund stands for taken back, never the other way round."""
    member = _member(db)
    order = await _unheard_payment(db, shop, member, monkeypatch)

    await _refund_at_provider(shop, order.provider_payment_id, P1_EUR)
    assert _fresh(db, Member, member.id).credits == 0
    assert db.exec(select(OrderRefund)).one().credits_taken == 250
    await _refunds_paid_out(shop)
    assert _fresh(db, Order, order.id).status == "refunded"
    assert _refund_entries(db, member.id) == [-250]
    assert _fresh(db, Member, member.id).credits == 0 == ledger_sum(db, member.id)


async def test_first_fetch_paid_with_a_refund_paid_out_takes_only_this_purchase(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refund was paid out before any webhook reached us: the order ends refunded, its own
    250 credits go and the member's 100 credits of another purchase stay."""
    member = _member(db)
    grant_credits(db, member, 100, "purchase")
    db.commit()
    order = await _unheard_payment(db, shop, member, monkeypatch)
    with monkeypatch.context() as lost:
        lost.setattr(shop.provider.webhooks, "_deliver", _nowhere)
        await _refund_at_provider(shop, order.provider_payment_id, P1_EUR)
    assert _fresh(db, Order, order.id).status == "open"  # its webhook was lost too

    await _refunds_paid_out(shop)
    assert _fresh(db, Order, order.id).status == "refunded"
    assert _refund_entries(db, member.id) == [-250]
    assert _fresh(db, Member, member.id).credits == 100 == ledger_sum(db, member.id)
    [view] = await read(orders_of, _viewer(member))
    assert (view.status, view.refundable) == ("refunded", False)


async def _nowhere(url: str, payment_id: str) -> None:
    """A webhook delivery that never arrives."""
