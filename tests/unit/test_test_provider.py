"""The built-in test provider, driven by the real Mollie client through httpx.ASGITransport:
payments, idempotency, methods per country, the checkout page's outcomes and webhook timings,
expiry, refunds and chargebacks; SEPA direct debit: customers, mandates, debits on a mandate
collected days later or failing for a bank's reason, and refund claims."""

import dataclasses
from datetime import date, timedelta

import pytest

from services.config import get_config
from services.payments import provider as payment_provider
from services.payments.test_provider import TestProvider
from services.payments.types import (
    MandateStatus,
    Money,
    PaymentRequest,
    PaymentStatus,
    ProviderError,
    ProviderPayment,
)
from tests.payments_fixtures import (
    API_URL,
    ORIGIN,
    TEST_IBAN,
    make_provider_client,
    signed_mandate,
)
from translations.catalog import gettext

REDIRECT = "https://site.example/transactions/7"
WEBHOOK = "https://site.example/api/payments/webhook"
REQUEST = PaymentRequest(
    amount=Money(1995, "EUR"),
    description="Order 7: 100 credits",
    redirect_url=REDIRECT,
    webhook_url=WEBHOOK,
    method="ideal",
    locale="nl_NL",
    metadata={"order_id": "7"},
    idempotency_key="order-7",
)


def request(**changes) -> PaymentRequest:
    return dataclasses.replace(REQUEST, **changes)


async def pay(client, http, outcome: str = "paid", webhook: str = "before", **changes):
    payment = await client.create_payment(request(**changes))
    answer = await http.post(payment.checkout_url, data={"outcome": outcome, "webhook": webhook})
    return payment, answer


async def test_create_and_get_a_payment(provider_client, testpay_clock) -> None:
    payment = await provider_client.create_payment(REQUEST)

    assert payment.id.startswith("tr_") and len(payment.id) == 13
    assert payment.status is PaymentStatus.OPEN
    assert payment.amount == Money(1995, "EUR")
    assert payment.method == "ideal"
    assert payment.metadata == {"order_id": "7"}
    assert payment.checkout_url == f"{ORIGIN}/testpay/checkout/{payment.id}"
    assert (payment.expires_at - testpay_clock.now).total_seconds() == 15 * 60
    assert await provider_client.get_payment(payment.id) == payment


async def test_the_same_idempotency_key_gives_the_same_payment(provider_client) -> None:
    first = await provider_client.create_payment(REQUEST)
    again = await provider_client.create_payment(REQUEST)
    other = await provider_client.create_payment(request(idempotency_key="order-8"))
    assert again.id == first.id
    assert other.id != first.id


async def test_a_wrong_key_is_refused_and_an_unknown_payment_is_not_found(testpay) -> None:
    intruder = make_provider_client(testpay, api_key="live_guess")
    with pytest.raises(ProviderError) as refused:
        await intruder.create_payment(REQUEST)
    assert refused.value.status == 401
    await intruder.aclose()

    with pytest.raises(ProviderError) as missing:
        await make_provider_client(testpay).get_payment("tr_nothing123")
    assert missing.value.status == 404


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"amount": Money(1995, "USD")}, "amount"),  # iDEAL takes euros only
        ({"amount": Money(60_000_00, "EUR")}, "amount"),  # above iDEAL's maximum
        ({"amount": Money(1995, "XYZ"), "method": "creditcard"}, "amount.currency"),
        ({"method": "bitcoin"}, "method"),
        ({"description": ""}, "description"),
    ],
)
async def test_what_mollie_refuses_is_a_422_naming_the_field(
    provider_client, changes, field
) -> None:
    with pytest.raises(ProviderError) as refused:
        await provider_client.create_payment(request(**changes))
    assert (refused.value.status, refused.value.field) == (422, field)


@pytest.mark.parametrize("path", ["/payments", "/customers"])
@pytest.mark.parametrize("locale", ["nl_NL" + "x" * 20, "xx_XX", 7, ["en_US"], {}])
async def test_a_locale_mollie_does_not_know_is_a_422_not_a_500(
    testpay_http, path: str, locale: object
) -> None:
    """As Mollie answers a bad locale: 422 with its JSON error naming the field."""
    body = {
        "amount": {"currency": "EUR", "value": "19.95"},
        "description": "Order 7",
        "redirectUrl": REDIRECT,
        "name": "Anna",
        "email": "anna@example.org",
        "locale": locale,
    }
    answer = await testpay_http.post(f"{API_URL}{path}", json=body)
    assert answer.status_code == 422
    assert (answer.json()["status"], answer.json()["field"]) == (422, "locale")


