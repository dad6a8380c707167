"""The payment methods by the provider's id (Mollie's), with the label members see.

Brand names stay as they are in every language; only generic labels (card, direct debit) are
translated, each the one name the site uses for the method in that language (the glossary's, in
docs/translation-style.md).
"""

from translations.catalog import N_, gettext

DIRECT_DEBIT = "directdebit"  # SEPA core direct debit, on a mandate the member signed with us

METHOD_LABELS: dict[str, str] = {
    "ideal": "iDEAL",
    "creditcard": N_("Credit card"),
    "paypal": "PayPal",
    "bancontact": "Bancontact",
    "blik": "BLIK",
    "przelewy24": "Przelewy24",
    "mobilepay": "MobilePay",
    "vipps": "Vipps",
    "swish": "Swish",
    "twint": "TWINT",
    DIRECT_DEBIT: N_("Direct debit"),  # one name per language everywhere: the route's too
}


def method_label(method: str, locale: str) -> str:
    """The method's label in `locale`; an unknown method shows its id."""
    label = METHOD_LABELS.get(method)
    return gettext(locale, label) if label else method
