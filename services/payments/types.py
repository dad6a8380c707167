"""What the payment provider answers, in our terms: amounts in minor units (cents)."""

from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum

# The locales Mollie takes for its checkout and customers (anything else: 422, field "locale").
MOLLIE_LOCALES = frozenset(
    {
        "en_US", "en_GB", "nl_NL", "nl_BE", "de_DE", "de_AT", "de_CH", "fr_FR", "fr_BE",
        "es_ES", "ca_ES", "pt_PT", "it_IT", "nb_NO", "sv_SE", "fi_FI", "da_DK", "is_IS",
        "hu_HU", "pl_PL", "lv_LV", "lt_LT",
    }
)  # fmt: skip


class PaymentStatus(StrEnum):
    """Mollie's payment statuses."""

    OPEN = "open"
    PENDING = "pending"
    AUTHORIZED = "authorized"
    PAID = "paid"
    CANCELED = "canceled"
    EXPIRED = "expired"
    FAILED = "failed"


class MandateStatus(StrEnum):
    """Mollie's mandate statuses: a direct debit mandate is valid once created."""

    VALID = "valid"
    PENDING = "pending"
    INVALID = "invalid"


class RefundStatus(StrEnum):
    QUEUED = "queued"
    PENDING = "pending"
    PROCESSING = "processing"
    REFUNDED = "refunded"
    FAILED = "failed"
    CANCELED = "canceled"


@dataclass(frozen=True)
class Money:
    cents: int
    currency: str


@dataclass(frozen=True)
class PaymentRequest:
    """A payment to create. `idempotency_key` is sent as the Idempotency-Key header, so a retry
    of the same order never creates a second payment. A payment on a mandate (direct debit)
    names the customer and mandate with sequence type "recurring" and needs no redirect."""

    amount: Money
    description: str
    redirect_url: str | None
    webhook_url: str
    method: str
    locale: str  # Mollie locale, e.g. "nl_NL"
    metadata: dict[str, str]
    idempotency_key: str
    customer_id: str | None = None  # "cst_..."
    mandate_id: str | None = None  # "mdt_..."
    sequence_type: str = "oneoff"  # or "recurring": charged on the mandate, no checkout


@dataclass(frozen=True)
class ProviderPayment:
    id: str  # "tr_..."
    status: PaymentStatus
    amount: Money
    method: str | None
    checkout_url: str | None  # None once the payment is no longer open
    metadata: dict[str, str] = field(default_factory=dict)
    amount_refunded: Money | None = None
    amount_charged_back: Money | None = None
    expires_at: datetime | None = None
    sequence_type: str = "oneoff"
    customer_id: str | None = None
    mandate_id: str | None = None
    due_date: date | None = None  # a direct debit's collection date (details.dueDate)
    failure_reason: str | None = None  # a failed direct debit's bank code, e.g. "AC04"


@dataclass(frozen=True)
class ProviderMandate:
    id: str  # "mdt_..."
    status: MandateStatus
    method: str  # "directdebit"
    mandate_reference: str | None = None
    signature_date: date | None = None
    consumer_name: str | None = None
    consumer_account: str | None = None  # the IBAN


@dataclass(frozen=True)
class ProviderChargeback:
    """Money the customer's bank took back; `reason_code` e.g. "MD06" (a refund claim)."""

    id: str  # "chb_..."
    payment_id: str
    amount: Money
    reason_code: str | None = None


@dataclass(frozen=True)
class ProviderMethod:
    id: str  # "ideal", "creditcard", "paypal", ...
    description: str
    image_url: str


@dataclass(frozen=True)
class ProviderRefund:
    id: str  # "re_..."
    payment_id: str
    status: RefundStatus
    amount: Money


class ProviderError(Exception):
    """The provider refused or could not be reached. `status` is the HTTP status (0: no answer),
    `field` the request field Mollie blames, if any."""

    def __init__(self, status: int, title: str, detail: str, field: str | None = None) -> None:
        super().__init__(f"{status} {title}: {detail}")
        self.status, self.title, self.detail, self.field = status, title, detail, field
