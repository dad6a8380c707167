"""The kinds of site settings an admin edits: each draws its editor (models/setting_fields.py)
from the current value and parses what the browser sent back into a value of the setting's
type, bounded and from its vocabulary, or refuses it (SettingRefused). Nothing the browser
sends is trusted: unknown inputs are ignored, every value is checked here."""

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from models.form_input import field_text
from models.member import utcnow
from models.setting_fields import (
    CHECKBOX,
    COST,
    CREDITS,
    CURRENCY,
    DATE,
    DERIVED,
    NUMBER,
    ONE_PER_LINE,
    SELECT,
    TEXT,
    TEXTAREA,
    VALUE,
    Group,
    Input,
    SettingRefused,
)
from models.site_settings import SiteSettings, derived_message_costs
from translations.catalog import N_, N_plural

WHOLE_NUMBER = N_("Enter a whole number from {low} to {high}.")
DECIMAL_NUMBER = N_("Enter a number from {low} to {high}, with at most two decimals.")
NOT_LISTED = N_("Choose one of the listed values.")
LENGTH = N_plural(
    "Enter from {low} to {high} character.", "Enter from {low} to {high} characters.", "high"
)
FORMAT = N_("This value does not have the expected format.")
NOT_A_DATE = N_("Enter a date as YYYY-MM-DD.")
NOT_AFTER_TODAY = N_("Enter a date no later than today.")
CONTROL_CHARACTERS = N_("Leave out tabs, line breaks and other control characters.")
HOW_MANY = N_("Give from {low} to {high} values.")

NUMBER_INPUT = 20  # characters of a number as typed: more than any bound needs
CHOICE_INPUT = 100  # characters of a choice: more than any vocabulary's longest value
DAY_INPUT = len("YYYY-MM-DD")

Vocabulary = Callable[[SiteSettings], tuple[str, ...]]


def whole(form: dict, name: str, low: int, high: int) -> int:
    text = field_text(form, name, NUMBER_INPUT)
    if not re.fullmatch(r"-?\d+", text) or not low <= int(text) <= high:
        raise SettingRefused(name, WHOLE_NUMBER, low=low, high=high)
    return int(text)


def decimal(form: dict, name: str, low: Decimal, high: Decimal) -> Decimal:
    """A number with at most two decimals (a price, a rate), "," or "." as the separator."""
    text = field_text(form, name, NUMBER_INPUT).replace(",", ".")
    number = Decimal(text) if re.fullmatch(r"\d+(\.\d{1,2})?", text) else None
    if number is None or not low <= number <= high:
        raise SettingRefused(name, DECIMAL_NUMBER, low=str(low), high=str(high))
    return number


def checked(form: dict, name: str) -> bool:
    return name in form and form[name] not in (False, "", None, "false")


def one_of(form: dict, name: str, vocabulary: tuple[str, ...]) -> str:
    value = field_text(form, name, CHOICE_INPUT)
    if value not in vocabulary:
        raise SettingRefused(name, NOT_LISTED)
    return value


def _major(cents: int) -> str:
    return f"{Decimal(cents) / 100:.2f}"


def _cents(number: Decimal) -> int:
    return int(number * 100)


def fixed(*values: str) -> Vocabulary:
    return lambda _settings: values


@dataclass(frozen=True)
class WholeNumber:
    low: int
    high: int

    def groups(self, value: int, settings: SiteSettings) -> list[Group]:
        return [Group("", [Input("value", VALUE, input=NUMBER, value=str(value))])]

    def parse(self, form: dict, settings: SiteSettings) -> int:
        return whole(form, "value", self.low, self.high)


@dataclass(frozen=True)
class YesNo:
    def groups(self, value: bool, settings: SiteSettings) -> list[Group]:
        return [Group("", [Input("value", VALUE, input=CHECKBOX, checked=value)])]

    def parse(self, form: dict, settings: SiteSettings) -> bool:
        return checked(form, "value")


