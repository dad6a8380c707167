"""VAT inside a price: our prices include VAT, so the VAT part is derived from the total.

A consumer buying a digital service pays the VAT of the country they live in (EU one-stop
shop; the UK, Norway, Switzerland, Australia and New Zealand ask foreign sellers the same), so
the rate follows the order's country. The rates are a site setting (`vat_rates`) because
they change; these are the defaults (standard rates, percent)."""

from decimal import ROUND_HALF_UP, Decimal

DEFAULT_VAT_RATES: dict[str, float] = {
    "NL": 21, "BE": 21, "DE": 19, "AT": 20, "LU": 17, "IT": 22, "FR": 20, "ES": 21, "PL": 23,
    "DK": 25, "FI": 25.5, "SE": 25, "IE": 23, "GB": 20, "NO": 25, "CH": 8.1, "AU": 10,
    "NZ": 15, "CA": 5, "US": 0,
}  # fmt: skip


def vat_rate(rates: dict[str, float], country: str, fallback_country: str) -> Decimal:
    """The rate (percent) for a buyer in `country`; the seller's own where none is set."""
    return Decimal(str(rates.get(country, rates.get(fallback_country, 0))))


def vat_included(gross_cents: int, rate_percent: Decimal | int) -> int:
    """The VAT in a VAT-inclusive amount: gross minus the net rounded half up to the cent
    (1995 at 21 % -> net 1649, VAT 346)."""
    net = (Decimal(gross_cents) * 100 / (100 + Decimal(rate_percent))).quantize(
        Decimal(1), rounding=ROUND_HALF_UP
    )
    return gross_cents - int(net)
