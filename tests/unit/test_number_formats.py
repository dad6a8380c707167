"""Numbers, percentages, amounts, country names and dates written the reader's way, by CLDR:
Babel on the server, the page's own browser code (run in node) with `Intl` in the browser,
in the locale one place decides (the page's language, in the visitor's region where the
browser names one)."""

import json

import pytest
import reflex as rx

from app.pages.direct_debit import creditor_address_line
from components.i18n import intl_format, money, number, percent
from models.site_settings import SiteSettings, creditor_address
from state.i18n import I18nState
from tests.node import run_node
from translations.catalog import N_plural, gettext, ngettext
from translations.numbers import country_name, written_number, written_percent

NBSP, NNBSP = "\u00a0", "\u202f"

GROUPED = [
    ("de", "1.500"), ("nl", "1.500"), ("da", "1.500"), ("it", "1.500"), ("es", "1500"),
    ("fr", f"1{NNBSP}500"), ("fi", f"1{NBSP}500"), ("sv", f"1{NBSP}500"), ("nb", f"1{NBSP}500"),
    ("pl", "1500"), ("en", "1,500"),
]  # fmt: skip
PERCENTS = [
    ("de", 85, f"85{NBSP}%"), ("fr", -25, f"-25{NBSP}%"), ("fi", 85, f"85{NBSP}%"),
    ("sv", 85, f"85{NBSP}%"), ("en", 85, "85%"), ("nl", -25, "-25%"),
]  # fmt: skip


@pytest.mark.parametrize(("locale", "written"), GROUPED)
def test_the_server_groups_a_number_the_languages_way(locale: str, written: str) -> None:
    assert written_number(1500, locale) == written


@pytest.mark.parametrize(("locale", "value", "written"), PERCENTS)
def test_the_server_writes_a_percentage_the_languages_way(
    locale: str, value: int, written: str
) -> None:
    assert written_percent(value, locale) == written


def test_a_vat_rate_keeps_its_decimal() -> None:
    assert written_percent(9.5, "de") == f"9,5{NBSP}%" and written_percent(21, "en") == "21%"


def test_a_counted_text_on_the_server_groups_its_count() -> None:
    assert ngettext("de", "{count} credit", "{count} credits", 1500) == "1.500 Credits"
    days = N_plural("Within {days} day", "Within {days} days", "days")  # a count by its name
    assert gettext("fr", days, days=1500) == f"Within 1{NNBSP}500 days"


def test_country_names_are_the_readers() -> None:
    assert [country_name("NL", locale) for locale in ("de", "fi", "nl", "en")] == [
        "Niederlande", "Alankomaat", "Nederland", "Netherlands",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("locale", "country"), [("de", "Niederlande"), ("fi", "Alankomaat"), ("nl", "Nederland")]
)
def test_the_creditor_address_names_its_country_in_the_readers_language(
    locale: str, country: str
) -> None:
    address = creditor_address(SiteSettings(), locale)
    assert address == f"Keizersgracht 123, 1015 CJ Amsterdam, {country}"


def _in_browser(expressions: dict[str, rx.Var | str], page: str, languages: list[str]) -> dict:
    """What the page's code writes for each expression: the page in `page`, hydrated, in a
    browser whose languages are `languages`."""
    state = str(I18nState.locale).split(".")[0]
    prelude = (
        f"Object.defineProperty(globalThis, 'navigator', {{value: {{languages: "
        f"{json.dumps(languages)}}}, configurable: true}});"
        f"const hydrated = true, documentLocale = '', isTrue = Boolean;"
        f"const {state} = {{ready_rx_state_: true, locale_rx_state_: {json.dumps(page)}}};"
    )
    code = {
        name: str(rx.Var(js) if isinstance(js, str) else js) for name, js in expressions.items()
    }
    body = ", ".join(f"{json.dumps(name)}: {js}" for name, js in code.items())
    return json.loads(run_node(f"{prelude} console.log(JSON.stringify({{{body}}}));"))


def test_the_mandate_page_names_the_creditors_country_only_when_it_has_one() -> None:
    street = rx.Var.create("Damrak 1, 1012 LG Amsterdam")
    written = _in_browser(
        {
            "de": creditor_address_line(street, rx.Var.create("NL")),
            "none": creditor_address_line(street, rx.Var.create("")),
        },
        "de",
        [],
    )
    assert written == {
        "de": "Damrak 1, 1012 LG Amsterdam, Niederlande",
        "none": "Damrak 1, 1012 LG Amsterdam",
    }


BROWSER = {
    "count": number(1500),
    "percent": percent(-25),
    "price": money(1995, rx.Var.create("EUR")),
    "zloty": money(8900, rx.Var.create("PLN")),
    "none": money(1995, rx.Var.create("")),
    "date": intl_format(rx.Var.create("2026-11-27T14:50:00Z"), "dateStyle: 'medium', "
                        "timeStyle: 'short', timeZone: 'UTC'"),
}  # fmt: skip


@pytest.mark.parametrize(
    ("page", "count", "percent_", "price"),
    [
        ("de", "1.500", f"-25{NBSP}%", f"19,95{NBSP}€"),
        ("fr", f"1{NNBSP}500", f"-25{NBSP}%", f"19,95{NBSP}€"),
        ("nl", "1.500", "-25%", f"€{NBSP}19,95"),
        ("en", "1,500", "-25%", "€19.95"),
    ],
)
def test_the_browser_writes_numbers_and_amounts_in_the_pages_language(
    page: str, count: str, percent_: str, price: str
) -> None:
    written = _in_browser(BROWSER, page, [])
    assert (written["count"], written["percent"], written["price"]) == (count, percent_, price)
    assert written["none"] == ""  # no currency yet: nothing, not an error


def test_a_currency_code_keeps_its_space_in_english() -> None:
    assert _in_browser(BROWSER, "en", [])["zloty"] == f"PLN{NBSP}89.00"


def test_the_browser_follows_the_visitors_region_of_the_pages_language() -> None:
    british = _in_browser(BROWSER, "en", ["en-GB", "de-AT"])
    assert british["date"] == "27 Nov 2026, 14:50"
    american = _in_browser(BROWSER, "en", ["en-US"])
    assert american["date"].replace(NNBSP, " ") == "Nov 27, 2026, 2:50 PM"
    # a German page in an English browser with Austrian German: Austria's formats, not Britain's
    austrian = _in_browser(BROWSER, "de", ["en-GB", "de-AT"])
    assert austrian["date"] == "27.11.2026, 14:50" and austrian["count"] == f"1{NBSP}500"
    assert _in_browser(BROWSER, "nl", ["en-GB"])["price"] == f"€{NBSP}19,95"


def test_before_react_takes_over_a_count_is_written_as_the_prerender_wrote_it() -> None:
    code = str(number(1500)).replace("hydrated ?", "false ?")
    assert run_node(f"console.log({code})").strip() == "1500"


def test_spanish_and_polish_group_from_five_digits_on_both_sides() -> None:
    assert [written_number(n, "es") for n in (1500, 15000)] == ["1500", "15.000"]
    assert written_number(15000, "pl") == f"15{NBSP}000"
    browser = _in_browser({"small": number(1500), "large": number(15000)}, "es", [])
    assert browser == {"small": "1500", "large": "15.000"}