@dataclass(frozen=True)
class Text:
    high: int
    low: int = 1
    pattern: str = ""  # a full-match regular expression, "" any text

    def groups(self, value: str, settings: SiteSettings) -> list[Group]:
        return [Group("", [Input("value", VALUE, input=TEXT, value=value)])]

    def parse(self, form: dict, settings: SiteSettings) -> str:
        return self.check("value", field_text(form, "value", self.high + 1))

    def check(self, name: str, value: str) -> str:
        if not self.low <= len(value) <= self.high:
            raise SettingRefused(name, LENGTH, low=self.low, high=self.high)
        # A name goes into a mail's From header, a title into every page's <head>.
        if any(unicodedata.category(c) == "Cc" for c in value):
            raise SettingRefused(name, CONTROL_CHARACTERS)
        if self.pattern and value and not re.fullmatch(self.pattern, value):
            raise SettingRefused(name, FORMAT)
        return value


@dataclass(frozen=True)
class Day:
    """A day that has come (a date written YYYY-MM-DD, stored as that text)."""

    def groups(self, value: str, settings: SiteSettings) -> list[Group]:
        return [Group("", [Input("value", VALUE, input=DATE, value=value)])]

    def parse(self, form: dict, settings: SiteSettings) -> str:
        try:
            day = date.fromisoformat(field_text(form, "value", DAY_INPUT))
        except ValueError:
            raise SettingRefused("value", NOT_A_DATE) from None
        if day > utcnow().date():
            raise SettingRefused("value", NOT_AFTER_TODAY)
        return day.isoformat()


@dataclass(frozen=True)
class Choice:
    vocabulary: Vocabulary
    kind: str = "raw"  # how an option is named: "raw", "country", "language"

    def groups(self, value: str, settings: SiteSettings) -> list[Group]:
        options = list(self.vocabulary(settings))
        select = Input(
            "value", VALUE, input=SELECT, value=value, options=options, option_kind=self.kind
        )
        return [Group("", [select])]

    def parse(self, form: dict, settings: SiteSettings) -> str:
        return one_of(form, "value", self.vocabulary(settings))


@dataclass(frozen=True)
class Subset:
    """Some values of a vocabulary, one checkbox each, kept in the vocabulary's order."""

    vocabulary: Vocabulary
    kind: str = "raw"
    low: int = 0

    def groups(self, value: list[str], settings: SiteSettings) -> list[Group]:
        boxes = [
            Input(f"item.{item}", item, self.kind, CHECKBOX, checked=item in value)
            for item in self.vocabulary(settings)
        ]
        return [Group("", boxes)]

    def parse(self, form: dict, settings: SiteSettings) -> list[str]:
        vocabulary = self.vocabulary(settings)
        chosen = [item for item in vocabulary if checked(form, f"item.{item}")]
        if len(chosen) < self.low:
            raise SettingRefused("", HOW_MANY, low=self.low, high=len(vocabulary))
        return chosen


@dataclass(frozen=True)
class Lines:
    """A list of texts, one per line, each checked by `item`."""

    item: Text
    high: int = 10

    def groups(self, value: list[str], settings: SiteSettings) -> list[Group]:
        text = "\n".join(value)
        return [Group("", [Input("value", ONE_PER_LINE, input=TEXTAREA, value=text)])]

    def parse(self, form: dict, settings: SiteSettings) -> list[str]:
        raw = field_text(form, "value", self.high * (self.item.high + 2))
        lines = [line.strip() for line in raw.splitlines() if line.strip()]
        if not 1 <= len(lines) <= self.high:
            raise SettingRefused("value", HOW_MANY, low=1, high=self.high)
        return [self.item.check("value", line) for line in lines]


@dataclass(frozen=True)
class PerLanguage:
    """A text per interface language (the fictional-profile labels)."""

    languages: tuple[str, ...]
    item: Text

    def groups(self, value: dict[str, str], settings: SiteSettings) -> list[Group]:
        inputs = [
            Input(f"lang.{code}", code, "language", TEXT, value=value.get(code, ""))
            for code in self.languages
        ]
        return [Group("", inputs)]

    def parse(self, form: dict, settings: SiteSettings) -> dict[str, str]:
        return {
            code: self.item.check(
                f"lang.{code}", field_text(form, f"lang.{code}", self.item.high + 1)
            )
            for code in self.languages
        }


