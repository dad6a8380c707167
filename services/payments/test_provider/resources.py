"""Mollie's v2 JSON shapes for the test provider's payments, refunds, chargebacks, customers,
mandates, methods and errors."""

from datetime import UTC, datetime
from typing import Any

from starlette.responses import JSONResponse

from models.test_payments import (
    SandboxChargeback,
    SandboxCustomer,
    SandboxMandate,
    SandboxPayment,
    SandboxRefund,
    remaining_cents,
)
from services.payments.amounts import amount_json
from services.payments.test_provider.direct_debit import BANK_REASONS, payment_details
from services.payments.test_provider.methods import MethodSpec
from services.payments.types import Money
from translations.catalog import gettext
from translations.locales import supported

HAL = "application/hal+json"
ERRORS_DOC = "https://docs.mollie.com/reference/handling-errors"
PROFILE_ID = "pfl_testbuiltin"
DOCS = "https://docs.mollie.com/reference"


def _link(href: str, kind: str = HAL) -> dict[str, str]:
    return {"href": href, "type": kind}


def _time(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _money(cents: int, currency: str) -> dict[str, str]:
    return amount_json(Money(cents, currency))


def error(status: int, title: str, detail: str, field: str | None = None) -> JSONResponse:
    body: dict[str, Any] = {"status": status, "title": title, "detail": detail}
    if field:
        body["field"] = field
    body["_links"] = {"documentation": _link(ERRORS_DOC, "text/html")}
    return JSONResponse(body, status_code=status, media_type=HAL)


def resource(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, media_type=HAL)


def payment_json(payment: SandboxPayment, base: str) -> dict[str, Any]:
    self_href = f"{base}/v2/payments/{payment.id}"
    body: dict[str, Any] = {
        "resource": "payment",
        "id": payment.id,
        "mode": "test",
        "createdAt": _time(payment.created_at),
        "amount": _money(payment.amount_cents, payment.currency),
        "description": payment.description,
        "method": payment.method,
        "metadata": payment.payment_metadata,
        "status": payment.status,
        "isCancelable": False,
        "locale": payment.locale,
        "profileId": PROFILE_ID,
        "sequenceType": payment.sequence_type,
        "redirectUrl": payment.redirect_url,
        "webhookUrl": payment.webhook_url,
    }
    links = {"self": _link(self_href)}
    if payment.customer_id:
        customer_href = f"{base}/v2/customers/{payment.customer_id}"
        body |= {"customerId": payment.customer_id, "mandateId": payment.mandate_id}
        links |= {
            "customer": _link(customer_href),
            "mandate": _link(f"{customer_href}/mandates/{payment.mandate_id}"),
        }
    if (details := payment_details(payment)) is not None:
        body["details"] = details
    if payment.status == "open":
        body["expiresAt"] = _time(payment.expires_at)
        links["checkout"] = _link(f"{base}/checkout/{payment.id}", "text/html")
    if payment.settled_at is not None:
        body[f"{payment.status}At"] = _time(payment.settled_at)
    if payment.status == "paid":
        body["amountRefunded"] = _money(payment.refunded_cents, payment.currency)
        body["amountRemaining"] = _money(remaining_cents(payment), payment.currency)
    if payment.charged_back_cents:
        body["amountChargedBack"] = _money(payment.charged_back_cents, payment.currency)
        links["chargebacks"] = _link(f"{self_href}/chargebacks")
    if payment.refunded_cents:
        links["refunds"] = _link(f"{self_href}/refunds")
    links["documentation"] = _link(f"{DOCS}/get-payment", "text/html")
    body["_links"] = links
    return body


def refund_json(refund: SandboxRefund, base: str) -> dict[str, Any]:
    payment_href = f"{base}/v2/payments/{refund.payment_id}"
    return {
        "resource": "refund",
        "id": refund.id,
        "mode": "test",
        "amount": _money(refund.amount_cents, refund.currency),
        "status": refund.status,
        "createdAt": _time(refund.created_at),
        "description": refund.description,
        "metadata": None,
        "paymentId": refund.payment_id,
        "_links": {
            "self": _link(f"{payment_href}/refunds/{refund.id}"),
            "payment": _link(payment_href),
        },
    }


def chargeback_json(chargeback: SandboxChargeback, base: str) -> dict[str, Any]:
    payment_href = f"{base}/v2/payments/{chargeback.payment_id}"
    code = chargeback.reason_code
    reason = {"code": code, "description": BANK_REASONS.get(code, code)} if code else None
    return {
        "resource": "chargeback",
        "id": chargeback.id,
        "amount": _money(chargeback.amount_cents, chargeback.currency),
        "settlementAmount": _money(-chargeback.amount_cents, chargeback.currency),
        "createdAt": _time(chargeback.created_at),
        "reason": reason,
        "reversedAt": None,
        "paymentId": chargeback.payment_id,
        "_links": {
            "self": _link(f"{payment_href}/chargebacks/{chargeback.id}"),
            "payment": _link(payment_href),
        },
    }


def customer_json(customer: SandboxCustomer, base: str) -> dict[str, Any]:
    self_href = f"{base}/v2/customers/{customer.id}"
    return {
        "resource": "customer",
        "id": customer.id,
        "mode": "test",
        "name": customer.name,
        "email": customer.email,
        "locale": customer.locale,
        "metadata": customer.customer_metadata,
        "createdAt": _time(customer.created_at),
        "_links": {
            "self": _link(self_href),
            "mandates": _link(f"{self_href}/mandates"),
            "documentation": _link(f"{DOCS}/get-customer", "text/html"),
        },
    }


def mandate_json(mandate: SandboxMandate, base: str) -> dict[str, Any]:
    customer_href = f"{base}/v2/customers/{mandate.customer_id}"
    return {
        "resource": "mandate",
        "id": mandate.id,
        "mode": "test",
        "status": mandate.status,
        "method": mandate.method,
        "details": {
            "consumerName": mandate.consumer_name,
            "consumerAccount": mandate.consumer_account,
            "consumerBic": mandate.consumer_bic,
        },
        "mandateReference": mandate.mandate_reference,
        "signatureDate": mandate.signature_date.isoformat() if mandate.signature_date else None,
        "createdAt": _time(mandate.created_at),
        "_links": {
            "self": _link(f"{customer_href}/mandates/{mandate.id}"),
            "customer": _link(customer_href),
            "documentation": _link(f"{DOCS}/get-mandate", "text/html"),
        },
    }


def method_json(method: MethodSpec, base: str, locale: str | None, currency: str) -> dict[str, Any]:
    icon = f"{base}/icons/{method.id}.svg"
    return {
        "resource": "method",
        "id": method.id,
        "description": gettext(supported(locale) or "en", method.description),
        "minimumAmount": _money(method.minimum_cents, currency),
        "maximumAmount": _money(method.maximum_cents, currency),
        "image": {"size1x": icon, "size2x": icon, "svg": icon},
        "status": "activated",
        "_links": {"self": _link(f"{base}/v2/methods/{method.id}")},
    }


def listing(name: str, items: list[dict[str, Any]], self_href: str) -> dict[str, Any]:
    return {
        "count": len(items),
        "_embedded": {name: items},
        "_links": {"self": _link(self_href), "previous": None, "next": None},
    }
