"""Direct debit end to end below the browser: the form, the mandate, the code by SMS (read
from the SMS outbox), the provider's customer, mandate and debit, the collection days later,
and a returned debit that blocks direct debit for the member. On SQLite and PostgreSQL."""

import asyncio
import re
from datetime import timedelta
from functools import partial

import pytest
from babel.dates import format_date
from sqlmodel import Session, select

from actions.direct_debit import GIVE_UP_AFTER, prepare_mandate, sdd_start, send_code
from actions.direct_debit_flow import SddResult, confirm_direct_debit, direct_debit_upkeep
from actions.effects import settle
from actions.payment_flow import payment_methods
from actions.payment_reads import last_order
from actions.runner import Done, act, read
from actions.viewer import Viewer
from models.credits import ledger_sum
from models.direct_debit import DEBIT_LEASE, SddMandate, SmsCode
from models.member import Member, utcnow
from models.orders import Order, order_number
from models.pricing import format_money
from services.mail import outbox_messages
from services.payments.provider import TEST_PROVIDER_PATH
from services.payments.types import ProviderError, ProviderMandate
from services.sms import sms_outbox_messages
from tests.concurrency import at_once, postgres_only
from tests.factories import make_member
from tests.payments_fixtures import AUTHORISED, TEST_IBAN, Shop
from tests.queries import statements
from translations.errors import (
    INVALID_SMS_CODE,
    SDD_ACCOUNT_BLOCKED,
    SDD_AMOUNT_CHANGED,
    SDD_DEBIT_REFUSED,
    SDD_TOO_MANY_FORMS,
)

FORM = {
    "account_holder": "Anna de Vries",
    "iban": "NL91 ABNA 0417 1643 00",
    "street": "Keizersgracht",
    "house_number": "12a",
    "zip": "1015cj",
    "city": "Amsterdam",
    "phone": "06 12345678",
}


@pytest.fixture
def sdd_shop(shop: Shop) -> Shop:
    shop.provider.clock.now = utcnow()  # the mandate is signed today by the real clock
    return shop


def _viewer(member: Member, language: str = "en") -> Viewer:
    return Viewer(member.id, member.status, language, member.paid_user)


def _member(db: Session, email: str = "anna@example.com") -> Member:
    return make_member(db, email, signup_date=utcnow() - timedelta(days=2))


async def _mandate_with_code(viewer: Viewer) -> tuple[int, str]:
    prepared = await act(prepare_mandate, viewer, "p1", "NL", None, FORM)
    assert prepared.errors == {} and prepared.error == "" and prepared.mandate is not None
    assert await act(send_code, viewer, prepared.mandate_id) == ""
    await settle()
    (sms,) = [m for m in sms_outbox_messages() if m.to == "+31612345678"][-1:]
    return prepared.mandate_id, re.search(r"\b\d{6}\b", sms.text).group()


async def _signed(viewer: Viewer) -> int:
    mandate_id, code = await _mandate_with_code(viewer)
    result = await confirm_direct_debit(viewer, mandate_id, code, "203.0.113.9", "Firefox")
    assert result.error == ""
    return result.order_id


def _mail(subject_start: str) -> str:
    """The text of the one mail whose subject starts so."""
    (mail,) = [m for m in outbox_messages() if m["Subject"].startswith(subject_start)]
    return mail.get_body(preferencelist=("plain",)).get_content()


def _fresh(db: Session, model, key):
    db.expire_all()
    return db.get(model, key)


