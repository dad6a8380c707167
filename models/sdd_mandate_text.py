"""What a SEPA core mandate says to the payer, in the member's language: the European Payments
Council's wording, which each catalogue gives as that country's banks word it (de the Deutsche
Kreditwirtschaft's "Ich ermächtige …" with its "Hinweis", nl the Betaalvereniging's one-off
mandate); see docs/translation-style.md."""

from dataclasses import dataclass

from translations.catalog import N_, gettext

AUTHORISATION = N_(
    "By confirming this mandate with the code we send you, you authorise (A) {creditor} to send "
    "instructions to your bank to debit your account and (B) your bank to debit your account in "
    "accordance with the instructions from {creditor}."
)
REFUND_RIGHT = N_(
    "As part of your rights, you are entitled to a refund from your bank under the terms and "
    "conditions of your agreement with your bank. A refund must be claimed within 8 weeks "
    "starting from the date on which your account was debited. Your rights are explained in a "
    "statement that you can obtain from your bank."
)
ONE_OFF = N_("Type of payment: one-off")


@dataclass(frozen=True)
class MandateText:
    authorisation: str
    refund_right: str
    payment_type: str


def mandate_text(language: str, creditor: str) -> MandateText:
    authorisation = gettext(language, AUTHORISATION, creditor=creditor)
    return MandateText(
        authorisation.replace("..", "."),  # a creditor "… B.V." ends the sentence itself
        gettext(language, REFUND_RIGHT),
        gettext(language, ONE_OFF),
    )
