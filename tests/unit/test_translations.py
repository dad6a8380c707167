"""Every text the code marks is translated in all 11 catalogues, and Dutch matches the spec."""

import re

import pytest
from babel.messages.pofile import read_po

from translations import errors
from translations.catalog import gettext, po_path
from translations.extract import extracted_entries, extracted_msgids
from translations.locales import LOCALES

PLACEHOLDER = re.compile(r"\{(\w+)\}")

SPEC_DUTCH = {
    errors.PROFILE_NAME_IS_EMAIL: "Je profielnaam moet anders zijn dan je e-mailadres",
    errors.PROFILE_NAME_STARTS_WITH_AT: "Je profielnaam mag niet beginnen met een @",
    errors.INVALID_EMAIL: "Ongeldige e-mail",
    errors.DATE_OF_BIRTH_REQUIRED: "Vul uw geboortedatum in ({min_age}+ jaar)",
    errors.INVALID_DATE_OF_BIRTH: "Ongeldige geboortedatum.",
    errors.PASSWORDS_DIFFER: "De opgegeven wachtwoorden zijn niet gelijk.",
    errors.INVALID_SMS_CODE: "Code ongeldig",
    errors.LOGIN_FAILED: "Login mislukt, probeer opnieuw",
    errors.TOO_MANY_LOGIN_ATTEMPTS: (
        "Te veel foute pogingen, account voor {minutes} min geblokkeerd."
    ),
    errors.TOO_MANY_PASSWORD_RESETS: (
        "Te veel wachtwoordherstel mails verstuurd, probeer het morgen nog eens."
    ),
    errors.ACTIVATION_FAILED: "Activeren mislukt",
    errors.DUPLICATE_EMAIL: "Dit e-mailadres heeft al een account op deze site.",
    errors.CHECK_OLD_PASSWORD: "Controleer je oude wachtwoord.",
    errors.GENERIC_ERROR: "Er is een fout opgetreden, probeer het later opnieuw.",
    errors.INSUFFICIENT_CREDITS: "Je hebt onvoldoende credits",
    errors.PAYMENT_FAILED: "Betaling mislukt",
    errors.DISCOUNT_CODE_NOT_FOUND: "Code niet gevonden",
    errors.DISCOUNT_CODE_USED: "Code reeds gebruikt",
}


@pytest.fixture(scope="module")
def marked_texts() -> set[str]:
    return set(extracted_msgids())


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_is_complete_without_fuzzy_entries(locale: str) -> None:
    """Plain texts, texts in a context and every plural form of a counted text."""
    marked = set(extracted_entries())
    with po_path(locale).open("rb") as handle:
        catalogue = read_po(handle, locale=locale)
    entries = {(m.context, m.id): m for m in catalogue if m.id}
    assert marked <= set(entries), f"run `python -m translations.extract` ({locale})"
    strings = {key: entries[key].string for key in marked if not entries[key].fuzzy}
    gaps = [key for key in marked if not (strings.get(key) and all(strings[key]))]
    assert gaps == []


@pytest.mark.parametrize("locale", LOCALES)
def test_placeholders_survive_translation(locale: str, marked_texts) -> None:
    for msgid in marked_texts:
        assert set(PLACEHOLDER.findall(gettext(locale, msgid))) == set(PLACEHOLDER.findall(msgid))


def test_dutch_carries_the_spec_texts_verbatim() -> None:
    assert {msgid: gettext("nl", msgid) for msgid in SPEC_DUTCH} == SPEC_DUTCH


def test_error_texts_are_marked_for_translation(marked_texts) -> None:
    public = {v for k, v in vars(errors).items() if k.isupper() and isinstance(v, str)}
    assert public <= marked_texts


def test_gettext_fills_parameters() -> None:
    assert gettext("nl", errors.TOO_MANY_LOGIN_ATTEMPTS, minutes=5) == (
        "Te veel foute pogingen, account voor 5 min geblokkeerd."
    )
    assert gettext("en", "not a known text") == "not a known text"
