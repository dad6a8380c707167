"""The Mollie client against Mollie's documented responses (docs.mollie.com: Create payment,
Get payment, List methods, Create refund, List refunds, List payment chargebacks, Create
customer, Create mandate, Get mandate, a recurring SEPA Direct Debit payment and its details,
Handling errors), via MockTransport."""

import dataclasses
import json
from datetime import UTC, date, datetime

import httpx
import pytest

from models.site_settings import COUNTRY_CURRENCY
from services.payments.mollie import LIVE_API_URL, MollieClient
from services.payments.provider import mollie_locale
from services.payments.types import (
    MOLLIE_LOCALES,
    MandateStatus,
    Money,
    PaymentRequest,
    PaymentStatus,
    ProviderChargeback,
    ProviderError,
    ProviderMandate,
    RefundStatus,
)
from translations.locales import LOCALES

PAYMENT = {
    "resource": "payment",
    "id": "tr_7UhSN1zuXS",
    "mode": "test",
    "createdAt": "2018-03-20T09:13:37+00:00",
    "amount": {"value": "10.00", "currency": "EUR"},
    "description": "Order #12345",
    "method": None,
    "metadata": {"order_id": "12345"},
    "status": "open",
    "isCancelable": False,
    "expiresAt": "2018-03-20T09:28:37+00:00",
    "details": None,
    "profileId": "pfl_QkEhN94Ba",
    "sequenceType": "oneoff",
    "redirectUrl": "https://webshop.example.org/order/12345/",
    "webhookUrl": "https://webshop.example.org/payments/webhook/",
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/payments/tr_7UhSN1zuXS",
            "type": "application/json",
        },
        "checkout": {
            "href": "https://www.mollie.com/payscreen/select-method/7UhSN1zuXS",
            "type": "text/html",
        },
        "dashboard": {
            "href": "https://www.mollie.com/dashboard/org_12345678/payments/tr_7UhSN1zuXS",
            "type": "application/json",
        },
        "documentation": {
            "href": "https://docs.mollie.com/reference/v2/payments-api/create-payment",
            "type": "text/html",
        },
    },
}

PAID = {
    **PAYMENT,
    "method": "ideal",
    "status": "paid",
    "paidAt": "2018-03-20T09:14:37+00:00",
    "amountRefunded": {"value": "2.00", "currency": "EUR"},
    "amountRemaining": {"value": "8.00", "currency": "EUR"},
    "amountChargedBack": {"value": "0.00", "currency": "EUR"},
    "details": {
        "consumerName": "Hr E G H K\u00fcppers en/of MW M.J. K\u00fcppers-Veeneman",
        "consumerAccount": "NL53INGB0618365937",
        "consumerBic": "INGBNL2A",
    },
    "_links": {key: value for key, value in PAYMENT["_links"].items() if key != "checkout"},
}

METHODS = {
    "count": 2,
    "_embedded": {
        "methods": [
            {
                "resource": "method",
                "id": "ideal",
                "description": "iDEAL",
                "minimumAmount": {"value": "0.01", "currency": "EUR"},
                "maximumAmount": {"value": "50000.00", "currency": "EUR"},
                "image": {
                    "size1x": "https://www.mollie.com/external/icons/payment-methods/ideal.png",
                    "size2x": "https://www.mollie.com/external/icons/payment-methods/ideal%402x.png",
                    "svg": "https://www.mollie.com/external/icons/payment-methods/ideal.svg",
                },
                "status": "activated",
                "_links": {
                    "self": {
                        "href": "https://api.mollie.com/v2/methods/ideal",
                        "type": "application/hal+json",
                    }
                },
            },
            {
                "resource": "method",
                "id": "creditcard",
                "description": "Creditcard",
                "minimumAmount": {"value": "0.01", "currency": "EUR"},
                "maximumAmount": {"value": "2000.00", "currency": "EUR"},
                "image": {
                    "size1x": "https://www.mollie.com/external/icons/payment-methods/creditcard.png",
                    "size2x": "https://www.mollie.com/external/icons/payment-methods/creditcard%402x.png",
                },
                "status": "activated",
                "_links": {
                    "self": {
                        "href": "https://api.mollie.com/v2/methods/creditcard",
                        "type": "application/hal+json",
                    }
                },
            },
        ]
    },
    "_links": {
        "self": {"href": "https://api.mollie.com/v2/methods", "type": "application/hal+json"},
        "documentation": {
            "href": "https://docs.mollie.com/reference/v2/methods-api/list-methods",
            "type": "text/html",
        },
    },
}