@dataclass(frozen=True)
class Rates:
    """A VAT rate in percent per country of `countries`; an empty field: no rate of its own."""

    countries: Vocabulary
    high: Decimal = Decimal(50)

    def groups(self, value: dict[str, float], settings: SiteSettings) -> list[Group]:
        inputs = [
            Input(f"rate.{c}", c, "country", NUMBER, value=_number(value.get(c)), step="0.01")
            for c in self.countries(settings)
        ]
        return [Group("", inputs)]

    def parse(self, form: dict, settings: SiteSettings) -> dict[str, float]:
        rates = {}
        for country in self.countries(settings):
            if field_text(form, f"rate.{country}", NUMBER_INPUT):
                rates[country] = float(decimal(form, f"rate.{country}", Decimal(0), self.high))
        return rates


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


MAX_CREDITS = 100_000
MAX_PRICE = Decimal(100_000)  # in a currency's major unit


@dataclass(frozen=True)
class Bundles:
    """The credit bundles: per tier its credits and its price (VAT included) in each currency.
    The tiers and currencies are the stored ones: every bundle keeps a price in every currency
    (models/site_settings.currency_for falls back to EUR otherwise)."""

    def groups(self, value: dict[str, dict[str, Any]], settings: SiteSettings) -> list[Group]:
        currencies = _currencies(value)
        return [
            Group(
                tier,
                [
                    Input(f"credits.{tier}", CREDITS, input=NUMBER, value=str(spec["credits"])),
                    *(
                        Input(
                            f"price.{tier}.{cur}",
                            cur,
                            "raw",
                            NUMBER,
                            value=_major(spec["prices"].get(cur, 0)),
                            step="0.01",
                        )
                        for cur in currencies
                    ),
                ],
            )
            for tier, spec in value.items()
        ]

    def parse(self, form: dict, settings: SiteSettings) -> dict[str, dict[str, Any]]:
        stored = settings.credit_bundles
        currencies = _currencies(stored)
        return {
            tier: {
                "credits": whole(form, f"credits.{tier}", 1, MAX_CREDITS),
                "prices": {
                    cur: _cents(decimal(form, f"price.{tier}.{cur}", Decimal("0.01"), MAX_PRICE))
                    for cur in currencies
                },
            }
            for tier in stored
        }


def _currencies(bundles: dict[str, dict[str, Any]]) -> list[str]:
    return sorted({cur for spec in bundles.values() for cur in spec["prices"]})


def bundle_currencies(settings: SiteSettings) -> tuple[str, ...]:
    return tuple(_currencies(settings.credit_bundles))


@dataclass(frozen=True)
class MessageCosts:
    """The lowest price of a message per country and its currency (the spec's
    minimum_message_costs), or derived from the bundles (stored empty)."""

    def groups(self, value: dict[str, dict[str, Any]], settings: SiteSettings) -> list[Group]:
        derived = Input("derived", DERIVED, input=CHECKBOX, checked=self._derived(settings))
        rows = [
            Group(
                country,
                [
                    Input(
                        f"cost.{country}",
                        COST,
                        input=NUMBER,
                        value=_cost(value, country),
                        step="0.01",
                    ),
                    Input(
                        f"currency.{country}",
                        CURRENCY,
                        input=SELECT,
                        value=value.get(country, {}).get("currency", ""),
                        options=list(bundle_currencies(settings)),
                    ),
                ],
                "country",
            )
            for country in settings.countries
        ]
        return [Group("", [derived]), *rows]

    @staticmethod
    def _derived(settings: SiteSettings) -> bool:
        return settings.minimum_message_costs == derived_message_costs(settings)

    def parse(self, form: dict, settings: SiteSettings) -> dict[str, dict[str, Any]]:
        if checked(form, "derived"):
            return {}
        currencies = bundle_currencies(settings)
        return {
            country: {
                "costs": float(decimal(form, f"cost.{country}", Decimal("0.01"), Decimal(1000))),
                "currency": one_of(form, f"currency.{country}", currencies),
            }
            for country in settings.countries
        }


def _cost(value: dict[str, dict[str, Any]], country: str) -> str:
    cost = value.get(country, {}).get("costs")
    return "" if cost is None else f"{Decimal(str(cost)):.2f}"


Kind = (
    WholeNumber | YesNo | Text | Day | Choice | Subset | Lines | PerLanguage | Rates | Bundles
    | MessageCosts
)  # fmt: skip