@pytest.mark.parametrize(
    "redirect",
    ["javascript:alert(document.cookie)", "data:text/html,<script>1</script>", "//evil.example"],
)
async def test_only_web_addresses_are_taken_for_redirect_and_webhook(
    provider_client, redirect: str
) -> None:
    for changes in ({"redirect_url": redirect}, {"webhook_url": redirect}):
        with pytest.raises(ProviderError) as refused:
            await provider_client.create_payment(request(**changes))
        assert refused.value.status == 422


async def test_the_sites_own_provider_takes_only_its_own_addresses(
    testpay, testpay_webhooks
) -> None:
    """Served for one site, it neither links nor redirects nor posts anywhere else: no open
    redirect, no webhook to an internal address."""
    site = TestProvider(public_url="https://site.example/testpay", deliver=testpay_webhooks.deliver)
    client = make_provider_client(site)
    assert (await client.create_payment(REQUEST)).status == PaymentStatus.OPEN
    for changes in (
        {"redirect_url": "https://evil.example/x"},
        {"webhook_url": "http://127.0.0.1:6379/"},
    ):
        with pytest.raises(ProviderError) as refused:
            await client.create_payment(request(**changes, idempotency_key="other"))
        assert refused.value.status == 422
    await client.aclose()


async def test_a_body_too_large_is_refused(provider_client) -> None:
    with pytest.raises(ProviderError) as refused:
        await provider_client.create_payment(request(description="x" * 20_000))
    assert refused.value.status == 422


@pytest.mark.parametrize(
    ("country", "currency", "expected"),
    [
        ("NL", "EUR", ["ideal", "creditcard", "paypal", "directdebit"]),
        ("BE", "EUR", ["bancontact", "creditcard", "paypal", "directdebit"]),
        ("DE", "EUR", ["creditcard", "paypal", "directdebit"]),
        ("PL", "PLN", ["blik", "przelewy24", "creditcard", "paypal"]),
        ("PL", "EUR", ["przelewy24", "creditcard", "paypal", "directdebit"]),
        ("DK", "DKK", ["mobilepay", "creditcard", "paypal"]),
        ("FI", "EUR", ["mobilepay", "creditcard", "paypal", "directdebit"]),
        ("NO", "NOK", ["vipps", "creditcard", "paypal"]),
        ("SE", "SEK", ["swish", "creditcard", "paypal"]),
        ("CH", "CHF", ["twint", "creditcard", "paypal"]),
        ("GB", "GBP", ["creditcard", "paypal"]),
        ("CH", "EUR", ["creditcard", "paypal"]),  # direct debit: the SEPA countries only
        ("NL", "USD", ["creditcard", "paypal"]),
    ],
)
async def test_methods_by_country_and_currency(provider_client, country, currency, expected):
    methods = await provider_client.list_methods(Money(1995, currency), country, "en_US")
    assert [method.id for method in methods] == expected
    assert all(m.image_url.startswith(f"{ORIGIN}/testpay/icons/") for m in methods)


async def test_methods_respect_amount_limits_and_translate_card(provider_client) -> None:
    big = await provider_client.list_methods(Money(9_000_00, "EUR"), "NL", "en_US")
    assert [m.id for m in big] == ["ideal", "creditcard"]  # above PayPal's and SEPA's maximum
    dutch = await provider_client.list_methods(Money(1995, "EUR"), "NL", "nl_NL")
    sepa = gettext("nl", "Direct debit")
    assert [m.description for m in dutch] == ["iDEAL", "Creditcard", "PayPal", sepa]


