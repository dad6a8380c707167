"""Field rules of the account forms (spec section 5)."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.account_errors import AccountError
from models.account_rules import (
    NAME_MAX,
    NAME_MIN,
    PROFILE_NAME_LENGTH,
    check_new_password,
    clean_date_of_birth,
    clean_email,
    clean_profile_name,
    storable,
)
from models.passwords import (
    MAX_LENGTH,
    MIN_LENGTH,
    PASSWORD_TOO_COMMON,
    PASSWORD_TOO_LONG,
    PASSWORD_TOO_SHORT,
)
from translations.errors import (
    DATE_OF_BIRTH_REQUIRED,
    GENERIC_ERROR,
    INVALID_DATE_OF_BIRTH,
    INVALID_EMAIL,
    NEW_EMAIL_INVALID,
    PROFILE_NAME_IS_EMAIL,
    PROFILE_NAME_STARTS_WITH_AT,
)

TODAY = date(2025, 6, 15)


# --- e-mail -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("anna@example.com", "anna@example.com"),
        ("  Anna@Example.COM \n", "anna@example.com"),
        ("ANNA.de.Vries+dating@EXAMPLE.nl", "anna.de.vries+dating@example.nl"),
        ("anna@BÜCHER.de", "anna@bücher.de"),
    ],
)
def test_email_is_trimmed_and_lower_cased(raw: str, clean: str) -> None:
    assert clean_email(raw) == clean


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        None,
        "anna",
        "anna@",
        "@example.com",
        "anna@example",
        "anna@localhost",
        "an na@example.com",
        "anna@@example.com",
        "anna@exa mple.com",
        "a" * 250 + "@example.com",
    ],
)
def test_invalid_email_is_refused(raw: str) -> None:
    with pytest.raises(AccountError) as caught:
        clean_email(raw)
    assert caught.value.message == INVALID_EMAIL
    assert caught.value.field == "email"


def test_invalid_email_raises_the_callers_message() -> None:
    with pytest.raises(AccountError) as caught:
        clean_email("not an address", NEW_EMAIL_INVALID)
    assert caught.value.message == NEW_EMAIL_INVALID


# --- profile name -------------------------------------------------------------------------


def test_profile_name_spaces_are_collapsed() -> None:
    assert clean_profile_name("  Sunny \t  Anna ", "anna@example.com") == "Sunny Anna"


def test_profile_name_loses_characters_a_database_cannot_store() -> None:
    assert clean_profile_name("Sun\x00ny\ud800 Anna", "") == "Sunny Anna"


def test_storable_drops_nul_and_lone_surrogates_only() -> None:
    assert storable("a\x00b\udfffc\n\t😀é") == "abc\n\t😀é"


@pytest.mark.parametrize("name", ["anna@example.com", "ANNA@Example.com", "anna", "Anna", " ANNA "])
def test_profile_name_may_not_be_the_email_or_its_local_part(name: str) -> None:
    with pytest.raises(AccountError) as caught:
        clean_profile_name(name, "anna@example.com")
    assert caught.value.message == PROFILE_NAME_IS_EMAIL
    assert caught.value.field == "name"


def test_profile_name_may_contain_the_local_part() -> None:
    assert clean_profile_name("Anna B", "anna@example.com") == "Anna B"


@pytest.mark.parametrize("name", ["@anna", " @Sunny", "@"])
def test_profile_name_may_not_start_with_an_at(name: str) -> None:
    with pytest.raises(AccountError) as caught:
        clean_profile_name(name, "anna@example.com")
    assert caught.value.message == PROFILE_NAME_STARTS_WITH_AT


@pytest.mark.parametrize("name", ["", "A", "  B  ", "x" * (NAME_MAX + 1), "!!!", "-- --"])
def test_profile_name_of_wrong_length_or_without_letters_is_refused(name: str) -> None:
    with pytest.raises(AccountError) as caught:
        clean_profile_name(name, "anna@example.com")
    assert caught.value.message == PROFILE_NAME_LENGTH
    assert caught.value.params == {"min": NAME_MIN, "max": NAME_MAX}


@pytest.mark.parametrize("name", ["Bo", "x" * NAME_MAX, "Zoë 88"])
def test_profile_names_at_the_limits_are_accepted(name: str) -> None:
    assert clean_profile_name(name, "anna@example.com") == name


# --- date of birth ------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["", "  ", None])
def test_missing_date_of_birth_asks_for_it_with_the_minimum_age(raw: str | None) -> None:
    with pytest.raises(AccountError) as caught:
        clean_date_of_birth(raw, 21, TODAY)
    assert caught.value.message == DATE_OF_BIRTH_REQUIRED
    assert caught.value.params == {"min_age": 21}
    assert caught.value.field == "date_of_birth"


def test_under_age_is_refused_with_the_minimum_age() -> None:
    with pytest.raises(AccountError) as caught:
        clean_date_of_birth("2007-06-16", 18, TODAY)  # 18 tomorrow
    assert caught.value.message == DATE_OF_BIRTH_REQUIRED
    assert caught.value.params == {"min_age": 18}


def test_eighteenth_birthday_is_old_enough() -> None:
    assert clean_date_of_birth(" 2007-06-15 ", 18, TODAY) == date(2007, 6, 15)


@pytest.mark.parametrize(
    "raw",
    ["2025-06-16", "3000-01-01", "17-05-1990", "1990/05/17", "garbage", "1990-02-30", "1990-13-01"],
)
def test_future_or_unreadable_dates_are_invalid(raw: str) -> None:
    with pytest.raises(AccountError) as caught:
        clean_date_of_birth(raw, 18, TODAY)
    assert caught.value.message == INVALID_DATE_OF_BIRTH


def test_older_than_120_is_invalid_but_120_is_accepted() -> None:
    assert clean_date_of_birth("1904-06-16", 18, TODAY) == date(1904, 6, 16)  # 120 today
    with pytest.raises(AccountError) as caught:
        clean_date_of_birth("1904-06-15", 18, TODAY)  # 121 today
    assert caught.value.message == INVALID_DATE_OF_BIRTH
    with pytest.raises(AccountError):
        clean_date_of_birth("0001-01-01", 18, TODAY)


# --- new password -------------------------------------------------------------------------


def test_acceptable_password_is_returned_unchanged() -> None:
    assert check_new_password("correct horse battery") == "correct horse battery"


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("", PASSWORD_TOO_SHORT),
        (None, PASSWORD_TOO_SHORT),
        ("1234567", PASSWORD_TOO_SHORT),
        ("x" * (MAX_LENGTH + 1), PASSWORD_TOO_LONG),
        ("password", PASSWORD_TOO_COMMON),
        ("PassWord", PASSWORD_TOO_COMMON),
        ("12345678", PASSWORD_TOO_COMMON),
    ],
)
def test_bad_passwords_are_refused(password: str, message: str) -> None:
    with pytest.raises(AccountError) as caught:
        check_new_password(password, "new_password")
    assert caught.value.message == message
    assert caught.value.field == "new_password"
    assert caught.value.params == {"min": MIN_LENGTH, "max": MAX_LENGTH}


# --- bad input never escapes as another exception -----------------------------------------

EMAIL_LIKE = st.builds(
    lambda local, domain: f"{local}@{domain}",
    st.text(min_size=0, max_size=70),
    st.one_of(st.text(max_size=70), st.sampled_from(["example.com", "BÜCHER.de", "xn--a.com"])),
)


@given(st.one_of(st.text(), EMAIL_LIKE))
def test_clean_email_refuses_bad_input_with_its_message_only(raw: str) -> None:
    try:
        clean = clean_email(raw)
    except AccountError as error:
        assert error.message == INVALID_EMAIL
    else:
        assert clean == clean.lower() == clean.strip()
        assert clean.count("@") == 1 and len(clean) <= 254
        assert clean_email(clean) == clean  # stored addresses pass again unchanged


DATE_LIKE = st.one_of(
    st.text(),
    st.dates().map(date.isoformat),
    st.builds(lambda d, pad: f"{pad}{d.isoformat()}{pad}", st.dates(), st.text(" \t", max_size=2)),
)


@given(DATE_LIKE, st.integers(min_value=0, max_value=130))
def test_clean_date_of_birth_refuses_bad_input_with_its_messages_only(raw: str, min_age) -> None:
    try:
        born = clean_date_of_birth(raw, min_age, TODAY)
    except AccountError as error:
        assert error.message in {DATE_OF_BIRTH_REQUIRED, INVALID_DATE_OF_BIRTH}
    else:
        assert born <= TODAY
        assert date(TODAY.year - 121, TODAY.month, TODAY.day) < born
        assert born <= date(TODAY.year - min_age, TODAY.month, TODAY.day)


@given(st.text(max_size=200))
def test_check_new_password_refuses_bad_input_with_its_messages_only(password: str) -> None:
    try:
        assert check_new_password(password) == password
    except AccountError as error:
        assert error.message in {
            PASSWORD_TOO_SHORT,
            PASSWORD_TOO_LONG,
            PASSWORD_TOO_COMMON,
            GENERIC_ERROR,
        }


ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=60)  # surrogates too


@given(st.one_of(st.text(max_size=60), ANY_TEXT), st.one_of(st.just(""), EMAIL_LIKE))
def test_clean_profile_name_refuses_bad_input_with_its_messages_only(raw: str, email) -> None:
    try:
        name = clean_profile_name(raw, email)
    except AccountError as error:
        assert error.message in {
            PROFILE_NAME_IS_EMAIL,
            PROFILE_NAME_STARTS_WITH_AT,
            PROFILE_NAME_LENGTH,
        }
    else:
        assert NAME_MIN <= len(name) <= NAME_MAX
        assert not name.startswith("@") and name == name.strip()
        assert storable(name) == name
        name.encode()  # storable as UTF-8
