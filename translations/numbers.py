"""Numbers, percentages and country names as a language writes them, by CLDR (Babel): the
server's side of what the browser writes with `Intl` (components/i18n.py). Amounts of money are
models/pricing.format_money."""

from decimal import Decimal

from babel import Locale
from babel.numbers import format_decimal, format_percent

# CLDR's minimumGroupingDigits where it is 2 (Babel does not read it): es and pl write 1500
# but 15.000 / 15 000, as the browsers' Intl does.
_MINIMUM_GROUPING_DIGITS = {"es": 2, "pl": 2}


def grouped(value: int | float | Decimal, locale: str) -> bool:
    """Whether `value`'s thousands are set apart in `locale`."""
    return abs(value) >= 10 ** (2 + _MINIMUM_GROUPING_DIGITS.get(locale, 1))


def written_number(value: int | Decimal, locale: str) -> str:
    """`value` grouped the language's way: de "1.500", fr "1 500" (a narrow no-break space),
    en "1,500", es "1500" but "15.000"."""
    return format_decimal(value, locale=locale, group_separator=grouped(value, locale))


def written_percent(percentage: int | Decimal, locale: str) -> str:
    """`percentage` (25 for 25 %) the language's way, its decimals kept: de "25 %" (a no-break
    space), en "25%", fr "9,5 %"."""
    return format_percent(Decimal(percentage) / 100, locale=locale, decimal_quantization=False)


def country_name(code: str, locale: str) -> str:
    """The country's name in `locale` ("NL": de "Niederlande"); an unknown code as it is."""
    return Locale.parse(locale).territories.get(code.upper(), code)
