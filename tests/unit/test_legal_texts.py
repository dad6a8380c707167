"""The legal documents (terms, right of withdrawal, FAQ and the others in the registry): written
out in every language, every fact filled in from the settings, as long as a real page, linked
from the footer, and their texts in a catalogue part that only the legal pages load."""

import re
import string

import pytest

from app.catalogue_api import part_catalogue_url
from app.document_head import DocumentLocale, localized_html
from components.footer import _LEGAL_LINKS
from models.conduct_rules import CONDUCT_RULES
from models.legal.document import Bullets, LegalDocument, Paragraph, Table, document_texts
from models.legal.facts import FACT_NAMES, legal_facts
from models.legal.registry import LEGAL_DOCUMENTS
from models.legal.return_policy import RETURN_POLICY
from models.legal.terms import TERMS
from models.routes import STATIC_PAGES, static_page_title, static_page_url
from models.site_settings import SiteSettings
from services.config import PROJECT_ROOT
from translations.catalog import (
    CATALOGUE_PARTS,
    LEGAL,
    Counted,
    Message,
    _entries,
    browser_catalogue,
    browser_key,
    gettext,
)
from translations.locales import LOCALES

DOCUMENTS = sorted(LEGAL_DOCUMENTS)
# What a real operator's page of each kind holds at least (sections, English words): the terms
# of a Dutch dating site run to 12+ articles; the withdrawal page needs period, how, form,
# amount, refund; the FAQ answers the 15 questions at least.
MINIMUMS = {"terms": (12, 1500), "return-policy": (7, 600), "faq": (15, 700)}


def _forms(text: Message) -> tuple[str, ...]:
    return (text.singular, text.plural) if isinstance(text, Counted) else (text,)


def _names(text: Message) -> set[str]:
    return {n for form in _forms(text) for _, n, _, _ in string.Formatter().parse(form) if n}


def written(document: LegalDocument, locale: str, settings: SiteSettings) -> list[str]:
    """Every text of the document in `locale`, its facts filled in from `settings`."""
    facts = legal_facts(settings, locale)
    return [gettext(locale, text, **facts) for text in document_texts(document)]


def _words(texts: list[str]) -> int:
    return sum(len(text.split()) for text in texts)


@pytest.mark.parametrize("slug", DOCUMENTS)
def test_a_document_fills_its_static_page_with_unique_anchors(slug: str) -> None:
    document = LEGAL_DOCUMENTS[slug]
    assert slug in STATIC_PAGES and document.title == static_page_title(slug)
    ids = [section.id for section in document.sections]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", id_) for id_ in ids)
    assert all(section.blocks for section in document.sections)


@pytest.mark.parametrize("slug", DOCUMENTS)
def test_every_placeholder_is_a_fact(slug: str) -> None:
    for text in document_texts(LEGAL_DOCUMENTS[slug]):
        assert _names(text) <= FACT_NAMES, text


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("slug", DOCUMENTS)
def test_every_text_is_translated_and_filled(slug: str, locale: str) -> None:
    entries = _entries(locale)
    for text in document_texts(LEGAL_DOCUMENTS[slug]):
        assert (None, _forms(text)[0]) in entries, f"{locale}: {_forms(text)[0]!r}"
    for text in written(LEGAL_DOCUMENTS[slug], locale, SiteSettings()):
        assert "{" not in text and "}" not in text, text


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
@pytest.mark.parametrize("slug", DOCUMENTS)
def test_no_text_stays_in_english(slug: str, locale: str) -> None:
    """A word or two may be the same in both languages (FAQ, fr Questions); a sentence not."""
    entries = _entries(locale)
    for text in document_texts(LEGAL_DOCUMENTS[slug]):
        msgid = _forms(text)[0]
        translated = entries[(None, msgid)][0]
        assert translated != msgid or len(msgid.split()) <= 2, f"{locale}: {msgid!r}"


SETTINGS = SiteSettings(
    name="Zeta Dates",
    company_name="Zeta Media B.V.",
    company_address="Herengracht 1",
    company_city="1015 BA Amsterdam",
    company_kvk="11223344",
    company_vat_numbers=["NL001122334B01", "DE123456789"],
    company_tradenames=["Zeta Dates", "Zeta Chat"],
    support_email="help@zeta.example",
    support_phone="+31 20-765 43 21",
    refund_days=30,
    message_credits=7,
    gift_credits=35,
    company_added="2025-03-04",
)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_settings_facts_show_in_every_language(locale: str) -> None:
    terms = " ".join(written(TERMS, locale, SETTINGS))
    for value in (
        "Zeta Media B.V.",
        "Herengracht 1",
        "11223344",
        "NL001122334B01, DE123456789",
        "Zeta Dates, Zeta Chat",
        "help@zeta.example",
        "+31207654321",  # the phone as the footer writes it
        "30",
        "7",
        "35",
        SETTINGS.fictional_singular[locale],
    ):
        assert value in terms, f"{locale}: {value}"
    assert "Amorly" not in terms and "87654321" not in terms
    assert "2025" in terms  # the version date follows the company's start (spec rule)
    withdrawal = " ".join(written(RETURN_POLICY, locale, SETTINGS))
    assert "30" in withdrawal and "help@zeta.example" in withdrawal


