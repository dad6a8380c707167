"""Mollie's amount strings: major units with exactly two decimals ("19.95"), as every
currency we sell in has."""

import re
from decimal import Decimal

from services.payments.types import Money

_VALUE = re.compile(r"^\d+\.\d{2}$")


def amount_value(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def amount_json(money: Money) -> dict[str, str]:
    return {"currency": money.currency, "value": amount_value(money.cents)}


def cents_of(value: str) -> int:
    """ "19.95" -> 1995; ValueError when `value` is not a two-decimal amount."""
    if not isinstance(value, str) or not _VALUE.match(value):
        raise ValueError(f"not an amount: {value!r}")
    return int(Decimal(value) * 100)


def money_of(amount: object) -> Money:
    """Mollie's `{"currency": "EUR", "value": "19.95"}` as Money; ValueError if malformed."""
    if not isinstance(amount, dict) or not isinstance(amount.get("currency"), str):
        raise ValueError(f"not an amount: {amount!r}")
    return Money(cents_of(amount.get("value")), amount["currency"])
