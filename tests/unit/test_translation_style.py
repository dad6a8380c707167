"""The register and glossary of docs/translation-style.md hold in every catalogue.

One form of address per language, one word per concept, the Dutch company register named as each
country would name it, and member names never put where the language would have to inflect them.
"""

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po

from tests.e2e.page_texts import english_text_in
from translations import errors
from translations.catalog import po_path

# The spec quotes this Dutch text verbatim, formal "uw" included; the rest of nl says "je".
SPEC_FORMAL_DUTCH = frozenset({errors.DATE_OF_BIRTH_REQUIRED})

# Words that would break the chosen form of address (informal everywhere but French).
FORMAL_OR_INFORMAL = {
    "nl": re.compile(r"\b[Uu]w?\b"),
    "fr": re.compile(
        r"\b(tu|ton|ta|tes|toi|te|t’)(?!\w)|-toi\b"
        r"|(?:^|[.!?:] )(Choisis|Écris|Passe|Envoie|Ajoute|Découvre|Réessaie|Vérifie|Saisis"
        r"|Indique|Dis|Fais|Regarde|Trouve|Clique|Profite|Achète|Complète|Confirme|Supprime)\b",
        re.IGNORECASE,
    ),
    # Mid-sentence capitals are the formal pronouns; "sie" (they) stays lower case.
    "de": re.compile(r"(?<=[\w,–] )(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b"),
    "it": re.compile(r"(?<=[\w,] )(Lei|Suo|Sua|Suoi|Sue)\b"),
    "es": re.compile(r"\b(usted|ustedes)\b", re.IGNORECASE),
    "pl": re.compile(r"\b(Pan|Pani|Państwo|Pana|Panu|Panią)\b"),
    "da": re.compile(r"(?<=[\w,] )(De|Dem|Deres)\b"),
    "nb": re.compile(r"(?<=[\w,] )(De|Dem|Deres)\b"),
    "sv": re.compile(r"(?<=[\w,] )(Ni|Er|Era|Ert)\b"),
    "fi": re.compile(r"\b(te|teidän|teille|teitä|teistä|teihin|teillä)\b", re.IGNORECASE),
}

# Words the glossary replaced by its one word for the concept.
REPLACED_WORDS = {
    "nl": re.compile(r"\b(gesprek(ken)?|cadeautjes?|bundel)\b|Premium-leden", re.IGNORECASE),
    "de": re.compile(r"Unterhaltung|\bmag\b|\bmögen\b|\bmelde dich an\b", re.IGNORECASE),
    "it": re.compile(
        r"\b(membri|membro|conversazion[ei]|e-mail|iscriviti|iscrizion[ei])\b|\bmi piace\b",
        re.IGNORECASE,
    ),
    "fr": re.compile(r"\b(discussions?|nom de profil)\b|s’intéresse", re.IGNORECASE),
    "es": re.compile(r"\b(conversación|conversaciones|me gusta|te gusta)\b", re.IGNORECASE),
    "pl": re.compile(r"członk|\brozmow|Izba|Znaleziono[^.]*os[oó]b", re.IGNORECASE),
    "da": re.compile(r"\bcredits\b|\bsamtaler?\b|\bkan lide dig\b|Premium-medlem", re.IGNORECASE),
    "nb": re.compile(
        r"\bcredits\b|\bsamtaler?\b|direktedebitering|\bet lik\b|Premium-medlem", re.IGNORECASE
    ),
    "sv": re.compile(
        r"\bcredits\b|\blikes?\b|\bkonversation(er)?\b|\bsajt|\bpresent(er)?\b|\ben gilla\b"
        r"|Premium-medlem",
        re.IGNORECASE,
    ),
    "fi": re.compile(r"käyttäj|\bkauppakamari|\bchat(ti|in|tia)\b|\bei tilausta", re.IGNORECASE),
}

# Moderation: a member's report, a DSA Art. 16 notice and an Art. 20 complaint against a
# decision each have one word (docs/translation-style.md); these were the other words for them.
MODERATION_REPLACED = {
    "nl": re.compile(r"\bklacht\b|\bmeldingen en klachten\b", re.IGNORECASE),
    "de": re.compile(r"\bWiderspr(uch|üche)\b|\bEinspr(uch|üche)\b"),
    "it": re.compile(r"\bricors[oi]\b", re.IGNORECASE),
    "fr": re.compile(r"\b(un|le|ce|du|sur le) recours\b", re.IGNORECASE),
    "es": re.compile(r"\bapelaci[oó]n\b|\b(el|un|del) recurso\b", re.IGNORECASE),
    "pl": re.compile(r"\bpowiadomieni[ae] według\b|\bzgłoszeni\w* nielegalnych\b", re.IGNORECASE),
    "da": re.compile(r"\banmeld(else)? (af )?ulovligt\b", re.IGNORECASE),
    "fi": re.compile(r"muutoksenha", re.IGNORECASE),
    "sv": re.compile(r"\bklagomål\b|\bmeddelanden per kategori\b", re.IGNORECASE),
}
COMPLAINTS_PAGE_TITLE = frozenset({"Complaints"})  # the page's old name, not a concept's

