"""The direct debit steps that talk to the provider, after the code signed the mandate: a
customer, their SEPA mandate and a payment on it (Mollie's recurring sequence on a mandate),
each with an idempotency key, so a retry never debits twice. The order then waits, pending,
for the collection days later, and the member gets the pre-notification mail; the collection's
webhook grants the credits (actions/payments.py)."""

import logging
from dataclasses import dataclass

from actions.direct_debit import (
    METHOD,
    SddPlan,
    abandon_order,
    confirm_code,
    prenotify,
    record_provider_mandate,
    sdd_plan,
)
from actions.payment_flow import answered, is_refusal
from actions.payments import attach_payment
from actions.runner import act, read
from actions.viewer import Viewer
from models.orders import order_number
from models.routes import transaction_url
from services.config import get_config
from services.payments.provider import mollie_locale, payment_client, webhook_url
from services.payments.types import PaymentRequest, ProviderError
from translations.catalog import gettext
from translations.errors import GENERIC_ERROR

CODE_LENGTH = 6
_TAKEN, _REFUSED, _UNANSWERED = "taken", "refused", "unanswered"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SddResult:
    order_id: int
    error: str = ""  # a msgid; "" when the debit is on its way


async def confirm_direct_debit(
    viewer: Viewer, mandate_id: int, code: str, ip: str, user_agent: str
) -> SddResult:
    """The code from the SMS signs the mandate; the provider then takes the debit."""
    digits = "".join(ch for ch in str(code)[:20] if ch.isdigit())[:CODE_LENGTH]
    confirmed = await act(confirm_code, viewer, mandate_id, digits, ip, user_agent)
    if confirmed.error:
        return SddResult(0, confirmed.error)
    plan = await read(sdd_plan, mandate_id)
    outcome = await _debit(viewer, mandate_id, plan) if plan else _REFUSED
    if outcome == _REFUSED:
        await act(abandon_order, confirmed.order_id)
        return SddResult(0, GENERIC_ERROR)
    if outcome == _UNANSWERED:  # the provider may hold the debit: the order stays open
        log.error("direct debit of order %s: the provider did not answer", confirmed.order_id)
    return SddResult(confirmed.order_id)


async def _debit(viewer: Viewer, mandate_id: int, plan: SddPlan) -> str:
    """_TAKEN, _REFUSED (nothing will be debited) or _UNANSWERED (the provider may have taken
    the debit without our hearing: support must look before anything is undone)."""
    client, locale = payment_client(), mollie_locale(viewer.language)
    try:
        customer = await answered(
            lambda: client.create_customer(
                plan.customer_name,
                plan.email,
                locale,
                {"mandate": str(mandate_id)},
                f"sdd-customer-{mandate_id}",
            )
        )
        mandate = await answered(
            lambda: client.create_mandate(
                customer, plan.holder, plan.iban, plan.signed_on, plan.reference,
                f"sdd-mandate-{mandate_id}",
            )
        )  # fmt: skip
        await act(record_provider_mandate, mandate_id, customer, mandate.id)
        payment = await answered(
            lambda: client.create_payment(_request(viewer, plan, customer, mandate.id))
        )
    except ProviderError as error:
        return _REFUSED if is_refusal(error) else _UNANSWERED
    await act(attach_payment, plan.order_id, payment)
    await act(prenotify, plan.order_id, payment.due_date)
    return _TAKEN


def _request(viewer: Viewer, plan: SddPlan, customer: str, mandate: str) -> PaymentRequest:
    description = gettext(
        viewer.language, "Credits order {number}", number=order_number(plan.order_id)
    )
    return PaymentRequest(
        amount=plan.amount,
        description=description,
        redirect_url=get_config().public_url + transaction_url(plan.order_id),
        webhook_url=webhook_url(),
        method=METHOD,
        locale=mollie_locale(viewer.language),
        metadata={"order_id": str(plan.order_id)},
        idempotency_key=plan.idempotency_key,
        customer_id=customer,
        mandate_id=mandate,
        sequence_type="recurring",
    )
