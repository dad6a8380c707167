"""What the payment screens show, as plain data: amounts in cents with their currency and
methods by their id, which the page writes in its own language (components/i18n.money,
models/payment_methods.METHOD_LABELS), so a switch of language rewrites them too; statuses as
the spec's words."""

from dataclasses import dataclass


@dataclass(frozen=True)
class BundleView:
    tier: str  # p0..p3
    credits: int
    messages: int  # what the credits buy in chat messages
    popular: bool
    cents: int  # what the member pays, VAT included
    list_cents: int  # the price before the discount
    per_message_cents: int
    currency: str
    discounted: bool
    percentage: int  # the discount on this bundle; 0 without one


@dataclass(frozen=True)
class ActiveDiscount:
    code: str
    percentage: int
    kind: str  # "time_bonus" or "code"
    deadline_ms: int  # epoch ms the time bonus ends; 0 for a code


@dataclass(frozen=True)
class CreditsOffer:
    country: str
    currency: str
    bundles: tuple[BundleView, ...]
    discount: ActiveDiscount | None
    balance: int
    last_tier: str  # "" without an earlier paid order
    last_method: str


@dataclass(frozen=True)
class MethodView:
    id: str
    image_url: str


@dataclass(frozen=True)
class OrderView:
    id: int
    number: str  # how the receipt and support name it: A-000123
    status: str  # an OrderStatus value
    tier: str
    credits: int
    amount_cents: int
    currency: str
    method: str
    created_at: str  # ISO 8601
    balance: int  # the member's balance now
    refundable: bool  # withdrawal still possible (within refund_days, credits unused left)
    refund_cents: int  # what a withdrawal refunds now, or what was refunded
    refund_credits: int
    refund_status: str  # "" or queued, pending, processing, refunded, failed, canceled


@dataclass(frozen=True)
class CheckoutResult:
    checkout_url: str
    order_id: int
    error: str = ""  # a msgid of translations/errors.py; "" when the checkout started
    error_params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CodeAnswer:
    code: str
    percentage: int
    error: str = ""  # a msgid; "" when the code applies
    error_params: tuple[tuple[str, str], ...] = ()
