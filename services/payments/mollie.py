"""A small async client for Mollie's v2 API (payments, methods, refunds, chargebacks, and the
customers and mandates a direct debit is charged on) over httpx.

The same client talks to api.mollie.com and to our built-in test provider, which speaks the
same API. Every failure surfaces as ProviderError: Mollie's error JSON parsed, or status 0
when no answer came (network error, timeout, garbage).
"""

import asyncio
import functools
import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any, TypeVar

import httpx

from services.payments.amounts import amount_json, money_of
from services.payments.types import (
    MOLLIE_LOCALES,
    MandateStatus,
    Money,
    PaymentRequest,
    PaymentStatus,
    ProviderChargeback,
    ProviderError,
    ProviderMandate,
    ProviderMethod,
    ProviderPayment,
    ProviderRefund,
    RefundStatus,
)

LIVE_API_URL = "https://api.mollie.com/v2"
TIMEOUT_SECONDS = 10.0
USER_AGENT = "datingsite-mollie/1"
T = TypeVar("T")
_ID = re.compile(r"[a-z]{2,4}_[A-Za-z0-9]{1,40}")  # tr_..., cst_..., mdt_..., re_...


class MollieClient:
    """One API key against one base URL (".../v2"). `transport` lets tests answer in-process.

    The httpx client is made per event loop: a connection pool must not cross loops."""

    def __init__(
        self,
        api_key: str,
        base_url: str = LIVE_API_URL,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = TIMEOUT_SECONDS,
    ) -> None:
        self.api_key, self.base_url = api_key, base_url.rstrip("/")
        self._transport, self._timeout = transport, timeout
        self._http: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def create_payment(self, request: PaymentRequest) -> ProviderPayment:
        body: dict[str, Any] = {
            "amount": amount_json(request.amount),
            "description": request.description,
            "redirectUrl": request.redirect_url,
            "webhookUrl": request.webhook_url,
            "method": request.method,
            "locale": mollie_locale_or_none(request.locale),
            "metadata": request.metadata,
        }
        if request.sequence_type != "oneoff":  # a payment on the customer's mandate
            body |= {
                "sequenceType": request.sequence_type,
                "customerId": request.customer_id,
                "mandateId": request.mandate_id,
            }
        data = await self._call(
            "POST", "/payments", json=_without_none(body), key=request.idempotency_key
        )
        return parse_payment(data)

    async def get_payment(self, payment_id: str) -> ProviderPayment:
        return parse_payment(await self._call("GET", f"/payments/{_id(payment_id, 'tr')}"))

    async def list_methods(
        self, amount: Money, billing_country: str, locale: str
    ) -> list[ProviderMethod]:
        """The methods Mollie offers for this amount, currency and country, in its order."""
        params = {
            "amount[value]": amount_json(amount)["value"],
            "amount[currency]": amount.currency,
            "billingCountry": billing_country,
            "locale": mollie_locale_or_none(locale),
            "resource": "payments",
            "sequenceType": "oneoff",
        }
        data = await self._call("GET", "/methods", params=_without_none(params))
        return [parse_method(item) for item in _embedded(data, "methods")]

    async def create_refund(
        self, payment_id: str, amount: Money, description: str, idempotency_key: str
    ) -> ProviderRefund:
        body = {"amount": amount_json(amount), "description": description}
        path = f"/payments/{_id(payment_id, 'tr')}/refunds"
        return parse_refund(await self._call("POST", path, json=body, key=idempotency_key))

    async def list_refunds(self, payment_id: str) -> list[ProviderRefund]:
        path = f"/payments/{_id(payment_id, 'tr')}/refunds"
        data = await self._call("GET", path, params={"limit": 250})
        return [parse_refund(item) for item in _embedded(data, "refunds")]

    async def list_chargebacks(self, payment_id: str) -> list[ProviderChargeback]:
        path = f"/payments/{_id(payment_id, 'tr')}/chargebacks"
        data = await self._call("GET", path, params={"limit": 250})
        return [parse_chargeback(item) for item in _embedded(data, "chargebacks")]

    async def create_customer(
        self,
        name: str,
        email: str,
        locale: str,
        metadata: dict[str, str],
        idempotency_key: str | None = None,
    ) -> str:
        """A new customer (to hold mandates); its id, "cst_..."."""
        body = {
            "name": name,
            "email": email,
            "locale": mollie_locale_or_none(locale),
            "metadata": metadata,
        }
        data = await self._call("POST", "/customers", json=_without_none(body), key=idempotency_key)
        return _customer_id(data)

    async def create_mandate(
        self,
        customer_id: str,
        consumer_name: str,
        consumer_account: str,
        signature_date: date,
        mandate_reference: str,
        idempotency_key: str | None = None,
    ) -> ProviderMandate:
        """A SEPA direct debit mandate the member signed with us, registered on the customer."""
        body = {
            "method": "directdebit",
            "consumerName": consumer_name,
            "consumerAccount": consumer_account,
            "signatureDate": signature_date.isoformat(),
            "mandateReference": mandate_reference,
        }
        path = f"/customers/{_id(customer_id, 'cst')}/mandates"
        return parse_mandate(await self._call("POST", path, json=body, key=idempotency_key))

    async def get_mandate(self, customer_id: str, mandate_id: str) -> ProviderMandate:
        return parse_mandate(await self._call("GET", _mandate_path(customer_id, mandate_id)))

    async def revoke_mandate(self, customer_id: str, mandate_id: str) -> None:
        """The mandate can no longer be debited on (Mollie answers 204)."""
        await self._call("DELETE", _mandate_path(customer_id, mandate_id))

    async def list_customer_payments(self, customer_id: str) -> list[ProviderPayment]:
        """The customer's payments, newest first (one page of up to 250)."""
        path = f"/customers/{_id(customer_id, 'cst')}/payments"
        data = await self._call("GET", path, params={"limit": 250})
        return [parse_payment(item) for item in _embedded(data, "payments")]

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    def _client(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._http is None or self._loop is not loop:
            self._http = httpx.AsyncClient(
                base_url=self.base_url,
                transport=self._transport,
                timeout=self._timeout,
                headers={
                    "Authorization": f"Bearer {self.api_key}",
                    "Accept": "application/json",
                    "User-Agent": USER_AGENT,
                },
            )
            self._loop = loop
        return self._http

    async def _call(
        self,
        method: str,
        path: str,
        *,
        json: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        headers = {"Idempotency-Key": key} if key else None
        try:
            response = await self._client().request(
                method, self.base_url + path, json=json, params=params, headers=headers
            )
        except httpx.HTTPError as error:
            raise ProviderError(0, "No answer", f"{type(error).__name__}: {error}") from error
        if response.status_code >= 400:
            raise _error(response)
        if response.status_code == 204:
            return {}
        try:
            data = response.json()
        except ValueError as error:
            raise ProviderError(0, "Unreadable answer", response.text[:200]) from error
        if not isinstance(data, dict):
            raise ProviderError(0, "Unreadable answer", response.text[:200])
        return data


def _id(value: str, prefix: str) -> str:
    """An id of the provider's as a path segment: refused (like a 4xx) unless it has the shape
    of one, so no id can step out of its path."""
    if not _ID.fullmatch(value) or not value.startswith(f"{prefix}_"):
        raise ProviderError(400, "Invalid id", f"not a {prefix}_ id: {value[:60]!r}")
    return value


def _mandate_path(customer_id: str, mandate_id: str) -> str:
    return f"/customers/{_id(customer_id, 'cst')}/mandates/{_id(mandate_id, 'mdt')}"


def _error(response: httpx.Response) -> ProviderError:
    """Mollie's `{"status", "title", "detail", "field"}`, or what the bare response says."""
    try:
        data = response.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return ProviderError(response.status_code, response.reason_phrase, response.text[:200])
    field = data.get("field")
    return ProviderError(
        response.status_code,
        str(data.get("title") or response.reason_phrase),
        str(data.get("detail") or ""),
        field if isinstance(field, str) else None,
    )


def mollie_locale_or_none(locale: str | None) -> str | None:
    """A locale Mollie takes, or None (left out: Mollie then follows the browser): a locale it
    does not know would fail the whole request with a 422."""
    return locale if locale in MOLLIE_LOCALES else None


def _without_none(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if value is not None}


def _embedded(data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    items = (data.get("_embedded") or {}).get(name) or []
    return [item for item in items if isinstance(item, dict)]


def _optional_money(value: object) -> Money | None:
    return money_of(value) if value else None


def _link(data: dict[str, Any], name: str) -> str | None:
    link = (data.get("_links") or {}).get(name)
    return link.get("href") if isinstance(link, dict) else None


def _metadata(value: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _time(value: object) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def _date(value: object) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) else None


def _details(data: dict[str, Any]) -> dict[str, Any]:
    details = data.get("details")
    return details if isinstance(details, dict) else {}


def _optional_text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _readable(parse: Callable[[dict[str, Any]], T]) -> Callable[[dict[str, Any]], T]:
    """A resource missing what we need is as bad as no answer: ProviderError status 0."""

    @functools.wraps(parse)
    def checked(data: dict[str, Any]) -> T:
        try:
            return parse(data)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise ProviderError(0, "Unreadable answer", f"{parse.__name__}: {error!r}") from error

    return checked


@_readable
def parse_payment(data: dict[str, Any]) -> ProviderPayment:
    """A Mollie payment resource in our terms."""
    return ProviderPayment(
        id=data["id"],
        status=PaymentStatus(data["status"]),
        amount=money_of(data["amount"]),
        method=data.get("method"),
        checkout_url=_link(data, "checkout"),
        metadata=_metadata(data.get("metadata")),
        amount_refunded=_optional_money(data.get("amountRefunded")),
        amount_charged_back=_optional_money(data.get("amountChargedBack")),
        expires_at=_time(data.get("expiresAt")),
        sequence_type=data.get("sequenceType") or "oneoff",
        customer_id=_optional_text(data.get("customerId")),
        mandate_id=_optional_text(data.get("mandateId")),
        due_date=_date(_details(data).get("dueDate")),
        failure_reason=_failure_reason(data),
    )


def _failure_reason(data: dict[str, Any]) -> str | None:
    """The bank's reason code of a failed direct debit (Mollie: details.bankReasonCode)."""
    if data.get("status") != PaymentStatus.FAILED:
        return None
    return _optional_text(_details(data).get("bankReasonCode"))


@_readable
def _customer_id(data: dict[str, Any]) -> str:
    customer_id = data["id"]
    if not isinstance(customer_id, str) or not customer_id:
        raise ValueError(f"not a customer id: {customer_id!r}")
    return customer_id


@_readable
def parse_mandate(data: dict[str, Any]) -> ProviderMandate:
    details = _details(data)
    return ProviderMandate(
        id=data["id"],
        status=MandateStatus(data["status"]),
        method=data["method"],
        mandate_reference=_optional_text(data.get("mandateReference")),
        signature_date=_date(data.get("signatureDate")),
        consumer_name=_optional_text(details.get("consumerName")),
        consumer_account=_optional_text(details.get("consumerAccount")),
    )


@_readable
def parse_chargeback(data: dict[str, Any]) -> ProviderChargeback:
    reason = data.get("reason")
    return ProviderChargeback(
        id=data["id"],
        payment_id=data["paymentId"],
        amount=money_of(data["amount"]),
        reason_code=_optional_text(reason.get("code")) if isinstance(reason, dict) else None,
    )


@_readable
def parse_method(data: dict[str, Any]) -> ProviderMethod:
    image = data.get("image") or {}
    return ProviderMethod(
        id=data["id"],
        description=data["description"],
        image_url=image.get("svg") or image.get("size2x") or image.get("size1x") or "",
    )


@_readable
def parse_refund(data: dict[str, Any]) -> ProviderRefund:
    return ProviderRefund(
        id=data["id"],
        payment_id=data["paymentId"],
        status=RefundStatus(data["status"]),
        amount=money_of(data["amount"]),
    )