REGISTER_NAMES = {
    "nl": "Kamer van Koophandel (KvK)",
    "de": "Niederländisches Handelsregister (KvK)",
    "it": "Registro delle imprese dei Paesi Bassi (KvK)",
    "fr": "Registre du commerce néerlandais (KvK)",
    "es": "Registro Mercantil neerlandés (KvK)",
    "pl": "Holenderski rejestr handlowy (KvK)",
    "da": "Det nederlandske handelsregister (KvK)",
    "fi": "Alankomaiden kaupparekisteri (KvK)",
    "nb": "Det nederlandske foretaksregisteret (KvK)",
    "sv": "Nederländska handelsregistret (KvK)",
}

# Polish: a name after a preposition or a verb that governs another case would need inflecting.
POLISH_INFLECTED_NAME = re.compile(
    r"\b(z|ze|dla|do|od|o|przez|u|Zablokuj|Zablokować|Zablokowano|polubić)\s+\{name\}"
)
# Finnish: a case ending glued to the name ({name}:lle, {name}n) would be wrong for most names.
FINNISH_GLUED_ENDING = re.compile(r"\{name\}:?\w")
POLISH_MID_SENTENCE_CAPITAL = re.compile(
    r"(?<=[\w,:;–)] )"
    r"(Ci|Cię|Ciebie|Tobie|Tobą|Twój|Twoja|Twoje|Twojego|Twojej|Twoim|Twoją|Twoich)\b"
)


PLACEHOLDER = re.compile(r"\{(?!name\})\w+\}")


@cache
def _texts(locale: str) -> tuple[tuple[str, str], ...]:
    """(msgid, translation) for every translated form of every entry, plural forms included."""
    with po_path(locale).open("rb") as handle:
        catalogue = read_po(handle, locale=locale)
    pairs = []
    for message in catalogue:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        pairs += [(str(msgid), str(text)) for text in strings if text]
    return tuple(pairs)


def _offending(
    locale: str, pattern: re.Pattern[str], allowed: frozenset[str] = frozenset()
) -> list:
    """Translations that match `pattern` outside their placeholders (except {name} itself)."""
    return [
        text
        for msgid, text in _texts(locale)
        if msgid not in allowed and pattern.search(PLACEHOLDER.sub("", text))
    ]


@pytest.mark.parametrize("locale", sorted(FORMAL_OR_INFORMAL))
def test_one_form_of_address_per_language(locale: str) -> None:
    allowed = SPEC_FORMAL_DUTCH if locale == "nl" else frozenset()
    assert _offending(locale, FORMAL_OR_INFORMAL[locale], allowed) == []


def test_the_spec_keeps_its_formal_dutch_text() -> None:
    texts = dict(_texts("nl"))
    assert texts[errors.DATE_OF_BIRTH_REQUIRED] == "Vul uw geboortedatum in ({min_age}+ jaar)"


@pytest.mark.parametrize("locale", sorted(REPLACED_WORDS))
def test_one_word_per_concept(locale: str) -> None:
    assert _offending(locale, REPLACED_WORDS[locale]) == []


@pytest.mark.parametrize("locale", sorted(MODERATION_REPLACED))
def test_report_notice_and_complaint_have_one_word_each(locale: str) -> None:
    assert _offending(locale, MODERATION_REPLACED[locale], COMPLAINTS_PAGE_TITLE) == []


@pytest.mark.parametrize("locale", sorted(REGISTER_NAMES))
def test_the_dutch_company_register_is_named_as_the_country_calls_it(locale: str) -> None:
    assert dict(_texts(locale))["Chamber of Commerce"] == REGISTER_NAMES[locale]


def test_polish_never_needs_to_inflect_a_member_name() -> None:
    assert _offending("pl", POLISH_INFLECTED_NAME) == []


def test_polish_writes_you_and_your_in_lower_case_mid_sentence() -> None:
    assert _offending("pl", POLISH_MID_SENTENCE_CAPITAL) == []


def test_french_punctuation_keeps_its_no_break_space() -> None:
    assert _offending("fr", re.compile(r" [?!:;%»]|« ")) == []


def test_finnish_never_glues_a_case_ending_to_a_member_name() -> None:
    assert _offending("fi", FINNISH_GLUED_ENDING) == []


@pytest.mark.parametrize("locale", sorted(REGISTER_NAMES))
def test_no_translation_reads_as_english_interface_text(locale: str) -> None:
    """The page check for English left on a translated page, run on every text: Dutch "Log in"
    is correct Dutch, but reads as the English button beside "Inloggen"."""
    assert [text for _, text in _texts(locale) if english_text_in(text, locale)] == []


def test_german_capitalises_a_full_sentence_after_a_colon() -> None:
    """Duden: after a colon a complete sentence starts with a capital ("…Profile: Sie sind…")."""
    assert _offending("de", re.compile(r": (sie|er|es|wir|du|ihr|man)\b")) == []


@pytest.mark.parametrize("locale", sorted(REGISTER_NAMES))
def test_the_withdraw_dialogs_buttons_do_not_read_alike(locale: str) -> None:
    """Closing the withdraw dialog and withdrawing must not look like one word (fi "Peruuta" and
    "Peru ostos" did): the dialog's closing button has its own text."""
    with po_path(locale).open("rb") as handle:
        catalogue = read_po(handle, locale=locale)
    close = catalogue.get("Go back", context="withdraw dialog").string
    withdraw = catalogue.get("Withdraw").string
    assert close and withdraw and close[:4].lower() != withdraw[:4].lower()
