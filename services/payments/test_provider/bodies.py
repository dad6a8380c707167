"""The test provider's checks of what a request sends, as Mollie makes them: the first thing
wrong is refused (422) naming its field."""

import json
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from schwifty import IBAN
from starlette.requests import Request

from models.payment_methods import DIRECT_DEBIT
from services.payments.amounts import cents_of, money_of
from services.payments.test_provider import store
from services.payments.test_provider.direct_debit import BANK_REASONS
from services.payments.test_provider.methods import CURRENCIES, lifetime, method_spec
from services.payments.test_provider.webhooks import Timing
from services.payments.types import MOLLIE_LOCALES, Money

MAX_BODY_BYTES = 16_384
MAX_URL_LENGTH = 500
MAX_TEXT_LENGTH = 255
SEQUENCE_TYPES = frozenset({"oneoff", "recurring"})


class Refusal(Exception):
    """A request Mollie would refuse with 422, blaming `field`."""

    def __init__(self, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail, self.field = detail, field


async def json_body(request: Request) -> dict[str, Any]:
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise Refusal("The request body is too large")
    try:
        body = json.loads(bytes(raw) or b"{}")
    except ValueError as exc:
        raise Refusal("The request body is not valid JSON") from exc
    if not isinstance(body, dict):
        raise Refusal("The request body must be a JSON object")
    return body


def cents(value: str | None) -> int | None:
    try:
        return None if value is None else cents_of(value)
    except ValueError as exc:
        raise Refusal("The amount is invalid", "amount.value") from exc


def money(value: object, field: str) -> Money:
    try:
        amount = money_of(value)
    except ValueError as exc:
        raise Refusal("The amount is invalid", field) from exc
    if amount.cents <= 0:
        raise Refusal("The amount must be more than zero", field)
    return amount


def timing(value: object) -> Timing:
    try:
        return Timing(str(value))
    except ValueError as exc:
        raise Refusal("Unknown webhook timing", "webhook") from exc


def bank_reason(value: object) -> str | None:
    """A bank's reason code for a debit that fails or comes back (None: not given)."""
    if value is None:
        return None
    if value not in BANK_REASONS:
        raise Refusal(f"Unknown bank reason; one of {', '.join(BANK_REASONS)}", "reason")
    return str(value)


def text(body: dict[str, Any], field: str, *, required: bool = True) -> str | None:
    value = body.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise Refusal(f"The {field} is missing or empty", field)
    return value


def _bounded(body: dict[str, Any], field: str, limit: int = MAX_TEXT_LENGTH) -> str | None:
    """An optional text of at most `limit` characters."""
    value = text(body, field, required=False)
    if value is not None and len(value) > limit:
        raise Refusal(f"The {field} is too long", field)
    return value


def _locale(body: dict[str, Any]) -> str | None:
    """An optional locale, one of Mollie's (it refuses any other with a 422)."""
    value = body.get("locale")
    if value is not None and (not isinstance(value, str) or value not in MOLLIE_LOCALES):
        raise Refusal("The locale is invalid", "locale")
    return value


def _metadata(body: dict[str, Any]) -> dict[str, Any] | None:
    metadata = body.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise Refusal("The metadata must be a JSON object", "metadata")
    return metadata


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def url(body: dict[str, Any], field: str, site: str | None, *, required: bool) -> str | None:
    """An http(s) address, on `site` when the provider serves one site: its checkout page
    links to it and redirects there, its webhooks post there."""
    value = text(body, field, required=required)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or len(value) > MAX_URL_LENGTH:
        raise Refusal(f"The {field} is not a valid URL", field)
    if site is not None and origin(value) != site:
        raise Refusal(f"The {field} must be on {site}", field)
    return value


def _sequence(body: dict[str, Any]) -> tuple[str, str | None, str | None]:
    """The sequence type and, for a payment on a mandate, the customer and mandate named."""
    sequence = body.get("sequenceType", "oneoff")
    if sequence not in SEQUENCE_TYPES:
        raise Refusal("The sequence type is invalid", "sequenceType")
    if sequence == "oneoff":
        return sequence, None, None
    return sequence, text(body, "customerId"), text(body, "mandateId", required=False)


def _method(body: dict[str, Any], recurring: bool) -> str | None:
    method = body.get("method")
    if recurring and method not in (None, DIRECT_DEBIT):
        raise Refusal("Only direct debit is charged on a mandate here", "method")
    if not recurring and method == DIRECT_DEBIT:
        raise Refusal("A direct debit is charged on a mandate: sequenceType recurring", "method")
    return DIRECT_DEBIT if recurring else method


def new_payment(body: dict[str, Any], site: str | None) -> store.NewPayment:
    """Check a create-payment body as Mollie does. A payment on a mandate needs no redirect."""
    amount = money(body.get("amount"), "amount")
    if amount.currency not in CURRENCIES:
        raise Refusal(f"The currency {amount.currency} is not supported", "amount.currency")
    description = text(body, "description")
    sequence, customer_id, mandate_id = _sequence(body)
    recurring = sequence == "recurring"
    redirect_url = url(body, "redirectUrl", site, required=not recurring)
    method = _method(body, recurring)
    if method is not None:
        spec = method_spec(method)
        if spec is None:
            raise Refusal("The payment method is invalid", "method")
        if refusal := spec.refusal(amount.cents, amount.currency):
            raise Refusal(refusal, "amount")
    return store.NewPayment(
        amount_cents=amount.cents,
        currency=amount.currency,
        description=str(description)[:MAX_TEXT_LENGTH],
        method=method,
        locale=_locale(body) or "en_US",
        redirect_url=redirect_url,
        webhook_url=url(body, "webhookUrl", site, required=False),
        metadata=_metadata(body),
        lifetime=lifetime(method),
        sequence_type=sequence,
        customer_id=customer_id,
        mandate_id=mandate_id,
    )


def new_customer(body: dict[str, Any]) -> store.NewCustomer:
    return store.NewCustomer(
        name=_bounded(body, "name") or "",
        email=_bounded(body, "email", 320) or "",
        locale=_locale(body),
        metadata=_metadata(body),
    )


def new_mandate(body: dict[str, Any], today: date) -> store.NewMandate:
    """A SEPA direct debit mandate: the account holder, a valid IBAN, the day it was signed
    (not after today) and the creditor's reference (at most 35 characters)."""
    if body.get("method") != DIRECT_DEBIT:
        raise Refusal("Only directdebit mandates can be created here", "method")
    name = text(body, "consumerName")
    if len(str(name)) > MAX_TEXT_LENGTH:
        raise Refusal("The consumer name is too long", "consumerName")
    try:
        iban = IBAN(str(text(body, "consumerAccount"))[:64])
    except ValueError as exc:
        raise Refusal("The consumer account is not a valid IBAN", "consumerAccount") from exc
    return store.NewMandate(
        consumer_name=str(name),
        consumer_account=iban.compact,
        consumer_bic=_bounded(body, "consumerBic", 11) or (str(iban.bic) if iban.bic else None),
        signature_date=_signature_date(body, today),
        mandate_reference=_bounded(body, "mandateReference", 35),
    )


def _signature_date(body: dict[str, Any], today: date) -> date | None:
    value = text(body, "signatureDate", required=False)
    try:
        signed = None if value is None else date.fromisoformat(value)
    except ValueError as exc:
        raise Refusal("The signature date must be YYYY-MM-DD", "signatureDate") from exc
    if signed is not None and signed > today:
        raise Refusal("The signature date cannot be in the future", "signatureDate")
    return signed