REFUND = {
    "resource": "refund",
    "id": "re_4qqhO89gsT",
    "amount": {"currency": "EUR", "value": "5.95"},
    "status": "pending",
    "createdAt": "2018-03-14T17:09:02.0Z",
    "description": "Order #33",
    "metadata": {"bookkeeping_id": 12345},
    "paymentId": "tr_WDqYK6vllg",
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/payments/tr_WDqYK6vllg/refunds/re_4qqhO89gsT",
            "type": "application/hal+json",
        },
        "payment": {
            "href": "https://api.mollie.com/v2/payments/tr_WDqYK6vllg",
            "type": "application/hal+json",
        },
    },
}

REFUNDS = {
    "count": 1,
    "_embedded": {"refunds": [REFUND]},
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/payments/tr_WDqYK6vllg/refunds?limit=5",
            "type": "application/hal+json",
        },
        "previous": None,
        "next": None,
    },
}

ERROR_422 = {
    "status": 422,
    "title": "Unprocessable Entity",
    "detail": "The amount is higher than the maximum",
    "field": "amount",
    "_links": {
        "documentation": {
            "href": "https://docs.mollie.com/overview/handling-errors",
            "type": "text/html",
        }
    },
}

ERROR_401 = {
    "status": 401,
    "title": "Unauthorized Request",
    "detail": "Missing authentication, or failed to authenticate",
    "_links": {
        "documentation": {
            "href": "https://docs.mollie.com/overview/authentication",
            "type": "text/html",
        }
    },
}

CUSTOMER = {
    "resource": "customer",
    "id": "cst_8wmqcHMN4U",
    "mode": "test",
    "name": "Customer A",
    "email": "customer@example.org",
    "locale": "nl_NL",
    "metadata": {"member_id": "7"},
    "createdAt": "2018-04-06T13:10:19.0Z",
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/customers/cst_8wmqcHMN4U",
            "type": "application/hal+json",
        },
        "documentation": {
            "href": "https://docs.mollie.com/reference/v2/customers-api/create-customer",
            "type": "text/html",
        },
    },
}

MANDATE = {
    "resource": "mandate",
    "id": "mdt_h3gAaD5zP",
    "mode": "test",
    "status": "valid",
    "method": "directdebit",
    "details": {
        "consumerName": "John Doe",
        "consumerAccount": "NL55INGB0000000000",
        "consumerBic": "INGBNL2A",
    },
    "mandateReference": "YOUR-COMPANY-MD1380",
    "signatureDate": "2018-05-07",
    "createdAt": "2018-05-07T10:49:08+00:00",
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/customers/cst_8wmqcHMN4U/mandates/mdt_h3gAaD5zP",
            "type": "application/hal+json",
        },
        "customer": {
            "href": "https://api.mollie.com/v2/customers/cst_8wmqcHMN4U",
            "type": "application/hal+json",
        },
        "documentation": {
            "href": "https://docs.mollie.com/reference/v2/mandates-api/get-mandate",
            "type": "text/html",
        },
    },
}

DIRECT_DEBIT = {
    "resource": "payment",
    "id": "tr_7UhSN1zuXS",
    "mode": "test",
    "createdAt": "2018-03-20T13:13:37+00:00",
    "amount": {"value": "19.95", "currency": "EUR"},
    "description": "Order 7: 100 credits",
    "method": "directdebit",
    "metadata": {"order_id": "7"},
    "status": "pending",
    "isCancelable": True,
    "profileId": "pfl_QkEhN94Ba",
    "customerId": "cst_8wmqcHMN4U",
    "mandateId": "mdt_h3gAaD5zP",
    "sequenceType": "recurring",
    "redirectUrl": None,
    "webhookUrl": "https://webshop.example.org/payments/webhook/",
    "details": {
        "transferReference": "SD11-2222-3333-4444",
        "creditorIdentifier": "NL08ZZZ502057730000",
        "consumerName": "John Doe",
        "consumerAccount": "NL55INGB0000000000",
        "consumerBic": "INGBNL2A",
        "dueDate": "2018-03-23",
        "signatureDate": "2018-03-20",
        "mandateReference": "YOUR-COMPANY-MD1380",
    },
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/payments/tr_7UhSN1zuXS",
            "type": "application/hal+json",
        },
        "customer": {
            "href": "https://api.mollie.com/v2/customers/cst_8wmqcHMN4U",
            "type": "application/hal+json",
        },
        "mandate": {
            "href": "https://api.mollie.com/v2/customers/cst_8wmqcHMN4U/mandates/mdt_h3gAaD5zP",
            "type": "application/hal+json",
        },
    },
}

