"""Bundles, prices per currency, the discount rounding and the credit defaults' story."""

import dataclasses

import pytest
from sqlmodel import Session

from models.pricing import bundle, bundles_for, discounted, format_money, per_message_cents
from models.site_settings import (
    COUNTRY_CURRENCY,
    SiteSetting,
    SiteSettings,
    currency_for,
    load_settings,
    save_setting,
    seed_default_settings,
)

SETTINGS = SiteSettings()
CURRENCIES = ("EUR", "GBP", "DKK", "SEK", "NOK", "PLN", "CHF", "USD", "CAD", "AUD", "NZD")


def test_four_tiers_one_popular_and_bigger_is_more() -> None:
    bundles = bundles_for(SETTINGS, "EUR")
    assert [b.tier for b in bundles] == ["p0", "p1", "p2", "p3"]
    assert [b.tier for b in bundles if b.popular] == [SETTINGS.popular_bundle] == ["p2"]
    assert [b.credits for b in bundles] == sorted({b.credits for b in bundles})
    assert [b.messages for b in bundles] == [20, 50, 120, 300]  # at 5 credits a message


@pytest.mark.parametrize("currency", CURRENCIES)
def test_every_currency_prices_every_bundle_and_a_message_gets_cheaper(currency: str) -> None:
    bundles = bundles_for(SETTINGS, currency)
    assert len(bundles) == 4 and {b.currency for b in bundles} == {currency}
    assert all(b.cents == b.list_cents > 0 for b in bundles)
    per_message = [b.per_message_cents for b in bundles]
    assert per_message == sorted(per_message, reverse=True) and len(set(per_message)) == 4


def test_the_country_decides_the_currency() -> None:
    assert set(COUNTRY_CURRENCY.values()) | {"EUR"} == set(CURRENCIES)
    assert [currency_for(SETTINGS, c) for c in ("NL", "GB", "pl", "SE", "CH", "US")] == [
        "EUR", "GBP", "PLN", "SEK", "CHF", "USD"
    ]  # fmt: skip
    assert currency_for(SETTINGS, "JP") == currency_for(SETTINGS, None) == "EUR"
    without_gbp = {tier: {**spec, "prices": {"EUR": 100}} for tier, spec in _bundles().items()}
    assert currency_for(SiteSettings(credit_bundles=without_gbp), "GB") == "EUR"


def test_minimum_message_costs_are_the_cheapest_message_in_every_country() -> None:
    costs = SETTINGS.minimum_message_costs
    assert set(costs) == set(SETTINGS.countries)
    for country, price in costs.items():
        currency = currency_for(SETTINGS, country)
        cheapest = min(b.per_message_cents for b in bundles_for(SETTINGS, currency))
        assert price == {"costs": cheapest / 100, "currency": currency}
    assert costs["NL"] == {"costs": 0.5, "currency": "EUR"}
    assert costs["GB"]["currency"] == "GBP" and costs["PL"]["currency"] == "PLN"


def test_minimum_message_costs_follow_the_bundles_unless_set() -> None:
    cheaper = _bundles()
    cheaper["p3"]["prices"]["EUR"] = 7500
    assert SiteSettings(credit_bundles=cheaper).minimum_message_costs["NL"]["costs"] == 0.25
    assert SiteSettings(message_credits=10).minimum_message_costs["NL"]["costs"] == 1.0
    fixed = {"NL": {"costs": 0.1, "currency": "EUR"}}
    assert SiteSettings(minimum_message_costs=fixed).minimum_message_costs == fixed


def test_seeded_message_costs_stay_derived_after_a_bundle_edit(db: Session) -> None:
    seed_default_settings(db)
    assert db.get(SiteSetting, "minimum_message_costs").value == {}
    assert load_settings(db) == SiteSettings()
    cheaper = _bundles()
    cheaper["p3"]["prices"]["EUR"] = 7500
    save_setting(db, "credit_bundles", cheaper)
    assert load_settings(db).minimum_message_costs["NL"]["costs"] == 0.25


def test_the_credit_defaults_tell_one_story() -> None:
    message, gift, signup = SETTINGS.message_credits, SETTINGS.gift_credits, SETTINGS.signup_credits
    assert gift % message == 0 and 2 <= gift // message <= 5  # a gift is worth a few messages
    assert signup >= gift  # a new member can try a gift ...
    assert signup // message >= 3  # ... or a few messages
    smallest = bundles_for(SETTINGS, "EUR")[0]
    assert smallest.credits >= 5 * signup and smallest.credits % message == 0


@pytest.mark.parametrize(
    ("cents", "percentage", "expected"),
    [(1995, 25, 1496), (1995, 0, 1995), (1995, 100, 0), (50, 25, 38), (1, 50, 1), (3, 50, 2),
     (14995, 25, 11246), (1995, -5, 1995), (1995, 120, 0)],
)  # fmt: skip
def test_discounts_round_half_up_to_the_cent(cents: int, percentage: int, expected: int) -> None:
    assert discounted(cents, percentage) == expected


def test_per_message_price_rounds_half_up() -> None:
    assert per_message_cents(14995, 1500, 5) == 50  # 49.983
    assert per_message_cents(125, 10, 1) == 13  # 12.5
    assert per_message_cents(1995, 100, 5) == 100  # 99.75


def test_a_discounted_bundle_keeps_its_list_price() -> None:
    p0 = bundle(SETTINGS, "p0", "EUR", 25)
    assert p0 is not None
    assert (p0.list_cents, p0.cents, p0.per_message_cents) == (1995, 1496, 75)
    assert bundle(SETTINGS, "p0", "EUR") == dataclasses.replace(
        p0, cents=1995, per_message_cents=100
    )


def test_unknown_tiers_and_unpriced_currencies_have_no_bundle() -> None:
    assert bundle(SETTINGS, "p9", "EUR") is None
    assert bundle(SETTINGS, "p0", "JPY") is None
    assert bundles_for(SETTINGS, "JPY") == ()


@pytest.mark.parametrize(
    ("cents", "currency", "language", "expected"),
    [(1995, "EUR", "nl", "€\xa019,95"), (1995, "EUR", "en", "€19.95"),
     (1995, "PLN", "pl", "19,95\xa0zł"), (1795, "GBP", "en", "£17.95"),
     (14900, "DKK", "da", "149,00\xa0kr."),
     # a currency code before the number is set apart by a no-break space (CLDR's currency
     # spacing, which Babel leaves out); a symbol is not
     (8900, "PLN", "en", "PLN\xa089.00"), (8900, "CHF", "en", "CHF\xa089.00")],
)  # fmt: skip
def test_money_is_written_for_the_interface_language(cents, currency, language, expected) -> None:
    assert format_money(cents, currency, language) == expected


def _bundles() -> dict:
    return {
        tier: {**spec, "prices": dict(spec["prices"])}
        for tier, spec in SETTINGS.credit_bundles.items()
    }
