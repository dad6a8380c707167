"""One name per language for direct debit: the method's label on /credits, /transactions and in
receipts is the heading of /directdebit, and no text calls it by another name (the scheme's
legal title of the mandate aside)."""

import re

import pytest

from models.payment_methods import DIRECT_DEBIT, method_label
from models.routes import route_named
from translations.catalog import _entries, gettext
from translations.locales import LOCALES

MANDATE_TITLE = "SEPA Direct Debit Mandate"  # the scheme's title of the document
NAMES = {  # what the site calls the method (docs/translation-style.md)
    "en": "Direct debit",
    "nl": "Automatische incasso",
    "de": "Lastschrift",
    "it": "Addebito SEPA",
    "fr": "Prélèvement SEPA",
    "es": "Domiciliación bancaria",
    "pl": "Polecenie zapłaty",
    "da": "Direkte debitering",
    "fi": "Suoraveloitus",
    "nb": "Direktebelastning",
    "sv": "Autogiro",
}
OTHER_NAMES = {  # other names for the same method, found before in these catalogues
    "nl": r"SEPA-incasso|^Incasso is",
    "de": r"SEPA-Lastschrift\b",
    "it": r"addebito diretto",
    "es": r"adeudo directo",
    "da": r"SEPA-direkte",
    "fi": r"SEPA-suoraveloitus(?!valtuutus)|SEPA-suoraveloitukse",
    "nb": r"SEPA-direktebelastning",
    "sv": r"SEPA-autogiro",
}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_method_has_one_name_in_each_language(locale: str) -> None:
    heading = route_named("directdebit").title
    assert method_label(DIRECT_DEBIT, locale) == gettext(locale, heading) == NAMES[locale]


@pytest.mark.parametrize("locale", sorted(OTHER_NAMES))
def test_no_text_calls_it_otherwise(locale: str) -> None:
    other = re.compile(OTHER_NAMES[locale], re.IGNORECASE)
    found = [
        text
        for (_context, msgid), forms in _entries(locale).items()
        if msgid != MANDATE_TITLE
        for text in forms
        if other.search(text)
    ]
    assert found == []