RETURNED = {
    **DIRECT_DEBIT,
    "status": "failed",
    "isCancelable": False,
    "failedAt": "2018-03-24T09:00:00+00:00",
    "details": {
        **DIRECT_DEBIT["details"],
        "bankReasonCode": "AC04",
        "bankReason": "Account closed",
        "endToEndIdentifier": "E2E-7UhSN1zuXS",
        "batchReference": "BATCH-2018-03-23",
        "fileReference": "FILE-2018-03-23",
    },
}

CHARGEBACKS = {
    "count": 1,
    "_embedded": {
        "chargebacks": [
            {
                "resource": "chargeback",
                "id": "chb_n9z0tp",
                "amount": {"currency": "EUR", "value": "19.95"},
                "settlementAmount": {"currency": "EUR", "value": "-19.95"},
                "createdAt": "2018-03-14T17:00:52.0Z",
                "reason": {"code": "MD06", "description": "Refund request by end customer"},
                "reversedAt": None,
                "paymentId": "tr_7UhSN1zuXS",
                "_links": {
                    "self": {
                        "href": "https://api.mollie.com/v2/payments/tr_7UhSN1zuXS/chargebacks/chb_n9z0tp",
                        "type": "application/hal+json",
                    },
                    "payment": {
                        "href": "https://api.mollie.com/v2/payments/tr_7UhSN1zuXS",
                        "type": "application/hal+json",
                    },
                },
            }
        ]
    },
    "_links": {
        "self": {
            "href": "https://api.mollie.com/v2/payments/tr_7UhSN1zuXS/chargebacks",
            "type": "application/hal+json",
        },
        "previous": None,
        "next": None,
    },
}

REQUEST = PaymentRequest(
    amount=Money(1000, "EUR"),
    description="Order #12345",
    redirect_url="https://webshop.example.org/order/12345/",
    webhook_url="https://webshop.example.org/payments/webhook/",
    method="ideal",
    locale="nl_NL",
    metadata={"order_id": "12345"},
    idempotency_key="order-12345-key",
)


def answering(status: int, body: object, seen: list[httpx.Request]) -> MollieClient:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, json=body)

    return MollieClient(
        "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM", transport=httpx.MockTransport(handler)
    )


async def test_create_payment_sends_mollies_body_with_the_idempotency_key() -> None:
    seen: list[httpx.Request] = []
    payment = await answering(201, PAYMENT, seen).create_payment(REQUEST)

    request = seen[0]
    assert (request.method, str(request.url)) == ("POST", f"{LIVE_API_URL}/payments")
    assert request.headers["Authorization"] == "Bearer test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"
    assert request.headers["Idempotency-Key"] == "order-12345-key"
    assert json.loads(request.content) == {
        "amount": {"currency": "EUR", "value": "10.00"},
        "description": "Order #12345",
        "redirectUrl": "https://webshop.example.org/order/12345/",
        "webhookUrl": "https://webshop.example.org/payments/webhook/",
        "method": "ideal",
        "locale": "nl_NL",
        "metadata": {"order_id": "12345"},
    }
    assert payment.id == "tr_7UhSN1zuXS"
    assert payment.status is PaymentStatus.OPEN
    assert payment.amount == Money(1000, "EUR")
    assert payment.checkout_url == "https://www.mollie.com/payscreen/select-method/7UhSN1zuXS"
    assert payment.metadata == {"order_id": "12345"}
    assert payment.expires_at == datetime(2018, 3, 20, 9, 28, 37, tzinfo=UTC)
    assert payment.amount_refunded is None


