"""The Mollie client against Mollie's documented responses (docs.mollie.com: Create payment,
Get payment, List methods, Create refund, List refunds, Handling errors), via MockTransport."""

import json
from datetime import UTC, datetime

import httpx
import pytest

from services.payments.mollie import LIVE_API_URL, MollieClient
from services.payments.types import (
    Money,
    PaymentRequest,
    PaymentStatus,
    ProviderError,
    RefundStatus,
)

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