async def test_the_checkout_page_speaks_the_payments_language(
    provider_client, testpay_http
) -> None:
    payment = await provider_client.create_payment(REQUEST)
    page = await testpay_http.get(payment.checkout_url)
    assert page.status_code == 200
    assert '<html lang="nl">' in page.text
    assert "Testbetaling" in page.text and "Bedrag" in page.text
    assert "€\xa019,95" in page.text
    assert 'value="paid" checked' in page.text and 'value="before" checked' in page.text

    english = await provider_client.create_payment(request(locale="en_GB", idempotency_key="e"))
    assert "Test payment" in (await testpay_http.get(english.checkout_url)).text


@pytest.mark.parametrize("outcome", ["paid", "failed", "canceled", "expired"])
async def test_an_outcome_is_applied_webhooked_before_and_redirected(
    provider_client, testpay_http, testpay_webhooks, outcome
) -> None:
    payment, answer = await pay(provider_client, testpay_http, outcome)

    assert answer.status_code == 303
    assert answer.headers["location"] == REDIRECT
    assert testpay_webhooks.calls == [(WEBHOOK, payment.id)]  # before the redirect came back
    settled = await provider_client.get_payment(payment.id)
    assert settled.status == outcome
    assert settled.checkout_url is None


@pytest.mark.parametrize("outcome", ["pending", "open"])
async def test_pending_or_left_open_has_no_webhook(
    provider_client, testpay, testpay_http, testpay_webhooks, outcome
) -> None:
    payment, answer = await pay(provider_client, testpay_http, outcome, webhook="twice")
    await testpay.webhooks.drain()

    assert answer.headers["location"] == REDIRECT
    assert testpay_webhooks.calls == []
    assert (await provider_client.get_payment(payment.id)).status == outcome


@pytest.mark.parametrize(
    ("timing", "now", "in_the_end"), [("after", 0, 1), ("twice", 1, 2), ("late", 0, 1)]
)
async def test_webhook_timings(
    provider_client, testpay, testpay_http, testpay_webhooks, timing, now, in_the_end
) -> None:
    payment, _ = await pay(provider_client, testpay_http, webhook=timing)
    assert len(testpay_webhooks.calls) == now
    await testpay.webhooks.drain()
    assert testpay_webhooks.ids() == [payment.id] * in_the_end


async def test_a_settled_payment_cannot_be_settled_again(
    provider_client, testpay_http, testpay_webhooks
) -> None:
    payment, _ = await pay(provider_client, testpay_http, "paid")
    page = await testpay_http.get(payment.checkout_url)
    assert "niet meer open" in page.text and REDIRECT in page.text

    again = await testpay_http.post(payment.checkout_url, data={"outcome": "failed"})
    assert again.headers["location"] == REDIRECT
    assert (await provider_client.get_payment(payment.id)).status is PaymentStatus.PAID
    assert len(testpay_webhooks.calls) == 1

    control = await testpay_http.post(
        f"{API_URL}/payments/{payment.id}/test-outcome", json={"status": "failed"}
    )
    assert control.status_code == 422


async def test_pending_then_paid_by_a_late_webhook_through_the_control(
    provider_client, testpay, testpay_http, testpay_webhooks
) -> None:
    payment, _ = await pay(provider_client, testpay_http, "pending")
    control = await testpay_http.post(
        f"{API_URL}/payments/{payment.id}/test-outcome",
        json={"status": "paid", "webhook": "late"},
    )
    assert control.status_code == 200 and control.json()["status"] == "paid"
    assert testpay_webhooks.calls == []
    await testpay.webhooks.drain()
    assert testpay_webhooks.ids() == [payment.id]


async def test_controls_need_the_key_and_a_known_payment(testpay_http) -> None:
    answer = await testpay_http.post(
        f"{API_URL}/payments/tr_nothing123/test-outcome", json={"status": "paid"}
    )
    assert answer.status_code == 404 and answer.json()["title"] == "Not Found"
    anonymous = await testpay_http.post(
        f"{API_URL}/payments/tr_nothing123/test-outcome",
        json={"status": "paid"},
        headers={"Authorization": ""},
    )
    assert anonymous.status_code == 401


async def test_an_open_payment_expires_when_read_and_its_webhook_fires(
    provider_client, testpay, testpay_clock, testpay_webhooks
) -> None:
    payment = await provider_client.create_payment(REQUEST)
    testpay_clock.advance(minutes=14)
    assert (await provider_client.get_payment(payment.id)).status is PaymentStatus.OPEN
    testpay_clock.advance(minutes=1)

    expired = await provider_client.get_payment(payment.id)
    await testpay.webhooks.drain()
    assert expired.status is PaymentStatus.EXPIRED
    assert testpay_webhooks.ids() == [payment.id]
    await provider_client.get_payment(payment.id)
    await testpay.webhooks.drain()
    assert len(testpay_webhooks.calls) == 1  # expired once, reported once