async def test_our_client_never_sends_a_locale_mollie_would_refuse() -> None:
    seen: list[httpx.Request] = []
    client = answering(201, PAYMENT, seen)
    await client.create_payment(dataclasses.replace(REQUEST, locale="nl_NL" + "x" * 20))
    await client.create_payment(dataclasses.replace(REQUEST, locale="en_NL"))
    assert ["locale" in json.loads(request.content) for request in seen] == [False, False]


@pytest.mark.parametrize("language", LOCALES)
def test_every_language_and_country_gets_a_locale_mollie_knows(language: str) -> None:
    countries = [*COUNTRY_CURRENCY, "BE", "AT", "CH", "GB", "XX", None]
    assert {mollie_locale(language, country) for country in countries} <= MOLLIE_LOCALES


@pytest.mark.parametrize(
    ("language", "country", "locale"),
    [("nl", "BE", "nl_BE"), ("fr", "be", "fr_BE"), ("de", "AT", "de_AT"), ("de", "CH", "de_CH"),
     ("en", "GB", "en_GB"), ("nl", "NL", "nl_NL"), ("sv", "FI", "sv_SE"), ("fi", None, "fi_FI"),
     ("en", "NL", "en_US")],
)  # fmt: skip
def test_the_checkout_speaks_the_buyers_regional_locale_where_mollie_has_one(
    language: str, country: str | None, locale: str
) -> None:
    assert mollie_locale(language, country) == locale


async def test_get_payment_reads_a_paid_payment() -> None:
    seen: list[httpx.Request] = []
    payment = await answering(200, PAID, seen).get_payment("tr_7UhSN1zuXS")

    assert (seen[0].method, seen[0].url.path) == ("GET", "/v2/payments/tr_7UhSN1zuXS")
    assert "Idempotency-Key" not in seen[0].headers
    assert payment.status is PaymentStatus.PAID
    assert payment.method == "ideal"
    assert payment.checkout_url is None
    assert payment.amount_refunded == Money(200, "EUR")
    assert payment.amount_charged_back == Money(0, "EUR")


async def test_list_methods_asks_for_amount_country_and_locale() -> None:
    seen: list[httpx.Request] = []
    client = answering(200, METHODS, seen)
    methods = await client.list_methods(Money(1995, "EUR"), "NL", "nl_NL")

    assert seen[0].url.path == "/v2/methods"
    assert dict(seen[0].url.params) == {
        "amount[value]": "19.95",
        "amount[currency]": "EUR",
        "billingCountry": "NL",
        "locale": "nl_NL",
        "resource": "payments",
        "sequenceType": "oneoff",
    }
    assert [(m.id, m.description) for m in methods] == [
        ("ideal", "iDEAL"),
        ("creditcard", "Creditcard"),
    ]
    assert methods[0].image_url.endswith("/ideal.svg")
    assert methods[1].image_url.endswith("/creditcard%402x.png")  # no svg: the sharpest png


async def test_create_refund_and_list_refunds() -> None:
    seen: list[httpx.Request] = []
    refund = await answering(201, REFUND, seen).create_refund(
        "tr_WDqYK6vllg", Money(595, "EUR"), "Order #33", "refund-key-1"
    )
    assert seen[0].url.path == "/v2/payments/tr_WDqYK6vllg/refunds"
    assert seen[0].headers["Idempotency-Key"] == "refund-key-1"
    assert json.loads(seen[0].content) == {
        "amount": {"currency": "EUR", "value": "5.95"},
        "description": "Order #33",
    }
    assert (refund.id, refund.payment_id, refund.status, refund.amount) == (
        "re_4qqhO89gsT",
        "tr_WDqYK6vllg",
        RefundStatus.PENDING,
        Money(595, "EUR"),
    )

    refunds = await answering(200, REFUNDS, seen).list_refunds("tr_WDqYK6vllg")
    assert refunds == [refund]


async def test_a_422_becomes_a_provider_error_naming_the_field() -> None:
    with pytest.raises(ProviderError) as raised:
        await answering(422, ERROR_422, []).create_payment(REQUEST)
    error = raised.value
    assert (error.status, error.title, error.field) == (422, "Unprocessable Entity", "amount")
    assert error.detail == "The amount is higher than the maximum"


