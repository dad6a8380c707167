"""The payment methods the test provider offers, where, in which currencies, up to what
amount, and how long a payment by each stays open (test values in Mollie's spirit; amounts in
cents of the payment's currency)."""

from dataclasses import dataclass
from datetime import timedelta
from html import escape

from translations.catalog import N_

CURRENCIES = frozenset(
    {"EUR", "GBP", "DKK", "SEK", "NOK", "PLN", "CHF", "USD", "CAD", "AUD", "NZD"}
)
DEFAULT_LIFETIME = timedelta(hours=1)
# Where SEPA direct debit is offered: the EU, Iceland, Liechtenstein, Norway, Andorra, San
# Marino, Monaco and Vatican City.
SEPA_COUNTRIES = frozenset(
    {"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE",
     "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
     "IS", "LI", "NO", "AD", "SM", "MC", "VA"}
)  # fmt: skip


@dataclass(frozen=True)
class MethodSpec:
    id: str
    description: str  # a brand name, or a msgid translated into the payment's locale
    currencies: frozenset[str] = CURRENCIES
    countries: frozenset[str] | None = None  # None: offered everywhere
    minimum_cents: int = 1
    maximum_cents: int = 10_000_00
    lifetime: timedelta = DEFAULT_LIFETIME
    colour: str = "#334155"

    def refusal(self, cents: int, currency: str) -> str | None:
        """Why this method cannot take the amount, in Mollie's words; None if it can."""
        if currency not in self.currencies:
            return f"The currency {currency} is not supported by {self.description}"
        if cents < self.minimum_cents:
            return "The amount is lower than the minimum"
        if cents > self.maximum_cents:
            return "The amount is higher than the maximum"
        return None

    def offered_in(self, country: str | None) -> bool:
        return not country or self.countries is None or country.upper() in self.countries


def _only(*codes: str) -> frozenset[str]:
    return frozenset(codes)


METHODS: tuple[MethodSpec, ...] = (
    MethodSpec("ideal", "iDEAL", _only("EUR"), _only("NL"), 1, 50_000_00,
               timedelta(minutes=15), "#cc0066"),
    MethodSpec("bancontact", "Bancontact", _only("EUR"), _only("BE"), 2, 50_000_00,
               colour="#005498"),
    MethodSpec("blik", "BLIK", _only("PLN"), _only("PL"), 1_00, 50_000_00, colour="#000000"),
    MethodSpec("przelewy24", "Przelewy24", _only("PLN", "EUR"), _only("PL"), 1, 25_000_00,
               colour="#d13239"),
    MethodSpec("mobilepay", "MobilePay", _only("DKK", "EUR"), _only("DK", "FI"), 1, 5_000_00,
               colour="#5a78ff"),
    MethodSpec("vipps", "Vipps", _only("NOK"), _only("NO"), 1, 50_000_00, colour="#ff5b24"),
    MethodSpec("swish", "Swish", _only("SEK"), _only("SE"), 1_00, 150_000_00,
               colour="#2c9f49"),
    MethodSpec("twint", "TWINT", _only("CHF"), _only("CH"), 1, 5_000_00, colour="#000000"),
    MethodSpec("creditcard", N_("Credit card"), lifetime=timedelta(minutes=30),
               colour="#1e3a8a"),
    MethodSpec("paypal", "PayPal", maximum_cents=8_000_00, lifetime=timedelta(hours=3),
               colour="#003087"),
    MethodSpec("directdebit", N_("Direct debit"), _only("EUR"), SEPA_COUNTRIES, 1,
               1_000_00, colour="#10298e"),
)  # fmt: skip
_BY_ID = {method.id: method for method in METHODS}


def method_spec(method_id: str | None) -> MethodSpec | None:
    return _BY_ID.get(method_id or "")


def offered(cents: int | None, currency: str | None, country: str | None) -> list[MethodSpec]:
    """The methods for this amount and country; without an amount, those taking euros."""
    wanted = currency or "EUR"
    return [
        method
        for method in METHODS
        if method.offered_in(country)
        and (method.refusal(cents, wanted) is None if cents is not None
             else wanted in method.currencies)
    ]  # fmt: skip


def lifetime(method_id: str | None) -> timedelta:
    spec = method_spec(method_id)
    return spec.lifetime if spec else DEFAULT_LIFETIME


_SHORT_LABELS = {"creditcard": "CARD", "directdebit": "SEPA"}


def icon_svg(spec: MethodSpec) -> str:
    """A plain badge with the method's name (the real icons live on Mollie's servers)."""
    label = _SHORT_LABELS.get(spec.id) or escape(spec.description)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40">'
        f'<rect width="64" height="40" rx="6" fill="{spec.colour}"/>'
        '<text x="32" y="25" font-family="Arial,sans-serif" font-size="11" font-weight="700"'
        f' fill="#fff" text-anchor="middle">{label}</text></svg>'
    )