async def test_the_sweeper_expires_per_method(
    provider_client, testpay, testpay_clock, testpay_webhooks
) -> None:
    ideal = await provider_client.create_payment(REQUEST)
    card = await provider_client.create_payment(request(method="creditcard", idempotency_key="c"))
    paypal = await provider_client.create_payment(request(method="paypal", idempotency_key="p"))
    testpay_clock.advance(minutes=31)

    assert await testpay.sweep() == 2
    await testpay.webhooks.drain()
    assert sorted(testpay_webhooks.ids()) == sorted([ideal.id, card.id])
    assert (await provider_client.get_payment(paypal.id)).status is PaymentStatus.OPEN
    testpay_clock.advance(hours=3)
    assert await testpay.sweep() == 1


async def test_refunds_queue_then_settle_with_a_webhook(
    provider_client, testpay, testpay_http, testpay_clock, testpay_webhooks
) -> None:
    payment, _ = await pay(provider_client, testpay_http)
    testpay_webhooks.calls.clear()

    refund = await provider_client.create_refund(payment.id, Money(500, "EUR"), "Unused", "r-1")
    assert (refund.status, refund.amount, refund.payment_id) == (
        "queued",
        Money(500, "EUR"),
        payment.id,
    )
    assert testpay_webhooks.ids() == [payment.id]  # the payment changed: it tells the site
    again = await provider_client.create_refund(payment.id, Money(500, "EUR"), "Unused", "r-1")
    assert again.id == refund.id and testpay_webhooks.ids() == [payment.id]  # a repeat: none
    assert (await provider_client.get_payment(payment.id)).amount_refunded == Money(500, "EUR")
    shown = await testpay_http.get(f"{API_URL}/payments/{payment.id}")
    assert shown.json()["_links"]["refunds"]["href"].endswith(f"/payments/{payment.id}/refunds")

    with pytest.raises(ProviderError) as too_much:
        await provider_client.create_refund(payment.id, Money(1500, "EUR"), "More", "r-2")
    assert (too_much.value.status, too_much.value.field) == (422, "amount")

    assert [r.status for r in await provider_client.list_refunds(payment.id)] == ["queued"]
    testpay_clock.advance(seconds=3)
    assert [r.status for r in await provider_client.list_refunds(payment.id)] == ["refunded"]
    await testpay.webhooks.drain()
    assert testpay_webhooks.ids() == [payment.id, payment.id]  # made, then paid out


async def test_only_a_paid_payment_can_be_refunded(provider_client) -> None:
    payment = await provider_client.create_payment(REQUEST)
    with pytest.raises(ProviderError) as refused:
        await provider_client.create_refund(payment.id, Money(100, "EUR"), "x", "r-open")
    assert refused.value.status == 422


async def test_a_chargeback_is_reported_by_webhook(
    provider_client, testpay_http, testpay_webhooks
) -> None:
    payment, _ = await pay(provider_client, testpay_http)
    await provider_client.create_refund(payment.id, Money(495, "EUR"), "Part", "r-part")
    testpay_webhooks.calls.clear()

    answer = await testpay_http.post(f"{API_URL}/payments/{payment.id}/test-chargeback")
    assert answer.status_code == 200
    assert testpay_webhooks.ids() == [payment.id]
    charged = await provider_client.get_payment(payment.id)
    assert charged.amount_charged_back == Money(1500, "EUR")  # what the refund left
    again = await testpay_http.post(f"{API_URL}/payments/{payment.id}/test-chargeback")
    assert again.status_code == 422


async def test_method_icons_are_served(testpay_http) -> None:
    icon = await testpay_http.get(f"{ORIGIN}/testpay/icons/ideal.svg")
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert "iDEAL" in icon.text
    assert (await testpay_http.get(f"{ORIGIN}/testpay/icons/nope.svg")).status_code == 404


