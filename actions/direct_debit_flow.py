"""The direct debit steps that talk to the provider, after the code signed the mandate: the
member's customer (one per member, made with their first mandate), their SEPA mandate and a
payment on it (Mollie's recurring sequence on a mandate), each with an idempotency key, so a
retry never debits twice. The order then waits, pending, for the collection days later, and the
member gets the pre-notification mail; the collection's webhook grants the credits
(actions/payments.py).

One process at a time asks for a mandate's debit: the signing request first, then whoever
claims the lease (`claim_debit`). A refusal fails the order and revokes the provider's mandate.
No answer (a 409 or 429 counts as none) leaves the order open: once the lease runs out the
upkeep task asks again, first looking among the customer's payments for one made for the order
(the answer may have been lost), so nothing is taken twice; a day on, it only looks, and when
the provider has no payment the order fails.
"""

import logging
from dataclasses import dataclass

from actions.direct_debit import (
    GIVE_UP_AFTER,
    SddPlan,
    abandon_order,
    claim_debit_for,
    confirm_code,
    prenotify,
    purge_stale_drafts,
    record_provider_mandate,
    sdd_plan,
    unanswered_debits,
)
from actions.payment_flow import answered, is_refusal
from actions.payments import attach_payment
from actions.runner import act, read
from actions.viewer import Viewer
from models.member import utcnow
from models.orders import order_number
from models.payment_methods import DIRECT_DEBIT
from models.routes import transaction_url
from services.config import get_config
from services.jobs import periodic
from services.payments.provider import mollie_locale, payment_client, webhook_url
from services.payments.types import PaymentRequest, ProviderError, ProviderPayment
from translations.catalog import gettext
from translations.errors import SDD_DEBIT_REFUSED

CODE_LENGTH = 6
_TAKEN, _REFUSED, _UNANSWERED = "taken", "refused", "unanswered"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SddResult:
    order_id: int
    error: str = ""  # a msgid; "" when the debit is on its way
    error_params: tuple[tuple[str, str], ...] = ()
    signed: bool = False  # the code was used: a new attempt starts from the form


async def confirm_direct_debit(
    viewer: Viewer, mandate_id: int, code: str, ip: str, user_agent: str
) -> SddResult:
    """The code from the SMS signs the mandate; the provider then takes the debit."""
    digits = "".join(ch for ch in str(code)[:20] if ch.isdigit())[:CODE_LENGTH]
    confirmed = await act(confirm_code, viewer, mandate_id, digits, ip, user_agent)
    if confirmed.error:
        return SddResult(0, confirmed.error, confirmed.error_params)
    if await _debit(mandate_id) == _REFUSED:
        return SddResult(0, SDD_DEBIT_REFUSED, signed=True)
    return SddResult(confirmed.order_id)


async def _debit(mandate_id: int) -> str:
    """Take the signed mandate's debit, by the process holding its lease: _TAKEN, _REFUSED (the
    order failed and nothing will be debited) or _UNANSWERED (the provider may hold it: the
    order stays open and the upkeep asks again)."""
    plan = await read(sdd_plan, mandate_id)
    if plan is None:  # not signed, or no order: there is nothing to debit
        return _REFUSED
    customer, provider_mandate = plan.customer_id, plan.mandate_id
    try:
        if customer is None or provider_mandate is None:
            customer, provider_mandate = await _registered(plan, mandate_id)
        payment = await _payment_of(plan, customer, provider_mandate)
    except ProviderError as error:
        if not is_refusal(error):
            log.error("direct debit of order %s: no answer (%s)", plan.order_id, error)
            return _UNANSWERED
        log.warning("direct debit of order %s refused: %s", plan.order_id, error)
        return await _abandon(plan, customer, provider_mandate)
    if payment is None:  # a day on, and the provider never made it: it never will
        log.error("direct debit of order %s: given up, the provider has no payment", plan.order_id)
        return await _abandon(plan, customer, provider_mandate)
    if await act(attach_payment, plan.order_id, payment):  # once, though asked twice at once
        await act(prenotify, plan.order_id, payment.due_date)
    return _TAKEN