async def test_a_401_and_a_404_become_provider_errors() -> None:
    with pytest.raises(ProviderError) as raised:
        await answering(401, ERROR_401, []).get_payment("tr_x")
    assert (raised.value.status, raised.value.field) == (401, None)

    not_found = {
        "status": 404,
        "title": "Not Found",
        "detail": "No payment exists with token tr_x.",
    }
    with pytest.raises(ProviderError) as raised:
        await answering(404, not_found, []).get_payment("tr_x")
    assert (raised.value.status, raised.value.detail) == (404, "No payment exists with token tr_x.")


async def test_no_answer_is_status_zero() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    client = MollieClient("test_x", transport=httpx.MockTransport(refuse))
    with pytest.raises(ProviderError) as raised:
        await client.get_payment("tr_x")
    assert raised.value.status == 0


async def test_an_html_error_page_or_a_malformed_payment_is_an_error() -> None:
    def gateway(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, text="<html>Bad Gateway</html>")

    client = MollieClient("test_x", transport=httpx.MockTransport(gateway))
    with pytest.raises(ProviderError) as raised:
        await client.get_payment("tr_x")
    assert (raised.value.status, raised.value.title) == (502, "Bad Gateway")

    broken = {**PAYMENT, "amount": {"value": "ten", "currency": "EUR"}}
    with pytest.raises(ProviderError) as raised:
        await answering(200, broken, []).get_payment("tr_7UhSN1zuXS")
    assert raised.value.status == 0


async def test_create_customer_sends_name_email_locale_metadata_and_gives_its_id() -> None:
    seen: list[httpx.Request] = []
    customer = await answering(201, CUSTOMER, seen).create_customer(
        "Customer A", "customer@example.org", "nl_NL", {"member_id": "7"}, "sdd-customer-7"
    )
    assert customer == "cst_8wmqcHMN4U"
    assert (seen[0].method, seen[0].url.path) == ("POST", "/v2/customers")
    assert seen[0].headers["Idempotency-Key"] == "sdd-customer-7"
    assert json.loads(seen[0].content) == {
        "name": "Customer A",
        "email": "customer@example.org",
        "locale": "nl_NL",
        "metadata": {"member_id": "7"},
    }


async def test_create_mandate_registers_the_signed_sepa_mandate() -> None:
    seen: list[httpx.Request] = []
    mandate = await answering(201, MANDATE, seen).create_mandate(
        "cst_8wmqcHMN4U",
        "John Doe",
        "NL55INGB0000000000",
        date(2018, 5, 7),
        "YOUR-COMPANY-MD1380",
        idempotency_key="sdd-mandate-7",
    )
    assert seen[0].url.path == "/v2/customers/cst_8wmqcHMN4U/mandates"
    assert seen[0].headers["Idempotency-Key"] == "sdd-mandate-7"
    assert json.loads(seen[0].content) == {
        "method": "directdebit",
        "consumerName": "John Doe",
        "consumerAccount": "NL55INGB0000000000",
        "signatureDate": "2018-05-07",
        "mandateReference": "YOUR-COMPANY-MD1380",
    }
    assert mandate == ProviderMandate(
        id="mdt_h3gAaD5zP",
        status=MandateStatus.VALID,
        method="directdebit",
        mandate_reference="YOUR-COMPANY-MD1380",
        signature_date=date(2018, 5, 7),
        consumer_name="John Doe",
        consumer_account="NL55INGB0000000000",
    )
    again = await answering(200, MANDATE, seen).get_mandate("cst_8wmqcHMN4U", "mdt_h3gAaD5zP")
    assert seen[1].url.path == "/v2/customers/cst_8wmqcHMN4U/mandates/mdt_h3gAaD5zP"
    assert again == mandate


