"""The payments queue of support and the hourly follow-up of refunds (docs/payments-queue.md),
against the built-in test provider, on SQLite and PostgreSQL: refunds the provider never
answered are listed after an hour (or unsettled after a day), orders still open after an hour
or pending after a week, chargebacks newest first; "ask the provider" applies the provider's
answer as the webhook does, with an audit row only when something changed; the follow-up asks
about refunds a day old and flags those open a week, which then lead the queue; it runs at a
worker's start and then hourly, one round at a time across the workers."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from actions.payment_checks import FETCH_ACTION, FetchOutcome, fetch_provider_state
from actions.payment_flow import start_checkout, withdraw
from actions.payment_queue import QueueKind, payments_page
from actions.refund_follow_up import follow_up_refunds
from actions.staff_viewer import StaffViewer
from actions.viewer import Viewer
from models.audit import AuditEntry
from models.member import Member, as_utc, utcnow
from models.orders import Order, OrderRefund, order_number
from models.staff import Role
from services.payments.types import ProviderError
from tests.factories import make_member
from tests.payments_fixtures import AUTHORISED, Shop

MINUTE, HOUR, DAY = timedelta(minutes=1), timedelta(hours=1), timedelta(days=1)


def _viewer(member: Member) -> Viewer:
    return Viewer(member.id, member.status, "en", member.paid_user)


def _support(db: Session) -> StaffViewer:
    staff = make_member(db, "support@example.com")
    return StaffViewer(staff.id, Role.SUPPORT, frozenset({Role.SUPPORT}), "en", "192.0.2.7")


def _fresh(db: Session, model, key):
    db.expire_all()
    return db.get(model, key)


def _backdate(db: Session, row: Order | OrderRefund, age: timedelta) -> None:
    row = _fresh(db, type(row), row.id)
    row.created_at = utcnow() - age
    db.add(row)
    db.commit()


async def _nowhere(url: str, payment_id: str) -> None:
    """A webhook delivery that never arrives."""


async def _paid(db: Session, shop: Shop, email: str = "anna@example.com") -> Order:
    member = make_member(db, email, signup_date=utcnow() - timedelta(days=2))
    started = await start_checkout(_viewer(member), "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    return _fresh(db, Order, started.order_id)


async def _unanswered_refund(
    db: Session,
    shop: Shop,
    monkeypatch: pytest.MonkeyPatch,
    *,
    received: bool,
    email: str = "anna@example.com",
) -> OrderRefund:
    """A withdrawal whose refund request got no answer; the provider made the refund if
    `received` (and its webhook never came either)."""
    order = await _paid(db, shop, email)
    create_refund = shop.client.create_refund

    async def no_answer(*args, **kwargs):
        if received:
            await create_refund(*args, **kwargs)
        raise ProviderError(0, "No answer", "timeout")

    with monkeypatch.context() as lost:
        lost.setattr(shop.client, "create_refund", no_answer)
        lost.setattr(shop.provider.webhooks, "_deliver", _nowhere)
        member = _fresh(db, Member, order.member_id)
        assert await withdraw(_viewer(member), order.id) == ""
        await shop.provider.webhooks.drain()
    refund = db.exec(select(OrderRefund).where(OrderRefund.order_id == order.id)).one()
    assert (refund.status, refund.provider_refund_id) == ("queued", None)
    return refund


def _listed(kind: QueueKind, page: int = 1) -> list[dict]:
    return payments_page(kind, page, utcnow()).rows


def _audits(db: Session) -> list[AuditEntry]:
    return list(db.exec(select(AuditEntry).where(AuditEntry.action == FETCH_ACTION)))


async def test_a_refund_without_an_answer_waits_in_the_queue_until_support_asks(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    support = _support(db)
    refund = await _unanswered_refund(db, shop, monkeypatch, received=True)
    assert _listed(QueueKind.REFUNDS) == []  # the resubmissions still have it
    _backdate(db, refund, 2 * HOUR)
    [row] = _listed(QueueKind.REFUNDS)
    assert (row["refund_id"], row["order_id"], row["number"]) == (
        refund.id,
        refund.order_id,
        order_number(refund.order_id),
    )
    assert (row["answered"], row["attention"], row["checked_at"]) == (False, False, "")
    assert row["name"] == "Anna" and row["email"] == "anna@example.com"

    assert await fetch_provider_state(support, refund.order_id) == FetchOutcome.CHANGED
    linked = _fresh(db, OrderRefund, refund.id)
    assert linked.provider_refund_id is not None and linked.checked_at is not None
    [entry] = _audits(db)
    assert (entry.actor_id, entry.actor_role, entry.target_type, entry.target_id) == (
        support.member_id,
        Role.SUPPORT,
        "order",
        refund.order_id,
    )
    assert entry.reason and entry.address == "192.0.2.7"
    assert entry.before["refund_ids"] == {str(refund.id): ""}
    assert entry.after["refund_ids"] == {str(refund.id): linked.provider_refund_id}

    shop.provider.clock.advance(seconds=10)  # the provider pays it out; its webhook is lost
    with monkeypatch.context() as lost:
        lost.setattr(shop.provider.webhooks, "_deliver", _nowhere)
        await shop.provider.sweep()
        await shop.provider.webhooks.drain()
    assert await fetch_provider_state(support, refund.order_id) == FetchOutcome.CHANGED
    assert _fresh(db, Order, refund.order_id).status == "refunded"
    assert _fresh(db, OrderRefund, refund.id).status == "refunded"
    assert _listed(QueueKind.REFUNDS) == []
    assert [e.after["status"] for e in _audits(db)] == ["paid", "refunded"]


async def test_a_refund_the_provider_never_received_stays_queued_unaudited(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    support = _support(db)
    refund = await _unanswered_refund(db, shop, monkeypatch, received=False)
    _backdate(db, refund, 2 * HOUR)
    assert await fetch_provider_state(support, refund.order_id) == FetchOutcome.UNCHANGED
    assert _audits(db) == []
    [row] = _listed(QueueKind.REFUNDS)
    assert row["checked_at"] != "" and not row["answered"]


async def test_an_order_paid_without_its_webhook_is_stuck_until_asked(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    support = _support(db)
    member = make_member(db, signup_date=utcnow() - timedelta(days=2))
    started = await start_checkout(_viewer(member), "p1", "ideal", "NL", None)
    with monkeypatch.context() as lost:
        lost.setattr(shop.provider.webhooks, "_deliver", _nowhere)
        await shop.pay(started.checkout_url)
    order = _fresh(db, Order, started.order_id)
    assert order.status == "open"
    _backdate(db, order, 50 * timedelta(minutes=1))
    assert _listed(QueueKind.ORDERS) == []  # a checkout may take that long
    _backdate(db, order, 61 * timedelta(minutes=1))
    [row] = _listed(QueueKind.ORDERS)
    assert (row["order_id"], row["status"], row["asks_provider"]) == (order.id, "open", True)

    assert await fetch_provider_state(support, order.id) == FetchOutcome.CHANGED
    assert _fresh(db, Order, order.id).status == "paid"
    assert _fresh(db, Member, member.id).credits == order.credits  # granted once, as a webhook
    [entry] = _audits(db)
    assert (entry.before["status"], entry.after["status"]) == ("open", "paid")
    assert _listed(QueueKind.ORDERS) == []
    assert await fetch_provider_state(support, order.id) == FetchOutcome.UNCHANGED
    assert _fresh(db, Member, member.id).credits == order.credits
    assert len(_audits(db)) == 1


async def test_pending_orders_are_stuck_after_a_week(db: Session, shop: Shop) -> None:
    order = await _paid(db, shop)
    row = _fresh(db, Order, order.id)
    row.status = "pending"  # a direct debit the bank has not collected
    db.add(row)
    db.commit()
    _backdate(db, order, 6 * DAY)
    assert _listed(QueueKind.ORDERS) == []
    _backdate(db, order, 8 * DAY)
    assert [r["order_id"] for r in _listed(QueueKind.ORDERS)] == [order.id]


async def test_chargebacks_are_listed_newest_first(db: Session, shop: Shop) -> None:
    support = _support(db)
    first, second = await _paid(db, shop), await _paid(db, shop, "bea@example.com")
    for order in (first, second):
        answer = await shop.browser.post(
            f"/testpay/v2/payments/{order.provider_payment_id}/test-chargeback",
            headers=AUTHORISED,
        )
        assert answer.status_code == 200, answer.text
        await shop.provider.webhooks.drain()
    rows = _listed(QueueKind.CHARGEBACKS)
    assert [r["order_id"] for r in rows] == [second.id, first.id]
    assert rows[0]["credits_taken_back"] == second.credits
    assert await fetch_provider_state(support, first.id) == FetchOutcome.UNCHANGED
    assert _audits(db) == []


async def test_a_provider_that_cannot_answer_changes_nothing(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    support = _support(db)
    order = await _paid(db, shop)

    async def unreachable(*args, **kwargs):
        raise ProviderError(0, "No answer", "timeout")

    async def unknown(*args, **kwargs):
        raise ProviderError(404, "Not Found", "No payment exists with token tr_x")

    monkeypatch.setattr(shop.client, "get_payment", unreachable)
    assert await fetch_provider_state(support, order.id) == FetchOutcome.UNREACHABLE
    monkeypatch.setattr(shop.client, "get_payment", unknown)
    assert await fetch_provider_state(support, order.id) == FetchOutcome.REFUSED
    row = _fresh(db, Order, order.id)
    row.provider_payment_id = None  # the provider never created its payment
    db.add(row)
    db.commit()
    assert await fetch_provider_state(support, order.id) == FetchOutcome.NO_PAYMENT
    assert await fetch_provider_state(support, 10**6) == FetchOutcome.NO_PAYMENT
    assert _audits(db) == [] and _fresh(db, Order, order.id).status == "paid"


def _open_order(db: Session, member_id: int, age: timedelta) -> Order:
    order = Order(
        member_id=member_id,
        tier="p0",
        credits=100,
        list_cents=1995,
        amount_cents=1995,
        currency="EUR",
        country="NL",
        method="ideal",
        provider="testpay",
        created_at=utcnow() - age,
    )
    db.add(order)
    db.commit()
    return order


def test_the_queue_is_read_a_page_of_50_at_a_time_the_oldest_first(db: Session) -> None:
    member = make_member(db)
    orders = [_open_order(db, member.id, DAY - n * timedelta(minutes=1)) for n in range(51)]
    first = payments_page(QueueKind.ORDERS, 1, utcnow())
    assert len(first.rows) == 50 and first.has_next
    assert [r["order_id"] for r in first.rows] == [o.id for o in orders[:50]]
    assert first.rows[0]["asks_provider"] is False  # no payment was created
    last = payments_page(QueueKind.ORDERS, 2, utcnow())
    assert [r["order_id"] for r in last.rows] == [orders[50].id] and not last.has_next
    assert payments_page(QueueKind.ORDERS, 0, utcnow()).page == 1
    assert payments_page(QueueKind.ORDERS, 10**9, utcnow()).page == 200


async def test_the_follow_up_asks_after_a_day_and_flags_after_a_week(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    refund = await _unanswered_refund(db, shop, monkeypatch, received=True)
    _backdate(db, refund, 23 * HOUR)
    now = utcnow()
    assert await follow_up_refunds(now) == 0
    assert _fresh(db, OrderRefund, refund.id).checked_at is None  # not a day old yet

    _backdate(db, refund, 25 * HOUR)
    assert await follow_up_refunds(now) == 0
    asked = _fresh(db, OrderRefund, refund.id)
    assert asked.provider_refund_id is not None  # the answer it never got
    assert as_utc(asked.checked_at) == now and asked.attention_at is None

    _backdate(db, refund, 7 * DAY + HOUR)  # the provider still has not paid it out
    assert await follow_up_refunds(now + 10 * MINUTE) == 0  # asked ten minutes ago: not again
    assert as_utc(_fresh(db, OrderRefund, refund.id).checked_at) == now
    later = now + HOUR
    assert await follow_up_refunds(later) == 1
    assert as_utc(_fresh(db, OrderRefund, refund.id).attention_at) == later
    assert await follow_up_refunds(later + HOUR) == 0  # flagged once
    [row] = _listed(QueueKind.REFUNDS)
    assert row["attention"] is True


async def test_flagged_refunds_lead_the_queue(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = await _unanswered_refund(db, shop, monkeypatch, received=False)
    _backdate(db, older, 3 * DAY)
    flagged = await _unanswered_refund(
        db, shop, monkeypatch, received=False, email="bea@example.com"
    )
    _backdate(db, flagged, 2 * DAY)
    assert [r["refund_id"] for r in _listed(QueueKind.REFUNDS)] == [older.id, flagged.id]
    row = _fresh(db, OrderRefund, flagged.id)
    row.attention_at = utcnow()
    db.add(row)
    db.commit()
    assert [r["refund_id"] for r in _listed(QueueKind.REFUNDS)] == [flagged.id, older.id]


async def test_the_follow_up_sees_a_refund_through_to_the_end(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    refund = await _unanswered_refund(db, shop, monkeypatch, received=True)
    _backdate(db, refund, 8 * DAY)
    shop.provider.clock.advance(seconds=10)
    with monkeypatch.context() as lost:
        lost.setattr(shop.provider.webhooks, "_deliver", _nowhere)
        await shop.provider.sweep()
        await shop.provider.webhooks.drain()
    assert await follow_up_refunds(utcnow()) == 0  # paid out: nothing to flag
    assert _fresh(db, OrderRefund, refund.id).status == "refunded"
    assert _fresh(db, Order, refund.order_id).status == "refunded"
    assert _listed(QueueKind.REFUNDS) == []
