"""The money screens' words as a native speaker writes them (issue 28), and the glossary of
docs/translation-style.md enforced for payment method, withdrawal and collection."""

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from models.sdd_mandate_text import mandate_text
from translations.catalog import po_path
from translations.locales import LOCALES

STYLE_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "translation-style.md"

# A rejected word (a pattern) -> the word the glossary uses instead, per language.
REJECTED = {
    "en": {
        r"Return policy": "Right of withdrawal",
        r"bank has paid": "the direct debit has been collected",
        r"means of payment": "payment method",
        r"Some profiles on this site are": "This site also has {fictional}",
    },
    "nl": {
        r"Retourbeleid": "Herroepingsrecht",
        r"betaalmiddel": "betaalmethode",
        r"bank \w* ?(de incasso )?heeft betaald": "het bedrag is afgeschreven",
    },
    "de": {
        r"Rückerstattungsrichtlinie": "Widerrufsrecht",
        r"\bGeliked\b": "Gelikt",
        r"Zahlungsmittel": "Zahlungsart",
        r"Bank (die Lastschrift )?bezahlt": "sobald die Lastschrift eingelöst ist",
    },
    "it": {
        r"Politica di rimborso": "Diritto di recesso",
        r"banca ha pagato": "l’importo è stato addebitato",
    },
    "fr": {
        r"Politique de remboursement": "Droit de rétractation",
        r"banque a (réglé|payé)": "le prélèvement a été effectué",
        r"carte bancaire[^.]*FR76": "votre RIB",
    },
    "es": {
        r"Política de reembolso": "Derecho de desistimiento",
        r"medio de pago": "método de pago",
        r"banco haya pagado": "se haya realizado el cargo",
    },
    "pl": {
        r"Zasady zwrotów": "Prawo odstąpienia od umowy",
        r"środek płatności": "metoda płatności",
        r"bank zrealizuje": "kwota zostanie pobrana",
        r"Jest dopasowanie": "Macie dopasowanie!",
        r"Niektóre profile w tym serwisie to": "W tym serwisie są również {fictional}",
    },
    "da": {
        r"Returpolitik": "Fortrydelsesret",
        r"betalingsmiddel": "betalingsmetode",
        r"bank har betalt": "beløbet er trukket",
        r"Nogle profiler på dette site er": "Der er også {fictional}",
        r"[Rr]efu(sion|nder)": "tilbagebetaling, tilbagebetalt",
    },
    "fi": {
        r"Palautusehdot": "Peruuttamisoikeus",
        r"maksuväline": "maksutapa",
        r"on maksanut veloituksen|pankkisi on maksanut": "summa on veloitettu",
        r"\bPeru tilaus\b|peruutuslinkki": "Lopeta sähköpostit",
        r"\b[Ss]e on matchi": "Syntyi matchi!",
        r"[Pp]eruutu": "peruminen, peruuttamisaika",
        r"Palautamme": "hyvitämme",
    },
    "nb": {
        r"Returregler": "Angrerett",
        r"betalingsmiddel": "betalingsmåte",
        r"har betalt trekket|banken din har betalt": "beløpet er trukket",
        r"Noen profiler på dette nettstedet er": "Det finnes også {fictional}",
        r"[Rr]efu(sjon|nder)": "tilbakebetaling, tilbakebetalt",
    },
    "sv": {
        r"Returpolicy": "Ångerrätt",
        r"betalningsmedel": "betalsätt",
        r"bank har betalat": "beloppet har dragits",
        r"återkallelse": "ångra köpet",
        r"Vissa profiler på webbplatsen är": "Det finns också {fictional}",
    },
}

# Whole texts that must read so, where the bare word would mean something else.
EXPECTED = {
    # sv "Avbryt | Ångra", da "Annuller | Fortryd", nb "Avbryt | Angre" read as Undo.
    "Withdraw": {
        "sv": "Ångra köpet",
        "da": "Fortryd købet",
        "nb": "Angre kjøpet",
        "fi": "Peru ostos",
    },
    "Unsubscribe": {"fi": "Lopeta sähköpostit"},  # fi "tilaus" is the site's order
    "It's a match!": {"pl": "Macie dopasowanie!", "fi": "Syntyi matchi!"},
    "Liked": {"de": "Gelikt"},
}