@pytest.mark.parametrize(
    ("public_url", "flag", "key", "serves"),
    [
        ("http://localhost:3000", "", "", True),
        ("https://dating.example", "", "", False),  # a public site without a key: no payments
        ("https://staging.example", "1", "", True),
        ("http://localhost:3000", "", "live_abc", False),  # Mollie takes over
    ],
)
def test_the_test_provider_serves_only_where_it_may(
    monkeypatch: pytest.MonkeyPatch, public_url: str, flag: str, key: str, serves: bool
) -> None:
    for name, value in (
        ("PUBLIC_URL", public_url),
        ("TEST_PAYMENTS", flag),
        ("MOLLIE_API_KEY", key),
    ):
        monkeypatch.setenv(name, value)
    get_config.cache_clear()
    try:
        assert payment_provider.test_provider_serves() is serves
    finally:
        get_config.cache_clear()


# -- SEPA direct debit: customers, mandates, payments on a mandate ---------------------------


def on_mandate(customer: str, mandate: str | None, **changes) -> PaymentRequest:
    return request(
        method="directdebit",
        redirect_url=None,
        customer_id=customer,
        mandate_id=mandate,
        sequence_type="recurring",
        idempotency_key="sdd-7",
        **changes,
    )


async def debit(client) -> ProviderPayment:
    customer, mandate = await signed_mandate(client)
    return await client.create_payment(on_mandate(customer, mandate.id))


async def control(http, payment_id: str, name: str, **body):
    return await http.post(f"{API_URL}/payments/{payment_id}/{name}", json=body)


async def test_a_customer_and_a_mandate_are_made_once_per_key_and_read_back(
    provider_client, testpay_http
) -> None:
    customer = await provider_client.create_customer("Anna", "anna@example.org", "nl_NL", {}, "c")
    assert customer.startswith("cst_")
    assert await provider_client.create_customer("Anna", "a@x.org", "nl_NL", {}, "c") == customer
    mandate = await provider_client.create_mandate(
        customer, "Anna de Vries", "NL91 ABNA 0417 1643 00", date(2026, 3, 1), "AMR-7", "m"
    )
    assert mandate.id.startswith("mdt_")
    assert (mandate.status, mandate.method) == (MandateStatus.VALID, "directdebit")
    assert (mandate.consumer_account, mandate.mandate_reference) == (TEST_IBAN, "AMR-7")
    assert mandate.signature_date == date(2026, 3, 1)
    again = await provider_client.create_mandate(
        customer, "Anna de Vries", TEST_IBAN, date(2026, 3, 1), "AMR-7", "m"
    )
    assert again == mandate == await provider_client.get_mandate(customer, mandate.id)
    shown = (await testpay_http.get(f"{API_URL}/customers/{customer}")).json()
    assert (shown["resource"], shown["name"], shown["locale"]) == ("customer", "Anna", "nl_NL")
    assert (await testpay_http.get(f"{API_URL}/customers/cst_nobody1234")).status_code == 404


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"consumerAccount": "NL91ABNA0417164301"}, "consumerAccount"),  # check digits
        ({"consumerAccount": "<script>"}, "consumerAccount"),
        ({"consumerName": ""}, "consumerName"),
        ({"method": "creditcard"}, "method"),
        ({"signatureDate": "2026-03-02"}, "signatureDate"),  # the provider's tomorrow
        ({"signatureDate": "1 March"}, "signatureDate"),
        ({"mandateReference": "X" * 36}, "mandateReference"),
    ],
)
async def test_a_mandate_mollie_would_refuse_is_a_422(
    provider_client, testpay_http, changes, field
) -> None:
    customer = await provider_client.create_customer("Anna", "anna@example.org", "nl_NL", {})
    body = {
        "method": "directdebit",
        "consumerName": "Anna de Vries",
        "consumerAccount": TEST_IBAN,
        "signatureDate": "2026-03-01",
        "mandateReference": "AMR-7",
    }
    path = f"{API_URL}/customers/{customer}/mandates"
    answer = await testpay_http.post(path, json=body | changes)
    assert (answer.status_code, answer.json()["field"]) == (422, field)


