"""SEPA direct debit at the test provider: the banks' reason codes for a debit that comes back,
the creditor it collects for, and a payment's `details` as Mollie shows them."""

from typing import Any

from models.test_payments import SandboxMandate, SandboxPayment

# Mollie collects for its merchants under its own creditor identifier.
CREDITOR_IDENTIFIER = "NL08ZZZ502057730000"
COLLECTION_DAYS = 3.0
# The reason codes (ISO 20022) a bank gives for a debit it refuses or takes back, as the
# provider passes them on in details.bankReasonCode / bankReason and a chargeback's reason.
BANK_REASONS = {
    "AC01": "Account identifier incorrect (i.e. invalid IBAN)",
    "AC04": "Account closed",
    "AC06": "Account blocked",
    "AG01": "Direct debit forbidden on this account for regulatory reasons",
    "AM04": "Insufficient funds",
    "MD01": "No mandate",
    "MD06": "Refund request by end customer",
    "MD07": "End customer deceased",
    "MS02": "Refused by debtor",
    "MS03": "Reason not specified",
    "FRAD": "Fraudulent originated direct debit",
    "SL01": "Specific service offered by the debtor bank",
}


def mandate_details(mandate: SandboxMandate) -> dict[str, Any]:
    """What a payment on `mandate` keeps of it (Mollie copies it into the payment)."""
    return {
        "consumerName": mandate.consumer_name,
        "consumerAccount": mandate.consumer_account,
        "consumerBic": mandate.consumer_bic,
        "mandateReference": mandate.mandate_reference,
        "signatureDate": mandate.signature_date.isoformat() if mandate.signature_date else None,
    }


def payment_details(payment: SandboxPayment) -> dict[str, Any] | None:
    """Mollie's SEPA direct debit `details`; None for a payment not on a mandate."""
    if payment.payment_details is None:
        return None
    details = {
        **payment.payment_details,
        "transferReference": f"SD{payment.id[3:].upper()}",
        "creditorIdentifier": CREDITOR_IDENTIFIER,
        "dueDate": payment.collects_at.date().isoformat() if payment.collects_at else None,
    }
    if payment.status == "failed" and payment.bank_reason_code:
        code = payment.bank_reason_code
        details |= {"bankReasonCode": code, "bankReason": BANK_REASONS.get(code, code)}
    return details