# A purchase's status words in one grammatical form (pl: feminine, agreeing with "płatność").
POLISH_STATUSES = {
    "Paid": "Opłacona",
    "Failed": "Nieudana",
    "Cancelled": "Anulowana",
    "Expired": "Wygasła",
    "Refunded": "Zwrócona",
}
# Participles, not verbs ("Misslyckades" beside "Betald").
FAILED = {"sv": "Misslyckad", "da": "Mislykket", "nb": "Mislykket", "fi": "Epäonnistunut"}

GERMAN_MANDATE = (
    "Ich ermächtige Amorly B.V., Zahlungen von meinem Konto mittels Lastschrift einzuziehen. "
    "Zugleich weise ich mein Kreditinstitut an, die von Amorly B.V. auf mein Konto gezogenen "
    "Lastschriften einzulösen."
)
GERMAN_NOTE = (
    "Hinweis: Ich kann innerhalb von acht Wochen, beginnend mit dem Belastungsdatum, die "
    "Erstattung des belasteten Betrages verlangen. Es gelten dabei die mit meinem Kreditinstitut "
    "vereinbarten Bedingungen."
)


@cache
def _catalogue(locale: str) -> dict[str, tuple[str, ...]]:
    """msgid (the singular of a counted text) -> its translated forms."""
    with po_path(locale).open("rb") as handle:
        catalogue = read_po(handle, locale=locale)
    texts = {}
    for message in catalogue:
        if message.id and not message.context:
            msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
            strings = (
                message.string if isinstance(message.string, tuple | list) else (message.string,)
            )
            texts[str(msgid)] = tuple(str(text) for text in strings)
    return texts


def _glossary() -> dict[str, dict[str, str]]:
    """The glossary table of docs/translation-style.md: concept -> {locale: word}."""
    rows = [line.strip().strip("|").split("|") for line in STYLE_GUIDE.read_text().splitlines()]
    header = next(row for row in rows if row[0].strip() == "Concept")
    locales = [cell.strip() for cell in header[1:]]
    return {
        row[0].strip(): dict(zip(locales, (cell.strip() for cell in row[1:]), strict=True))
        for row in rows
        if len(row) == len(header) and row[0].strip() not in ("Concept", "---")
    }


@pytest.mark.parametrize(
    ("locale", "rejected", "instead"),
    [
        (locale, word, instead)
        for locale, words in REJECTED.items()
        for word, instead in words.items()
    ],
)
def test_a_rejected_word_is_not_used(locale: str, rejected: str, instead: str) -> None:
    pattern = re.compile(rejected)
    offending = [
        text for forms in _catalogue(locale).values() for text in forms if pattern.search(text)
    ]
    assert offending == [], f"{locale}: write {instead!r}"


@pytest.mark.parametrize(
    ("msgid", "locale"), [(msgid, locale) for msgid, texts in EXPECTED.items() for locale in texts]
)
def test_a_word_reads_as_meant(msgid: str, locale: str) -> None:
    assert _catalogue(locale)[msgid] == (EXPECTED[msgid][locale],)


def test_polish_status_words_agree_in_form() -> None:
    texts = _catalogue("pl")
    assert {msgid: texts[msgid][0] for msgid in POLISH_STATUSES} == POLISH_STATUSES


@pytest.mark.parametrize("locale", sorted(FAILED))
def test_a_failed_status_is_a_participle(locale: str) -> None:
    assert _catalogue(locale)["Failed"] == (FAILED[locale],)


@pytest.mark.parametrize("concept", ["right of withdrawal", "payment method", "direct debit"])
@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalogue_names_a_concept_as_the_glossary_does(concept: str, locale: str) -> None:
    word = _glossary()[concept][locale]
    msgid = concept[0].upper() + concept[1:]
    assert _catalogue(locale)[msgid][0].casefold() == word.casefold()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_account_number_never_runs_into_the_amount(locale: str) -> None:
    """fi "tililtäsi {iban} {amount}" printed "… 0007 85 19,95 €" as one number."""
    together = re.compile(r"\{iban\}\W*\{amount\}|\{amount\}\W*\{iban\}")
    offending = [
        text for forms in _catalogue(locale).values() for text in forms if together.search(text)
    ]
    assert offending == []


def test_the_german_mandate_is_the_banks_sepa_mandate() -> None:
    text = mandate_text("de", "Amorly B.V.")
    assert (text.authorisation, text.refund_right) == (GERMAN_MANDATE, GERMAN_NOTE)