async def test_a_mandate_needs_a_known_customer(provider_client) -> None:
    with pytest.raises(ProviderError) as missing:
        await provider_client.create_mandate(
            "cst_nobody1234", "Anna", TEST_IBAN, date(2026, 3, 1), "AMR-7"
        )
    assert missing.value.status == 404
    assert missing.value.detail == "No customer exists with token cst_nobody1234."


async def test_a_debit_on_a_mandate_is_pending_without_checkout_or_webhook(
    provider_client, testpay, testpay_http, testpay_webhooks, testpay_clock
) -> None:
    customer, mandate = await signed_mandate(provider_client)
    payment = await provider_client.create_payment(on_mandate(customer, mandate.id))

    assert payment.status is PaymentStatus.PENDING and payment.checkout_url is None
    assert (payment.method, payment.sequence_type) == ("directdebit", "recurring")
    assert (payment.customer_id, payment.mandate_id) == (customer, mandate.id)
    assert payment.due_date == (testpay_clock.now + timedelta(days=3)).date()
    assert payment.failure_reason is None
    again = await provider_client.create_payment(on_mandate(customer, mandate.id))
    assert again.id == payment.id  # the same idempotency key, the same debit
    page = f"{ORIGIN}/testpay/checkout/{payment.id}"
    assert (await testpay_http.get(page)).status_code == 404  # no page to settle it from
    chosen = await testpay_http.post(page, data={"outcome": "paid"})
    assert chosen.status_code == 404
    await testpay.webhooks.drain()
    assert testpay_webhooks.calls == []
    assert (await provider_client.get_payment(payment.id)).status is PaymentStatus.PENDING


async def test_without_a_mandate_id_the_customers_valid_mandate_is_charged(
    provider_client,
) -> None:
    customer, mandate = await signed_mandate(provider_client)
    payment = await provider_client.create_payment(on_mandate(customer, None))
    assert payment.mandate_id == mandate.id


async def test_the_debit_shows_mollies_direct_debit_details(provider_client, testpay_http):
    payment = await debit(provider_client)
    shown = (await testpay_http.get(f"{API_URL}/payments/{payment.id}")).json()
    assert shown["sequenceType"] == "recurring" and shown["mandateId"] == payment.mandate_id
    details = shown["details"]
    assert (details["consumerAccount"], details["consumerBic"]) == (TEST_IBAN, "ABNANL2A")
    assert (details["mandateReference"], details["signatureDate"]) == ("AMR-7-K2M9", "2026-03-01")
    assert details["creditorIdentifier"] and details["dueDate"] == "2026-03-04"
    assert "bankReasonCode" not in details and "expiresAt" not in shown
    assert "checkout" not in shown["_links"] and "mandate" in shown["_links"]


async def test_the_debit_is_collected_after_three_days_with_a_webhook(
    provider_client, testpay, testpay_clock, testpay_webhooks
) -> None:
    payment = await debit(provider_client)
    testpay_clock.advance(days=2, hours=23)
    assert await testpay.sweep() == 0
    testpay_clock.advance(hours=1)

    assert await testpay.sweep() == 1
    await testpay.webhooks.drain()
    assert testpay_webhooks.ids() == [payment.id]
    paid = await provider_client.get_payment(payment.id)
    assert (paid.status, paid.failure_reason) == (PaymentStatus.PAID, None)
    assert await testpay.sweep() == 0


async def test_reading_a_due_debit_collects_it(provider_client, testpay, testpay_clock) -> None:
    payment = await debit(provider_client)
    testpay_clock.advance(days=3)
    assert (await provider_client.get_payment(payment.id)).status is PaymentStatus.PAID


async def test_collection_days_are_the_providers_to_choose(testpay, testpay_webhooks) -> None:
    quick = TestProvider(deliver=testpay_webhooks.deliver, clock=testpay.clock, collection_days=0)
    client = make_provider_client(quick)
    payment = await debit(client)
    assert (await client.get_payment(payment.id)).status is PaymentStatus.PAID
    await client.aclose()