def test_the_worked_example_is_the_sites_pro_rata_refund() -> None:
    """The default second bundle: 250 credits for €39.95; 12 messages of 5 credits used; 190
    unused: 39.95 x 190 / 250 = 30.362, rounded down to the cent (actions/refunds.py)."""
    example = written(RETURN_POLICY, "en", SiteSettings())
    assert "You buy a bundle of 250 credits for €39.95." in example
    assert "You withdraw: 190 credits are still unused." in example
    assert "Your refund is €39.95 × 190 ÷ 250 = €30.36." in example
    german = " ".join(written(RETURN_POLICY, "de", SiteSettings()))
    assert "39,95\u00a0€ × 190 ÷ 250 = 30,36\u00a0€" in german


def test_the_terms_number_the_conduct_rules_decisions_cite() -> None:
    (rules,) = [
        block
        for section in TERMS.sections
        for block in section.blocks
        if isinstance(block, Bullets) and block.numbered
    ]
    assert rules.items == tuple(rule.title for rule in CONDUCT_RULES)
    assert [rule.number for rule in CONDUCT_RULES] == list(range(1, len(CONDUCT_RULES) + 1))
    cited = " ".join(written(TERMS, "en", SiteSettings()))
    assert "(rules 1, 3 and 9)" in cited and len(CONDUCT_RULES) >= 9


@pytest.mark.parametrize("slug", sorted(MINIMUMS))
def test_a_document_is_as_long_as_a_real_page(slug: str) -> None:
    sections, words = MINIMUMS[slug]
    document = LEGAL_DOCUMENTS[slug]
    assert len(document.sections) >= sections
    english = _words(written(document, "en", SiteSettings()))
    assert english >= words
    # A translation that left paragraphs out would be far shorter: counted in characters, as
    # Finnish says in 7 words what English says in 10.
    characters = len(" ".join(written(document, "en", SiteSettings())))
    for locale in LOCALES:
        translated = len(" ".join(written(document, locale, SiteSettings())))
        assert translated >= 0.85 * characters, locale


def test_the_faq_answers_the_questions_members_ask() -> None:
    faq = LEGAL_DOCUMENTS["faq"]
    questions = [section.heading for section in faq.sections]
    assert all(isinstance(q, str) and q.endswith("?") for q in questions)
    topics = " ".join(questions).lower()
    for topic in ("credits", "premium", "money back", "direct debit", "photo", "block",
                  "report", "delete", "profiles real", "notifications"):  # fmt: skip
        assert topic in topics, topic


def test_the_footer_links_every_legal_page() -> None:
    linked = {href for _, href in _LEGAL_LINKS}
    assert {static_page_url(slug) for slug in LEGAL_DOCUMENTS} <= linked


def test_only_the_legal_pages_load_the_legal_texts() -> None:
    key = browser_key(None, TERMS.sections[0].heading)
    assert key in browser_catalogue("de", LEGAL) and key not in browser_catalogue("de")
    document = DocumentLocale("de", known=True, chosen=None)
    html = "<html><head></head><body></body></html>"
    legal_url = part_catalogue_url(LEGAL, "de", tuple(SiteSettings().countries))
    for path in ("/pages/terms", "/terms", "/pages/return-policy", "/faq"):
        assert legal_url in localized_html(html, path, document, SiteSettings()), path
    for path in ("/members", "/pages/service", "/staff/reports"):
        assert "/i18n/legal/" not in localized_html(html, path, document, SiteSettings())


def test_the_browser_knows_every_catalogue_part() -> None:
    shell = (PROJECT_ROOT / "assets" / "shell.js").read_text(encoding="utf-8")
    (listed,) = re.findall(r"\[([^\]]*)\]\.forEach\(function \(part\)", shell)
    assert {name.strip().strip('"') for name in listed.split(",")} == set(CATALOGUE_PARTS)


def test_every_block_kind_has_texts() -> None:
    kinds = {
        type(block)
        for document in LEGAL_DOCUMENTS.values()
        for section in document.sections
        for block in section.blocks
    }
    assert {Paragraph, Bullets} <= kinds <= {Paragraph, Bullets, Table}