async def _registered(plan: SddPlan, mandate_id: int) -> tuple[str, str]:
    """The member's customer (made with their first mandate; a new one if the provider no
    longer knows it) and this mandate, registered with the provider."""
    if plan.customer_id is not None:
        try:
            return plan.customer_id, await _new_mandate(plan, plan.customer_id, mandate_id)
        except ProviderError as error:
            if error.status not in (404, 410):
                raise
    customer = await _new_customer(plan, mandate_id)
    return customer, await _new_mandate(plan, customer, mandate_id)


async def _new_customer(plan: SddPlan, mandate_id: int) -> str:
    return await answered(
        lambda: payment_client().create_customer(
            plan.customer_name,
            plan.email,
            mollie_locale(plan.language),
            {"mandate": str(mandate_id)},
            f"sdd-customer-{mandate_id}",
        )
    )


async def _new_mandate(plan: SddPlan, customer: str, mandate_id: int) -> str:
    registered = await answered(
        lambda: payment_client().create_mandate(
            customer, plan.holder, plan.iban, plan.signed_at.date(), plan.reference,
            f"sdd-mandate-{mandate_id}",
        )
    )  # fmt: skip
    await act(record_provider_mandate, mandate_id, customer, registered.id)
    return registered.id


async def _payment_of(
    plan: SddPlan, customer: str, provider_mandate: str
) -> ProviderPayment | None:
    """The order's payment: one the provider already made for it (an answer we lost), else a
    new one; None once the day of asking is over and the provider has none."""
    if plan.mandate_id is not None:  # asked before: the payment may exist
        for payment in await _customer_payments(customer):
            if payment.metadata.get("order_id") == str(plan.order_id):
                return payment
    if utcnow() - plan.signed_at > GIVE_UP_AFTER:
        return None
    request = _request(plan, customer, provider_mandate)
    return await answered(lambda: payment_client().create_payment(request))


async def _customer_payments(customer: str) -> list[ProviderPayment]:
    """The customer's payments; any failure to list them is no answer (never a refusal, which
    would fail an order whose payment may exist)."""
    try:
        return await answered(lambda: payment_client().list_customer_payments(customer))
    except ProviderError as error:
        raise ProviderError(0, "No answer", f"listing payments: {error}") from error


async def _abandon(plan: SddPlan, customer: str | None, provider_mandate: str | None) -> str:
    """Fail the order and revoke the provider's mandate, unless a payment arrived meanwhile."""
    if not await act(abandon_order, plan.order_id):
        return _TAKEN
    if customer and provider_mandate:
        await _revoke(customer, provider_mandate)
    return _REFUSED


async def _revoke(customer: str, provider_mandate: str) -> None:
    """The provider's copy of a mandate whose order failed: no one can debit on it again."""
    try:
        await answered(lambda: payment_client().revoke_mandate(customer, provider_mandate))
    except ProviderError as error:
        log.error("mandate %s of %s not revoked: %s", provider_mandate, customer, error)


def _request(plan: SddPlan, customer: str, mandate: str) -> PaymentRequest:
    description = gettext(
        plan.language, "Credits order {number}", number=order_number(plan.order_id)
    )
    return PaymentRequest(
        amount=plan.amount,
        description=description,
        redirect_url=get_config().public_url + transaction_url(plan.order_id),
        webhook_url=webhook_url(),
        method=DIRECT_DEBIT,
        locale=mollie_locale(plan.language),
        metadata={"order_id": str(plan.order_id)},
        idempotency_key=plan.idempotency_key,
        customer_id=customer,
        mandate_id=mandate,
        sequence_type="recurring",
    )


@periodic("direct_debit_upkeep", cron="*/5 * * * *")
async def direct_debit_upkeep() -> None:
    """Ask again for the debits the provider did not answer, each by the one process that
    claims its lease; forget stale drafts and codes."""
    for mandate_id in await read(unanswered_debits, utcnow()):
        if await act(claim_debit_for, mandate_id):
            await _debit(mandate_id)
    await act(purge_stale_drafts)