async def test_a_payment_on_a_mandate_is_recurring_without_a_redirect() -> None:
    seen: list[httpx.Request] = []
    request = dataclasses.replace(
        REQUEST,
        amount=Money(1995, "EUR"),
        method="directdebit",
        redirect_url=None,
        customer_id="cst_8wmqcHMN4U",
        mandate_id="mdt_h3gAaD5zP",
        sequence_type="recurring",
    )
    payment = await answering(201, DIRECT_DEBIT, seen).create_payment(request)

    body = json.loads(seen[0].content)
    assert "redirectUrl" not in body
    assert {k: body[k] for k in ("method", "sequenceType", "customerId", "mandateId")} == {
        "method": "directdebit",
        "sequenceType": "recurring",
        "customerId": "cst_8wmqcHMN4U",
        "mandateId": "mdt_h3gAaD5zP",
    }
    assert payment.status is PaymentStatus.PENDING and payment.checkout_url is None
    assert (payment.sequence_type, payment.customer_id, payment.mandate_id) == (
        "recurring",
        "cst_8wmqcHMN4U",
        "mdt_h3gAaD5zP",
    )
    assert payment.due_date == date(2018, 3, 23)
    assert payment.failure_reason is None


async def test_a_returned_debit_carries_the_banks_reason_code() -> None:
    payment = await answering(200, RETURNED, []).get_payment("tr_7UhSN1zuXS")
    assert (payment.status, payment.failure_reason) == (PaymentStatus.FAILED, "AC04")


async def test_a_one_off_payment_has_no_mandate_fields() -> None:
    payment = await answering(200, PAID, []).get_payment("tr_7UhSN1zuXS")
    assert (payment.sequence_type, payment.customer_id, payment.mandate_id) == (
        "oneoff",
        None,
        None,
    )
    assert (payment.due_date, payment.failure_reason) == (None, None)


async def test_list_chargebacks_reads_the_reason_code() -> None:
    seen: list[httpx.Request] = []
    chargebacks = await answering(200, CHARGEBACKS, seen).list_chargebacks("tr_7UhSN1zuXS")
    assert seen[0].url.path == "/v2/payments/tr_7UhSN1zuXS/chargebacks"
    assert chargebacks == [
        ProviderChargeback("chb_n9z0tp", "tr_7UhSN1zuXS", Money(1995, "EUR"), "MD06")
    ]


async def test_a_customer_without_an_id_or_a_mandate_of_no_known_status_is_unreadable() -> None:
    with pytest.raises(ProviderError) as raised:
        await answering(201, {**CUSTOMER, "id": None}, []).create_customer("A", "a@x", "nl_NL", {})
    assert raised.value.status == 0
    with pytest.raises(ProviderError) as raised:
        await answering(200, {**MANDATE, "status": "lost"}, []).get_mandate("cst_x", "mdt_x")
    assert raised.value.status == 0


async def test_revoke_mandate_deletes_it_and_reads_no_content() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    client = MollieClient("test_key", transport=httpx.MockTransport(handler))
    assert await client.revoke_mandate("cst_8wmqcHMN4U", "mdt_pWUnw6pkBN") is None
    assert (seen[0].method, seen[0].url.path) == (
        "DELETE",
        "/v2/customers/cst_8wmqcHMN4U/mandates/mdt_pWUnw6pkBN",
    )


async def test_list_customer_payments_reads_each_payment() -> None:
    seen: list[httpx.Request] = []
    listing = {"count": 1, "_embedded": {"payments": [PAYMENT]}, "_links": {}}
    payments = await answering(200, listing, seen).list_customer_payments("cst_8wmqcHMN4U")
    assert seen[0].url.path == "/v2/customers/cst_8wmqcHMN4U/payments"
    assert [payment.id for payment in payments] == ["tr_7UhSN1zuXS"]


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.get_payment("../customers"),
        lambda c: c.get_payment("cst_8wmqcHMN4U"),
        lambda c: c.list_refunds("tr_7Uh/../x"),
        lambda c: c.get_mandate("cst_8wmqcHMN4U", "mdt_a?b"),
        lambda c: c.list_customer_payments("cst_"),
        lambda c: c.revoke_mandate("tr_7UhSN1zuXS", "mdt_pWUnw6pkBN"),
    ],
)
async def test_an_id_not_shaped_like_the_providers_is_refused_unsent(call) -> None:
    seen: list[httpx.Request] = []
    with pytest.raises(ProviderError) as refused:
        await call(answering(200, PAYMENT, seen))
    assert refused.value.status == 400 and seen == []
