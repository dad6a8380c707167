"""The payment steps that talk to the provider, between the actions that store what it said.

No transaction is held open while the provider answers: an action places the order, the
provider creates the payment (with the order's idempotency key, so a retry never pays twice),
another action stores its id. The webhook and the result page both end in `apply_payment`.
"""

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from actions.checkout import place_order, quote
from actions.direct_debit import sdd_start
from actions.payment_reads import (
    last_order,
    order_view,
    our_payment,
    unsettled_payment_id,
    unsettled_payments,
)
from actions.payment_views import CheckoutResult, MethodView, OrderView
from actions.payments import apply_payment, attach_payment
from actions.refunds import (
    RefundPlan,
    record_refund,
    refund_refused,
    unsubmitted_refunds,
    withdraw_for_member,
    withdraw_order,
)
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from actions.viewer import Viewer
from models.member import utcnow
from models.orders import order_number
from models.payment_methods import DIRECT_DEBIT, METHOD_LABELS
from models.routes import transaction_url
from services.config import get_config
from services.jobs import periodic
from services.payments.provider import mollie_locale, payment_client, webhook_url
from services.payments.types import PaymentRequest, ProviderError, ProviderPayment, ProviderRefund
from translations.catalog import gettext
from translations.errors import GENERIC_ERROR, PAYMENT_FAILED
from translations.locales import DEFAULT_LOCALE

log = logging.getLogger(__name__)

ATTEMPTS = 3
T = TypeVar("T")


async def payment_methods(viewer: Viewer, tier: str, country: str | None) -> tuple[MethodView, ...]:
    """The methods the provider offers for this bundle's price in this country; none when the
    provider cannot be reached (the page says so and offers a retry)."""
    offer = await read(quote, viewer, tier, country, None)
    if offer.bundle is None:
        return ()
    try:
        methods = await payment_client().list_methods(
            offer.amount, offer.country, mollie_locale(viewer.language, offer.country)
        )
    except ProviderError as error:
        log.warning("payment methods unavailable: %s", error)
        return ()
    direct_debit = (
        any(m.id == DIRECT_DEBIT for m in methods)
        and (await read(sdd_start, viewer, tier, country)).offered
    )  # the provider's list knows neither our SEPA rules nor a member's block
    return tuple(
        MethodView(m.id, m.image_url)
        for m in methods
        if m.id in METHOD_LABELS and (m.id != DIRECT_DEBIT or direct_debit)
    )


async def start_checkout(
    viewer: Viewer, tier: str, method: str, country: str | None, code: str | None
) -> CheckoutResult:
    """Order the bundle and hand the member to the provider's checkout."""
    offered = {m.id for m in await payment_methods(viewer, tier, country)}
    if method not in offered or method == DIRECT_DEBIT:  # that one signs a mandate first
        return CheckoutResult("", 0, PAYMENT_FAILED)
    for payment_id in await read(unsettled_payments, viewer):
        await sync_payment(payment_id)  # a payment given up on frees the discount it held
    placed = await act(place_order, viewer, tier, method, country, code)
    if placed.error:
        return CheckoutResult("", 0, placed.error, placed.error_params)
    request = PaymentRequest(
        amount=placed.amount,
        description=gettext(
            viewer.language, "Credits order {number}", number=order_number(placed.order_id)
        ),
        redirect_url=get_config().public_url + transaction_url(placed.order_id),
        webhook_url=webhook_url(),
        method=method,
        locale=mollie_locale(viewer.language, placed.country),
        metadata={"order_id": str(placed.order_id)},
        idempotency_key=placed.idempotency_key,
    )
    payment = await _create_payment(request)
    if payment is None:
        return CheckoutResult("", placed.order_id, GENERIC_ERROR)
    await act(attach_payment, placed.order_id, payment)
    fallback = transaction_url(placed.order_id)  # a payment created already settled
    return CheckoutResult(payment.checkout_url or fallback, placed.order_id)


async def _create_payment(request: PaymentRequest) -> ProviderPayment | None:
    try:
        return await answered(lambda: payment_client().create_payment(request))
    except ProviderError:
        return None


async def answered(call: Callable[[], Awaitable[T]]) -> T:
    """The provider's answer to a request carrying an idempotency key: asked again, with the
    same key, while no answer came (it may have arrived); a refusal is raised at once."""
    for attempt in range(1, ATTEMPTS):
        try:
            return await call()
        except ProviderError as error:
            log.warning("provider attempt %s: %s", attempt, error)
            if is_refusal(error):
                raise
    return await call()