@pytest.mark.parametrize("reason", ["AC04", "AC06", "MD01", "MD06", "MS02", "FRAD"])
async def test_a_debit_fails_for_the_banks_reason_with_a_webhook(
    provider_client, testpay_http, testpay_webhooks, reason
) -> None:
    payment = await debit(provider_client)
    answer = await control(testpay_http, payment.id, "test-outcome", status="failed", reason=reason)

    assert answer.status_code == 200
    assert answer.json()["details"]["bankReasonCode"] == reason
    assert answer.json()["details"]["bankReason"]
    assert testpay_webhooks.ids() == [payment.id]
    failed = await provider_client.get_payment(payment.id)
    assert (failed.status, failed.failure_reason) == (PaymentStatus.FAILED, reason)


async def test_a_failure_without_a_reason_is_unspecified_and_an_unknown_one_refused(
    provider_client, testpay_http
) -> None:
    payment = await debit(provider_client)
    wrong = await control(testpay_http, payment.id, "test-outcome", status="failed", reason="XX99")
    assert (wrong.status_code, wrong.json()["field"]) == (422, "reason")
    await control(testpay_http, payment.id, "test-outcome", status="failed")
    assert (await provider_client.get_payment(payment.id)).failure_reason == "MS03"


async def test_a_card_payment_that_fails_has_no_bank_reason(provider_client, testpay_http):
    payment, _ = await pay(provider_client, testpay_http, "failed")
    assert (await provider_client.get_payment(payment.id)).failure_reason is None


async def test_a_collected_debit_charged_back_for_a_refund_claim(
    provider_client, testpay_http, testpay_webhooks
) -> None:
    payment = await debit(provider_client)
    await control(testpay_http, payment.id, "test-outcome", status="paid")
    assert await provider_client.list_chargebacks(payment.id) == []
    testpay_webhooks.calls.clear()

    answer = await control(testpay_http, payment.id, "test-chargeback", reason="MD06")
    assert answer.status_code == 200 and testpay_webhooks.ids() == [payment.id]
    charged = await provider_client.get_payment(payment.id)
    assert charged.amount_charged_back == Money(1995, "EUR")
    assert charged.status is PaymentStatus.PAID and charged.failure_reason is None
    [chargeback] = await provider_client.list_chargebacks(payment.id)
    assert chargeback.id.startswith("chb_")
    assert (chargeback.amount, chargeback.reason_code) == (Money(1995, "EUR"), "MD06")
    refused = await control(testpay_http, payment.id, "test-chargeback", reason="NOPE")
    assert refused.status_code == 422


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"customer_id": None}, "customerId"),
        ({"customer_id": "cst_nobody1234"}, "customerId"),
        ({"mandate_id": "mdt_nothing123"}, "mandateId"),
        ({"method": "ideal"}, "method"),
        ({"amount": Money(1995, "USD")}, "amount"),  # euros only
        ({"amount": Money(1_000_01, "EUR")}, "amount"),  # above the test maximum
        ({"sequence_type": "first"}, "sequenceType"),
        ({"sequence_type": "oneoff", "redirect_url": REDIRECT}, "method"),  # needs a mandate
    ],
)
async def test_a_debit_mollie_would_refuse_is_a_422(provider_client, changes, field) -> None:
    customer, mandate = await signed_mandate(provider_client)
    with pytest.raises(ProviderError) as refused:
        await provider_client.create_payment(
            dataclasses.replace(on_mandate(customer, mandate.id), **changes)
        )
    assert (refused.value.status, refused.value.field) == (422, field)


async def test_a_customer_without_a_mandate_cannot_be_debited(provider_client) -> None:
    customer = await provider_client.create_customer("Bo", "bo@example.org", "en_US", {})
    with pytest.raises(ProviderError) as refused:
        await provider_client.create_payment(on_mandate(customer, None))
    assert (refused.value.status, refused.value.field) == (422, "mandateId")


async def test_the_sweeper_forgets_payments_settled_over_400_days_ago(
    provider_client, testpay, testpay_http, testpay_clock
) -> None:
    payment, _ = await pay(provider_client, testpay_http)
    testpay_clock.advance(days=1)
    await testpay.sweep()  # the first sweep of a provider forgets at once: nothing is that old
    recent = await provider_client.create_payment(request(idempotency_key="recent"))
    testpay_clock.advance(days=400)
    await testpay.sweep()
    with pytest.raises(ProviderError) as gone:
        await provider_client.get_payment(payment.id)
    assert gone.value.status == 404
    assert (await provider_client.get_payment(recent.id)).status is PaymentStatus.EXPIRED