async def test_a_debit_is_pending_until_collected_then_grants_the_bundle(
    db: Session, sdd_shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    start = await read(sdd_start, viewer, "p1", "NL")
    assert start.offered and not start.blocked
    assert "directdebit" in {m.id for m in await payment_methods(viewer, "p1", "NL")}

    order_id = await _signed(viewer)
    order = _fresh(db, Order, order_id)
    assert (order.status, order.method) == ("pending", "directdebit")
    mandate = db.exec(select(SddMandate)).one()
    assert (mandate.status, mandate.iban, mandate.signed_ip) == ("signed", TEST_IBAN, "203.0.113.9")
    assert mandate.provider_mandate_id and mandate.reference in mandate.mandate_text
    assert "8 weeks" in mandate.mandate_text and "NL91 **** **** **** 4300" in mandate.mandate_text
    assert _fresh(db, Member, member.id).credits == 0  # nothing before the bank pays

    await settle()
    notice = _mail("Your direct debit for order")
    due = (sdd_shop.provider.clock.now + timedelta(days=3)).date()
    for line in (
        f"Order number: {order_number(order_id)}",
        f"Amount: {format_money(order.amount_cents, 'EUR', 'en')}",
        f"Debit date: {format_date(due, format='long', locale='en')}",
        f"Mandate reference: {mandate.reference}",
        "Creditor identifier: NL98ZZZ999999999999",
        "IBAN: NL91 **** **** **** 4300",
    ):
        assert line in notice, line
    assert TEST_IBAN not in notice.replace(" ", "")

    assert await sdd_shop.collect(days=3) == 1
    assert _fresh(db, Order, order_id).status == "paid"
    paid = _fresh(db, Member, member.id)
    assert paid.paid_user and paid.credits == order.credits == ledger_sum(db, member.id)
    receipt = _mail("Your receipt for order")
    assert f"Mandate reference: {mandate.reference}" in receipt
    assert "Creditor identifier: NL98ZZZ999999999999" in receipt


async def test_a_wrong_code_is_code_ongeldig_and_the_right_one_still_works(
    db: Session, sdd_shop: Shop
) -> None:
    viewer = _viewer(_member(db), "nl")
    mandate_id, code = await _mandate_with_code(viewer)
    wrong = str((int(code) + 1) % 1_000_000).zfill(6)
    refused = await confirm_direct_debit(viewer, mandate_id, wrong, "", "")
    assert refused.error == INVALID_SMS_CODE == "Invalid code"
    assert db.exec(select(Order)).all() == []
    assert (await confirm_direct_debit(viewer, mandate_id, code, "", "")).error == ""


async def test_errors_sit_beside_their_fields_and_nothing_is_stored(
    db: Session, sdd_shop: Shop
) -> None:
    viewer = _viewer(_member(db))
    bad = FORM | {"iban": "NL91 ABNA 0417 1643 01", "phone": "12"}
    prepared = await act(prepare_mandate, viewer, "p1", "NL", None, bad)
    assert set(prepared.errors) == {"iban", "phone"} and prepared.mandate_id == 0
    assert db.exec(select(SddMandate)).all() == []


async def test_not_offered_outside_sepa_euros(db: Session, sdd_shop: Shop) -> None:
    viewer = _viewer(_member(db))
    assert not (await read(sdd_start, viewer, "p1", "CH")).offered  # francs
    assert "directdebit" not in {m.id for m in await payment_methods(viewer, "p1", "CH")}


async def test_someone_elses_mandate_cannot_be_confirmed(db: Session, sdd_shop: Shop) -> None:
    anna, bob = _viewer(_member(db)), _viewer(_member(db, "bob@example.com"))
    mandate_id, code = await _mandate_with_code(anna)
    assert (await confirm_direct_debit(bob, mandate_id, code, "", "")).error != ""
    assert await act(send_code, bob, mandate_id) != ""
    assert db.exec(select(Order)).all() == []


async def test_a_returned_debit_blocks_direct_debit_for_the_member(
    db: Session, sdd_shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    order_id = await _signed(viewer)
    payment_id = _fresh(db, Order, order_id).provider_payment_id
    answer = await sdd_shop.outcome(payment_id, "failed", reason="MD06")
    assert answer.status_code == 200
    blocked = _fresh(db, Member, member.id)
    assert blocked.sdd_blocked_at is not None and blocked.sdd_block_reason == "MD06"
    assert (await read(sdd_start, viewer, "p1", "NL")).blocked
    assert (await act(prepare_mandate, viewer, "p1", "NL", None, FORM)).error == SDD_ACCOUNT_BLOCKED
    methods = {m.id for m in await payment_methods(viewer, "p1", "NL")}
    assert "directdebit" not in methods and "ideal" in methods  # other methods still work


async def test_the_same_code_five_times_at_once_signs_one_mandate(
    engine, db: Session, sdd_shop: Shop
) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("concurrent transactions: PostgreSQL")
    viewer = _viewer(_member(db))
    mandate_id, code = await _mandate_with_code(viewer)
    results = await asyncio.gather(
        *(confirm_direct_debit(viewer, mandate_id, code, "", "") for _ in range(5))
    )
    assert sum(1 for r in results if r.error == "") == 1
    assert len(db.exec(select(Order)).all()) == 1


async def test_a_price_changed_since_the_review_signs_nothing(db: Session, sdd_shop: Shop) -> None:
    viewer = _viewer(_member(db))
    mandate_id, code = await _mandate_with_code(viewer)
    mandate = db.get(SddMandate, mandate_id)
    mandate.amount_cents += 1  # as if the member had reviewed another price
    db.add(mandate)
    db.commit()
    refused = await confirm_direct_debit(viewer, mandate_id, code, "", "")
    assert refused.error == SDD_AMOUNT_CHANGED
    assert (
        db.exec(select(Order)).all() == [] and _fresh(db, SddMandate, mandate_id).status == "draft"
    )


async def test_a_phone_outside_sepa_gets_no_sms(db: Session, sdd_shop: Shop) -> None:
    viewer = _viewer(_member(db))
    prepared = await act(
        prepare_mandate, viewer, "p1", "NL", None, FORM | {"phone": "+1 415 555 2671"}
    )
    assert set(prepared.errors) == {"phone"}


async def test_without_an_answer_for_the_debit_the_order_stays_open(
    db: Session, sdd_shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, result = await _signed_while_payments_fail(db, sdd_shop, monkeypatch, 0)
    assert result.error == "" and _fresh(db, Order, result.order_id).status == "open"


async def test_a_debit_refused_by_the_bank_blocks_even_when_never_seen_pending(
    db: Session, sdd_shop: Shop
) -> None:
    member = _member(db)
    order_id = await _signed(_viewer(member))
    order = _fresh(db, Order, order_id)
    order.status = "open"  # the pending webhook never reached us
    db.add(order)
    db.commit()
    await sdd_shop.outcome(order.provider_payment_id, "failed", reason="AC04")
    assert _fresh(db, Member, member.id).sdd_block_reason == "AC04"


def _lease_ran_out(db: Session, mandate_id: int, ago: timedelta = DEBIT_LEASE) -> None:
    """As if the process that claimed the mandate's debit had stopped `ago` (plus a second)."""
    mandate = _fresh(db, SddMandate, mandate_id)
    mandate.debit_claimed_at = utcnow() - ago - timedelta(seconds=1)
    mandate.signed_at = min(mandate.signed_at, mandate.debit_claimed_at)
    db.add(mandate)
    db.commit()


async def _charge_back(shop: Shop, payment_id: str, reason: str) -> None:
    """The member's bank takes the collected debit back, for `reason`."""
    path = f"{TEST_PROVIDER_PATH}/v2/payments/{payment_id}/test-chargeback"
    answer = await shop.browser.post(path, json={"reason": reason}, headers=AUTHORISED)
    assert answer.status_code == 200
    await shop.provider.webhooks.drain()
    await settle()


async def _signed_while_payments_fail(
    db: Session, shop: Shop, monkeypatch: pytest.MonkeyPatch, status: int
) -> tuple[int, SddResult]:
    """A new member's mandate signed with the right code while the provider answers every new
    payment with `status` (0: no answer at all); the mandate and the signing's result."""
    viewer = _viewer(_member(db))
    mandate_id, code = await _mandate_with_code(viewer)

    async def failing(*args, **kwargs):
        raise ProviderError(status, "Provider error", f"answered {status}")

    monkeypatch.setattr(shop.client, "create_payment", failing)
    return mandate_id, await confirm_direct_debit(viewer, mandate_id, code, "", "")


async def _at_provider(shop: Shop, mandate: SddMandate) -> ProviderMandate:
    return await shop.client.get_mandate(mandate.provider_customer_id, mandate.provider_mandate_id)


def _codes_sent_earlier(db: Session) -> None:
    """The codes sent so far went out two minutes ago: the next may go out now."""
    for sent in db.exec(select(SmsCode)).all():
        sent.created_at -= timedelta(minutes=2)
        db.add(sent)
    db.commit()


async def test_a_debit_the_provider_refuses_fails_the_order_and_revokes_the_mandate(
    db: Session, sdd_shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    mandate_id, result = await _signed_while_payments_fail(db, sdd_shop, monkeypatch, 422)
    assert (result.error, result.signed) == (SDD_DEBIT_REFUSED, True)
    (order,) = db.exec(select(Order)).all()
    mandate = _fresh(db, SddMandate, mandate_id)
    assert order.status == "failed" and mandate.status == "revoked"
    registered = await _at_provider(sdd_shop, mandate)
    assert registered.status == "invalid"  # no one can debit on it any more


async def test_a_member_keeps_one_customer_at_the_provider(db: Session, sdd_shop: Shop) -> None:
    viewer = _viewer(_member(db))
    await _signed(viewer)
    await sdd_shop.collect()
    _codes_sent_earlier(db)
    await _signed(viewer)
    customers = {m.provider_customer_id for m in db.exec(select(SddMandate)).all()}
    assert len(customers) == 1 and None not in customers


async def test_the_upkeep_takes_an_unanswered_debit_once(
    db: Session, sdd_shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The provider made the payment but its answer was lost: the upkeep finds it among the
    customer's payments instead of asking for a second one; one pre-notification."""
    viewer = _viewer(_member(db))
    mandate_id, code = await _mandate_with_code(viewer)
    create_payment = sdd_shop.client.create_payment
    made = []

    async def answer_lost(request):
        made.append(await create_payment(request))
        raise ProviderError(0, "No answer", "timeout")

    monkeypatch.setattr(sdd_shop.client, "create_payment", answer_lost)
    result = await confirm_direct_debit(viewer, mandate_id, code, "", "")
    assert _fresh(db, Order, result.order_id).status == "open" and made
    monkeypatch.setattr(sdd_shop.client, "create_payment", create_payment)
    await direct_debit_upkeep()  # the signing request's lease still runs: nobody else asks
    assert _fresh(db, Order, result.order_id).provider_payment_id is None
    _lease_ran_out(db, mandate_id)
    await asyncio.gather(direct_debit_upkeep(), direct_debit_upkeep())  # two processes at once
    await settle()
    order = _fresh(db, Order, result.order_id)
    assert order.status == "pending" and order.provider_payment_id == made[0].id
    assert len(await sdd_shop.client.list_customer_payments(made[0].customer_id)) == 1
    await direct_debit_upkeep()  # nothing left to do
    await settle()
    notices = [m for m in outbox_messages() if order_number(order.id) in m["Subject"]]
    assert len(notices) == 1


async def test_a_charged_back_debit_blocks_with_the_banks_reason(
    db: Session, sdd_shop: Shop
) -> None:
    member = _member(db)
    order_id = await _signed(_viewer(member))
    await sdd_shop.collect()
    await _charge_back(sdd_shop, _fresh(db, Order, order_id).provider_payment_id, "MD06")
    assert _fresh(db, Order, order_id).status == "charged_back"
    assert _fresh(db, Member, member.id).sdd_block_reason == "MD06"


async def test_repeating_an_order_skips_direct_debit_once_blocked(
    db: Session, sdd_shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    order_id = await _signed(viewer)
    await sdd_shop.collect()
    assert (await read(last_order, viewer)).method == "directdebit"
    await _charge_back(sdd_shop, _fresh(db, Order, order_id).provider_payment_id, "MD06")
    assert await read(last_order, viewer) is None  # no other paid order to repeat


@pytest.mark.parametrize("status", [0, 409, 429, 500])
async def test_no_answer_or_ask_later_leaves_the_order_open_and_the_mandate_valid(
    db: Session, sdd_shop: Shop, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    mandate_id, result = await _signed_while_payments_fail(db, sdd_shop, monkeypatch, status)
    assert result.error == "" and _fresh(db, Order, result.order_id).status == "open"
    mandate = _fresh(db, SddMandate, mandate_id)
    assert mandate.status == "signed"
    assert (await _at_provider(sdd_shop, mandate)).status == "valid"


async def test_a_customer_the_provider_no_longer_knows_is_made_anew(
    db: Session, sdd_shop: Shop
) -> None:
    member = _member(db)
    viewer = _viewer(member)
    await _signed(viewer)
    old = db.exec(select(SddMandate)).one()
    old.provider_customer_id = "cst_gone000000"  # e.g. made with another API key
    db.add(old)
    db.commit()
    _codes_sent_earlier(db)
    order_id = await _signed(viewer)
    assert _fresh(db, Order, order_id).status == "pending"
    new = db.exec(select(SddMandate).where(SddMandate.order_id == order_id)).one()
    assert new.provider_customer_id not in (None, "cst_gone000000")


async def test_a_day_on_without_a_payment_at_the_provider_the_order_fails(
    db: Session, sdd_shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    mandate_id, result = await _signed_while_payments_fail(db, sdd_shop, monkeypatch, 0)
    _lease_ran_out(db, mandate_id, GIVE_UP_AFTER)
    await direct_debit_upkeep()  # only looks now: the provider has no payment for the order
    assert _fresh(db, Order, result.order_id).status == "failed"
    mandate = _fresh(db, SddMandate, mandate_id)
    registered = await _at_provider(sdd_shop, mandate)
    assert mandate.status == "revoked" and registered.status == "invalid"


def test_forms_sent_at_once_make_at_most_ten_drafts(engine, db: Session) -> None:
    """16 forms at the same moment (the issue's probe): 10 drafts an hour, as one by one."""
    postgres_only(engine)
    viewer = _viewer(_member(db))
    answers = at_once([partial(prepare_mandate, viewer, "p1", "NL", None, FORM)] * 16)
    drafted = [a for a in answers if isinstance(a, Done) and a.value.mandate_id]
    refused = [a.value.error for a in answers if isinstance(a, Done) and not a.value.mandate_id]
    assert len(drafted) == len(db.exec(select(SddMandate)).all()) == 10  # spec: 10 an hour
    assert refused == [SDD_TOO_MANY_FORMS] * 6


async def test_sending_a_code_locks_the_member_and_the_phone_once(
    db: Session, sdd_shop: Shop
) -> None:
    """Issue 28's review: send_code took the code throttles' locks, and new_code took them
    again. One lock each for the member's row and the phone, one for the IBAN."""
    viewer = _viewer(_member(db))
    prepared = await act(prepare_mandate, viewer, "p1", "NL", None, FORM)
    with statements() as seen:
        assert await act(send_code, viewer, prepared.mandate_id) == ""
    member_locks = [s for s in seen if s.startswith("SELECT member.id \nFROM member")]
    advisory_locks = [s for s in seen if "pg_advisory_xact_lock" in s]
    assert len(member_locks) == 1
    assert len(advisory_locks) == (2 if db.get_bind().dialect.name == "postgresql" else 0)
