"""The direct debit form: IBAN, phone and postcode per country, bounded text, and (property
tests) any input at all gives a form or known error texts, never an exception."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.sdd_form import FIELDS, MAX_LENGTHS, SEPA_COUNTRIES, SddForm, check_form
from translations import errors
from translations.catalog import gettext
from translations.locales import LOCALES

VALID = {
    "account_holder": " Jan  de Vries ",
    "iban": "nl91 abna 0417 1643 00",
    "street": "Keizersgracht",
    "house_number": "12a",
    "zip": "1015cj",
    "city": "Amsterdam",
    "phone": "06 12345678",
}
KNOWN_ERRORS = {
    errors.SDD_FIELD_REQUIRED,
    errors.SDD_FIELD_TOO_LONG,
    errors.SDD_INVALID_CHARACTERS,
    errors.SDD_INVALID_IBAN,
    errors.SDD_IBAN_NOT_SEPA,
    errors.SDD_INVALID_PHONE,
    errors.SDD_INVALID_ZIP,
}


def _errors(country: str = "NL", **changes: str) -> dict[str, str]:
    form, found = check_form({**VALID, **changes}, country)
    assert (form is None) == bool(found)
    return found


def test_a_valid_form_is_normalised() -> None:
    form, found = check_form(VALID, "NL")
    assert found == {}
    assert form == SddForm(
        account_holder="Jan de Vries",
        iban="NL91ABNA0417164300",
        street="Keizersgracht",
        house_number="12a",
        zip="1015 CJ",
        city="Amsterdam",
        phone="+31612345678",
        country="NL",
    )


@pytest.mark.parametrize(
    ("iban", "error"),
    [
        ("NL91ABNA0417164301", errors.SDD_INVALID_IBAN),  # check digits
        ("NL91ABNA041716430", errors.SDD_INVALID_IBAN),  # the country's length
        ("XX91ABNA0417164300", errors.SDD_INVALID_IBAN),
        ("not an iban", errors.SDD_INVALID_IBAN),
        ("GB29NWBK60161331926819", errors.SDD_IBAN_NOT_SEPA),
        ("CH9300762011623852957", errors.SDD_IBAN_NOT_SEPA),  # SEPA, but not on our list
    ],
)
def test_iban_errors(iban: str, error: str) -> None:
    assert _errors(iban=iban) == {"iban": error}


@pytest.mark.parametrize(
    "iban",
    ["DE89 3704 0044 0532 0130 00", "BE68539007547034", "FR1420041010050500013M02606",
     "NO9386011117947", "IS140159260076545510730339", "MC5811222000010123456789030"],
)  # fmt: skip
def test_sepa_ibans_from_other_countries_are_accepted(iban: str) -> None:
    assert "iban" not in _errors(iban=iban)


@pytest.mark.parametrize(
    ("country", "phone", "e164"),
    [
        ("NL", "06-12 34 56 78", "+31612345678"),
        ("NL", "+31 (0)6 12345678", "+31612345678"),
        ("DE", "0151 23456789", "+4915123456789"),
        ("BE", "0470 12 34 56", "+32470123456"),
        ("DE", "+31612345678", "+31612345678"),  # a foreign mobile, written internationally
    ],
)
def test_mobile_numbers_are_stored_in_e164(country: str, phone: str, e164: str) -> None:
    zips = {"NL": "1015 CJ", "DE": "10115", "BE": "1000"}
    form, found = check_form({**VALID, "phone": phone, "zip": zips[country]}, country)
    assert found == {} and form is not None
    assert form.phone == e164


@pytest.mark.parametrize("phone", ["020 123 4567", "0612", "+999 123", "call me", "112"])
def test_landlines_and_non_numbers_are_refused(phone: str) -> None:
    assert _errors(phone=phone) == {"phone": errors.SDD_INVALID_PHONE}


@pytest.mark.parametrize(
    ("country", "typed", "written"),
    [
        ("NL", "1015cj", "1015 CJ"), ("BE", "1000", "1000"), ("AT", "1010", "1010"),
        ("LU", "L-1234", "1234"), ("DK", "2100", "2100"), ("NO", "0150", "0150"),
        ("CH", "8001", "8001"), ("DE", "10115", "10115"), ("FI", "00100", "00100"),
        ("ES", "28001", "28001"), ("IT", "00118", "00118"), ("FR", "75001", "75001"),
        ("PL", "00-950", "00-950"), ("PL", "00950", "00-950"), ("SE", "11122", "111 22"),
        ("PT", "1000-001", "1000-001"), ("IE", "D02 X285", "D02 X285"),
    ],
)  # fmt: skip
def test_postcodes_per_country(country: str, typed: str, written: str) -> None:
    form, found = check_form({**VALID, "zip": typed, "phone": "+31612345678"}, country)
    assert found == {} and form is not None
    assert form.zip == written


@pytest.mark.parametrize(
    ("country", "typed"),
    [("NL", "0123 AB"), ("NL", "1015"), ("DE", "1011"), ("BE", "10000"), ("PL", "00-95"),
     ("SE", "1112"), ("PT", "1"), ("PT", "12-")],
)  # fmt: skip
def test_wrong_postcodes(country: str, typed: str) -> None:
    found = _errors(country, zip=typed, phone="+31612345678")
    assert found == {"zip": errors.SDD_INVALID_ZIP}


def test_every_field_is_required_and_bounded() -> None:
    assert _errors(**dict.fromkeys(FIELDS, "   ")) == dict.fromkeys(
        FIELDS, errors.SDD_FIELD_REQUIRED
    )
    for name in ("account_holder", "street", "city", "house_number"):
        assert _errors(**{name: "a" * (MAX_LENGTHS[name] + 1)}) == {name: errors.SDD_FIELD_TOO_LONG}
        assert _errors(**{name: "a" * MAX_LENGTHS[name]}) == {}


@pytest.mark.parametrize("name", ["account_holder", "street", "house_number", "city"])
@pytest.mark.parametrize("typed", ["---", "Jan\x00", "\u202eevil"])
def test_text_needs_letters_or_digits_and_no_control_characters(name: str, typed: str) -> None:
    assert _errors(**{name: typed}) == {name: errors.SDD_INVALID_CHARACTERS}


def test_accented_names_are_kept() -> None:
    form, _ = check_form({**VALID, "account_holder": "Zoë Ćwikła-Ørsted"}, "NL")
    assert form is not None and form.account_holder == "Zoë Ćwikła-Ørsted"


def test_the_sepa_list_is_the_issues() -> None:
    assert len(SEPA_COUNTRIES) == 34
    assert {"IS", "LI", "NO", "AD", "SM", "MC", "VA", "NL", "GR"} <= SEPA_COUNTRIES
    assert not {"GB", "CH", "US"} & SEPA_COUNTRIES


def test_every_error_is_translated() -> None:
    for msgid in KNOWN_ERRORS:
        for locale in LOCALES:
            assert gettext(locale, msgid) != msgid or locale == "en"


_ANY_TEXT = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.characters(codec="ascii"), max_size=40),
    st.from_regex(r"[+0-9 ()-]{0,30}", fullmatch=True),
    st.from_regex(r"[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{0,34}", fullmatch=True),
)
_VALUES = st.dictionaries(st.sampled_from([*FIELDS, "other"]), _ANY_TEXT)
_COUNTRIES = st.one_of(st.sampled_from(sorted(SEPA_COUNTRIES)), st.text(max_size=5))


@settings(max_examples=400, deadline=None)
@given(values=_VALUES, country=_COUNTRIES)
def test_any_input_gives_a_form_or_known_errors(values: dict[str, str], country: str) -> None:
    form, found = check_form(values, country)
    assert set(found.values()) <= KNOWN_ERRORS
    assert set(found) <= set(FIELDS)
    assert (form is None) == bool(found)


@settings(max_examples=200, deadline=None)
@given(changes=st.dictionaries(st.sampled_from(FIELDS), _ANY_TEXT, max_size=3))
def test_a_mostly_valid_form_errs_only_where_it_was_changed(changes: dict[str, str]) -> None:
    form, found = check_form({**VALID, **changes}, "NL")
    assert set(found) <= set(changes)
    assert set(found.values()) <= KNOWN_ERRORS
    if form is not None:  # nothing half-saved: every field is within its column
        for name in FIELDS:
            assert 0 < len(getattr(form, name)) <= MAX_LENGTHS[name]


@settings(max_examples=100, deadline=None)
@given(junk=st.one_of(st.none(), st.integers(), st.lists(st.text()), st.binary()))
def test_values_that_are_not_text_are_missing(junk: object) -> None:
    form, found = check_form({name: junk for name in FIELDS}, "NL")  # type: ignore[misc]
    assert form is None and set(found.values()) == {errors.SDD_FIELD_REQUIRED}