def is_refusal(error: ProviderError) -> bool:
    """The provider answered no (4xx): asking again would get the same answer. Not so a 409
    (a request with the same idempotency key is still running) or a 429 (too many requests):
    those mean "ask again later"."""
    return 400 <= error.status < 500 and error.status not in (409, 429)


async def repeat_last_order(viewer: Viewer) -> CheckoutResult:
    """The last paid bundle again, with the last method, in one step."""
    last = await read(last_order, viewer)
    if last is None:
        return CheckoutResult("", 0, GENERIC_ERROR)
    return await start_checkout(viewer, last.tier, last.method, last.country, None)


async def sync_payment(payment_id: str) -> bool | None:
    """What the webhook does: ask the provider for the payment (and its refunds) and apply it.
    True when the order changed; None when the provider could not be asked (ask again later).
    Ids of no order of ours are not fetched: a stranger's POSTs cannot make us call out."""
    ours = await read(our_payment, payment_id)
    if ours is None:
        return False
    try:
        payment, refunds = await fetch_payment(payment_id, ours.refund_open)
    except ProviderError as error:
        log.warning("payment %s not fetched: %s", payment_id, error)
        return False if is_refusal(error) else None
    return await act(apply_payment, payment, refunds)


async def fetch_payment(
    payment_id: str, refund_open: bool
) -> tuple[ProviderPayment, tuple[ProviderRefund, ...]]:
    """The provider's payment and, when one of ours is open or it refunded anything, its
    refunds. Raises ProviderError."""
    client = payment_client()
    payment = await _with_bank_reason(await client.get_payment(payment_id))
    asked = refund_open or _refunded(payment)  # a failed refund refunds nothing
    return payment, tuple(await client.list_refunds(payment_id) if asked else ())


async def _with_bank_reason(payment: ProviderPayment) -> ProviderPayment:
    """A charged-back direct debit with the bank's reason code (e.g. MD06, a refund claim)
    from its chargebacks, for the block it brings."""
    charged = payment.amount_charged_back
    if payment.method != DIRECT_DEBIT or charged is None or charged.cents == 0:
        return payment
    chargebacks = await payment_client().list_chargebacks(payment.id)
    reasons = [chargeback.reason_code for chargeback in chargebacks if chargeback.reason_code]
    return dataclasses.replace(payment, failure_reason=reasons[-1]) if reasons else payment


def _refunded(payment: ProviderPayment) -> bool:
    return payment.amount_refunded is not None and payment.amount_refunded.cents > 0


async def order_status(viewer: Viewer, order_id: int) -> OrderView | None:
    """The member's order; while it is unsettled the provider is asked too, since no webhook
    comes for a pending payment."""
    payment_id = await read(unsettled_payment_id, viewer, order_id)
    if payment_id is not None:
        await sync_payment(payment_id)
    return await read(order_view, viewer, order_id)


async def withdraw(viewer: Viewer, order_id: int) -> str:
    """The member withdraws from a purchase: "" when the refund is under way, else an error."""
    return await _refund(await act(withdraw_order, viewer, order_id), viewer.language)


async def withdraw_by_support(staff: StaffViewer | None, order_id: int, reason: str = "") -> str:
    """Support withdraws a purchase for the member: the same rules and the same pro rata; from
    the console `staff` gives the reason (audited), from the command line None."""
    plan = await act(withdraw_for_member, staff, order_id, reason)
    return await _refund(plan, DEFAULT_LOCALE)


async def _refund(plan: RefundPlan, language: str) -> str:
    """Ask the provider to refund; without an answer the refund stays queued and is asked for
    again (`resubmit_refunds`); a refusal gives the member the credits back."""
    if plan.error:
        return plan.error
    description = gettext(
        language, "Refund of credits order {number}", number=order_number(plan.order_id)
    )
    try:
        refund = await answered(
            lambda: payment_client().create_refund(
                plan.payment_id, plan.amount, description, plan.idempotency_key
            )
        )
    except ProviderError as error:
        if not is_refusal(error):
            return ""
        await act(refund_refused, plan.refund_id)
        return GENERIC_ERROR
    await act(record_refund, plan.refund_id, refund)
    return ""


@periodic("resubmit_refunds", cron="* * * * *")
async def resubmit_refunds() -> None:
    """Every minute, the refunds the provider never answered for, asked for again with their
    own keys."""
    for plan in await read(unsubmitted_refunds, utcnow()):
        await _refund(plan, DEFAULT_LOCALE)
