"""The direct debit form: account holder, IBAN, address and phone, checked and normalised.

`check_form` never raises: every value is stripped and bounded, and each problem is a msgid
from translations.errors beside its field. The IBAN must be valid (schwifty: check digits and
the country's format) and from a SEPA country; the phone must be a mobile number (phonenumbers,
read for the member's country) and is kept in E.164; postcodes follow the country's format.
"""

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import phonenumbers
from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from translations.errors import (
    SDD_FIELD_REQUIRED,
    SDD_FIELD_TOO_LONG,
    SDD_IBAN_NOT_SEPA,
    SDD_INVALID_CHARACTERS,
    SDD_INVALID_IBAN,
    SDD_INVALID_PHONE,
    SDD_INVALID_ZIP,
)

EU_COUNTRIES = frozenset({
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
    "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
})  # fmt: skip
SEPA_COUNTRIES = EU_COUNTRIES | {"IS", "LI", "NO", "AD", "SM", "MC", "VA"}

FIELDS = ("account_holder", "iban", "street", "house_number", "zip", "city", "phone")
MAX_LENGTHS = {
    "account_holder": 70,
    "iban": 34,
    "street": 70,
    "house_number": 10,
    "zip": 10,
    "city": 35,
    "phone": 25,  # as typed: "+31 (0)6-12 34 56 78"
}
_RAW_LIMIT = 200  # longer input is refused before any parsing
_MOBILE_TYPES = {
    phonenumbers.PhoneNumberType.MOBILE,
    phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
}
_FOUR_DIGITS = (r"(\d{4})", "{0}")
_FIVE_DIGITS = (r"(\d{5})", "{0}")
# Per country: the postcode's pattern (upper case, single spaces) and its written form.
_ZIP_FORMATS: dict[str, tuple[str, str]] = {
    "NL": (r"([1-9]\d{3}) ?([A-Z]{2})", "{0} {1}"),
    "BE": _FOUR_DIGITS,
    "AT": _FOUR_DIGITS,
    "LU": (r"(?:L-?)?(\d{4})", "{0}"),
    "DK": _FOUR_DIGITS,
    "NO": _FOUR_DIGITS,
    "CH": _FOUR_DIGITS,
    "DE": _FIVE_DIGITS,
    "FI": _FIVE_DIGITS,
    "ES": _FIVE_DIGITS,
    "IT": _FIVE_DIGITS,
    "FR": _FIVE_DIGITS,
    "PL": (r"(\d{2})-?(\d{3})", "{0}-{1}"),
    "SE": (r"(\d{3}) ?(\d{2})", "{0} {1}"),
}
_OTHER_ZIP = r"[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]"


@dataclass(frozen=True)
class SddForm:
    """The accepted form: `iban` compact, `zip` in its country's form, `phone` in E.164."""

    account_holder: str
    iban: str
    street: str
    house_number: str
    zip: str
    city: str
    phone: str
    country: str


def _clean(value: object) -> str:
    """Stripped, inner whitespace collapsed; "" for anything but text."""
    return " ".join(value.split()) if isinstance(value, str) else ""


def _has_control(value: str) -> bool:
    return any(unicodedata.category(char)[0] == "C" for char in value)


def _text(value: str) -> tuple[str, str]:
    if not any(char.isalnum() for char in value):
        return "", SDD_INVALID_CHARACTERS
    return value, ""


def _name(value: str) -> tuple[str, str]:
    if not any(char.isalpha() for char in value):
        return "", SDD_INVALID_CHARACTERS
    return value, ""


def _iban(value: str) -> tuple[str, str]:
    try:
        iban = IBAN(value)
    except (SchwiftyException, ValueError):
        return "", SDD_INVALID_IBAN
    if iban.country_code not in SEPA_COUNTRIES:
        return "", SDD_IBAN_NOT_SEPA
    return iban.compact, ""


def _zip_for(country: str) -> Callable[[str], tuple[str, str]]:
    pattern, written = _ZIP_FORMATS.get(country, (f"({_OTHER_ZIP})", "{0}"))

    def check(value: str) -> tuple[str, str]:
        match = re.fullmatch(pattern, value.upper())
        return (written.format(*match.groups()), "") if match else ("", SDD_INVALID_ZIP)

    return check


def _phone_for(country: str) -> Callable[[str], tuple[str, str]]:
    def check(value: str) -> tuple[str, str]:
        try:
            number = phonenumbers.parse(value, country or None)
        except phonenumbers.NumberParseException:
            return "", SDD_INVALID_PHONE
        mobile = phonenumbers.number_type(number) in _MOBILE_TYPES
        sepa = phonenumbers.region_code_for_number(number) in SEPA_COUNTRIES  # no SMS pumping
        if not (phonenumbers.is_valid_number(number) and mobile and sepa):
            return "", SDD_INVALID_PHONE
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164), ""

    return check


def _check_field(value: str, limit: int, check: Callable[[str], tuple[str, str]]) -> tuple:
    if not value:
        return "", SDD_FIELD_REQUIRED
    if len(value) > limit:
        return "", SDD_FIELD_TOO_LONG
    if _has_control(value):
        return "", SDD_INVALID_CHARACTERS
    return check(value)


def check_form(values: dict[str, str], country: str) -> tuple[SddForm | None, dict[str, str]]:
    """The normalised form and no errors, or None and field -> error msgid."""
    country = _clean(country).upper()[:2]
    checks: dict[str, Callable[[str], tuple[str, str]]] = {
        "account_holder": _name,
        "iban": _iban,
        "street": _text,
        "house_number": _text,
        "zip": _zip_for(country),
        "city": _name,
        "phone": _phone_for(country),
    }
    accepted: dict[str, str] = {}
    errors: dict[str, str] = {}
    for name in FIELDS:
        raw = values.get(name) if isinstance(values, dict) else None
        value = _clean(raw)[:_RAW_LIMIT]
        limit = MAX_LENGTHS[name] + (8 if name == "iban" else 0)  # IBANs are typed in groups
        accepted[name], error = _check_field(value, limit, checks[name])
        if error:
            errors[name] = error
    if errors:
        return None, errors
    return SddForm(country=country, **accepted), {}
