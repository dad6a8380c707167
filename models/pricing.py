"""Credit bundles as a member sees them: credits, messages, price after a discount, per message.

Amounts are integer cents. A percentage discount is rounded half up to the cent (19.95 at 25 %
is 14.9625 -> 14.96; 0.125 -> 0.13), and so is the price per message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from babel.numbers import format_currency

from translations.numbers import grouped

if TYPE_CHECKING:  # site_settings derives its message costs with bundles_for
    from models.site_settings import SiteSettings


@dataclass(frozen=True)
class Bundle:
    tier: str
    credits: int
    messages: int  # how many messages the credits pay for
    popular: bool
    list_cents: int  # before the discount
    cents: int  # after the discount
    per_message_cents: int  # after the discount
    currency: str


def _half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def discounted(cents: int, percentage: int) -> int:
    """`cents` less `percentage` percent (0 to 100), rounded half up to the cent."""
    return _half_up(cents * (100 - max(0, min(100, percentage))), 100)


def per_message_cents(cents: int, credits: int, message_credits: int) -> int:
    """What one message costs when `credits` cost `cents`, rounded half up to the cent."""
    return _half_up(cents * message_credits, credits)


def bundle(
    settings: SiteSettings, tier: str, currency: str, discount_percentage: int = 0
) -> Bundle | None:
    """The bundle `tier` in `currency`; None when there is no such tier or no price in it."""
    spec = settings.credit_bundles.get(tier)
    if not spec or currency not in spec.get("prices", {}) or spec.get("credits", 0) <= 0:
        return None
    credits, list_cents = spec["credits"], spec["prices"][currency]
    cents = discounted(list_cents, discount_percentage)
    return Bundle(
        tier=tier,
        credits=credits,
        messages=credits // max(1, settings.message_credits),
        popular=tier == settings.popular_bundle,
        list_cents=list_cents,
        cents=cents,
        per_message_cents=per_message_cents(cents, credits, max(1, settings.message_credits)),
        currency=currency,
    )


def bundles_for(
    settings: SiteSettings, currency: str, discount_percentage: int = 0
) -> tuple[Bundle, ...]:
    """Every bundle priced in `currency`, p0 first."""
    found = (
        bundle(settings, tier, currency, discount_percentage)
        for tier in sorted(settings.credit_bundles)
    )
    return tuple(b for b in found if b is not None)


_CODE_BEFORE_DIGIT = re.compile(r"^([^\W\d]+)(?=\d)")


def format_amount(amount: Decimal | float, currency: str, language: str) -> str:
    """`amount` of `currency` in the interface language, with the space CLDR puts between a
    currency code and the number, which Babel leaves out: "PLN 19.95" (en), not "PLN19.95";
    "€19.95" takes none; grouped as CLDR groups (es "1500,00 €")."""
    written = format_currency(
        amount, currency, locale=language, group_separator=grouped(amount, language)
    )
    return _CODE_BEFORE_DIGIT.sub("\\1\u00a0", written)


def format_money(cents: int, currency: str, language: str) -> str:
    """`cents` in the interface language: "€ 19,95" (nl), "€19.95" (en), "19,95 zł" (pl)."""
    return format_amount(Decimal(cents).scaleb(-2), currency, language)
