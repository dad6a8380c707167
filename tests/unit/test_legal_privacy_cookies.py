"""The privacy statement, the US privacy notice and the cookie policy (models/legal/privacy.py,
privacy_us.py, cookies.py): written out in the 11 languages with every fact filled in, as long as
a real page, saying what the code does (retention periods, recipients, rights), and the cookie
table naming every cookie and storage key the code declares."""

import importlib
import pkgutil
import re
import string
from datetime import timedelta
from pathlib import Path

import pytest
import reflex as rx
from reflex.istate.storage import ClientStorageBase

import state
from actions.viewer import DEVICE_COOKIE, SESSION_COOKIE
from models.auth_session import SESSION_LIFETIME
from models.data_export import LINK_LIFETIME
from models.deletion import GRACE_PERIOD
from models.direct_debit import KEPT_FOR, RECORDS_KEPT_FOR
from models.evidence import KEPT_AFTER_DECISION
from models.lander_variants import COOKIE_MAX_AGE as VARIANT_COOKIE_MAX_AGE
from models.lander_variants import VARIANT_COOKIE
from models.legal.cookies import COOKIES, STORED_ITEMS, Storage, listed
from models.legal.document import LegalDocument, document_texts
from models.legal.facts import FACT_NAMES, legal_facts
from models.legal.privacy import PRIVACY
from models.legal.privacy_us import PRIVACY_US
from models.legal.registry import LEGAL_DOCUMENTS
from models.login_history import KEPT_FOR as LOGINS_KEPT_FOR
from models.payment_retention import RETENTION_YEARS
from models.setting_postbacks import MACROS
from models.site_settings import SiteSettings
from models.tickets import KEPT_AFTER_CLOSING
from models.traffic import CLICK_LIFETIME, KEPT_UNCLAIMED
from services import device_cookie
from services.click_cookie import CLICK_COOKIE
from tests.data_rights import documented
from translations.catalog import Counted, gettext, in_catalogues, po_path
from translations.locales import DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALES

ROOT = Path(__file__).resolve().parents[2]
KEPT = "Kept after erasure"
TRANSLATED = (PRIVACY, COOKIES)
OTHER_LOCALES = [locale for locale in LOCALES if locale != DEFAULT_LOCALE]
# A real page's length (sections, words): a privacy statement under GDPR Art. 13, a cookie
# policy with its table, a CCPA notice. Finnish and Polish need fewer, longer words than English.
MIN_SECTIONS = {"privacy": 12, "cookies": 4, "privacy-us": 9}
MIN_WORDS = {"privacy": 1500, "cookies": 500, "privacy-us": 900}
MIN_WORDS_SHARE_TRANSLATED = 0.7
# Where the code sets browser storage that no state declares.
STORAGE_SOURCES = (
    ROOT / "assets/shell.js",
    Path(rx.__file__).resolve().parents[1] / "reflex_base/.templates/web/utils/state.js",
    Path(rx.__file__).resolve().parents[1] / "reflex_base/.templates/web/utils/react-theme.js",
)
FOOTER_US_LINK = "US privacy notice"  # components/footer.us_footer: ?region=us
FOOTER_OPT_OUT_LINK = "Do not sell or share my personal information"  # ?region=us#opt-out
REACT_ROUTER_SCROLL_KEY = "react-router-scroll-positions"  # React Router's ScrollRestoration


def _placeholders(text: str | Counted) -> set[str]:
    sources = (text.singular, text.plural) if isinstance(text, Counted) else (text,)
    return {name for s in sources for _, name, _, _ in string.Formatter().parse(s) if name}


def _filled(document: LegalDocument, locale: str) -> list[str]:
    facts = legal_facts(SiteSettings(), locale)
    return [gettext(locale, text, **facts) for text in document_texts(document)]


def _english(document: LegalDocument) -> str:
    facts = legal_facts(SiteSettings(), DEFAULT_LOCALE)
    return " ".join(text.format(**facts) for text in document_texts(document))


def _words(texts: list[str]) -> int:
    return sum(len(text.split()) for text in texts)


def _po_strings(locale: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    with po_path(locale).open("rb") as handle:
        return {m.id: m.string for m in read_po(handle, locale=locale) if isinstance(m.id, str)}


def test_the_pages_draw_privacy_and_cookies_from_the_registry() -> None:
    assert LEGAL_DOCUMENTS["privacy"] is PRIVACY
    assert LEGAL_DOCUMENTS["cookies"] is COOKIES


@pytest.mark.parametrize("document", [PRIVACY, COOKIES, PRIVACY_US], ids=lambda d: d.title)
def test_placeholders_are_facts_of_the_settings(document: LegalDocument) -> None:
    named = set().union(*(_placeholders(text) for text in document_texts(document)))
    assert named and named <= FACT_NAMES


@pytest.mark.parametrize("document", [PRIVACY, COOKIES, PRIVACY_US], ids=lambda d: d.title)
def test_section_ids_are_unique_anchors(document: LegalDocument) -> None:
    ids = [section.id for section in document.sections]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", anchor) for anchor in ids)


@pytest.mark.parametrize("locale", OTHER_LOCALES)
@pytest.mark.parametrize("document", TRANSLATED, ids=lambda d: d.slug)
def test_every_text_is_translated(document: LegalDocument, locale: str) -> None:
    strings = _po_strings(locale)
    texts = {text for text in document_texts(document) if isinstance(text, str)}
    assert [text for text in texts if not strings.get(text)] == []
    # A sentence left in English would read the same: longer texts always change.
    same = [text for text in texts if len(text.split()) >= 4 and strings[text] == text]
    assert same == []


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("document", TRANSLATED, ids=lambda d: d.slug)
def test_every_fact_is_filled_and_the_page_is_long_enough(
    document: LegalDocument, locale: str
) -> None:
    texts = _filled(document, locale)
    assert [text for text in texts if re.search(r"\{\w+\}", text)] == []
    assert len(document.sections) >= MIN_SECTIONS[document.slug]
    share = 1 if locale == DEFAULT_LOCALE else MIN_WORDS_SHARE_TRANSLATED
    assert _words(texts) >= MIN_WORDS[document.slug] * share
    settings = SiteSettings()
    body = " ".join(texts)
    assert settings.support_email in body and settings.name in body
    if document is PRIVACY:
        assert settings.company_kvk in body and settings.company_name in body


def test_privacy_names_controller_recipients_transfers_and_the_authority() -> None:
    text = _english(PRIVACY)
    for named in (
        "controller",
        "Mollie",
        "Twilio",
        "e-mail provider",
        "push service",
        "United States",
        "standard contractual clauses",
        "Autoriteit Persoonsgegevens",
        "Art. 9",
        "Art. 22",
        "The partner whose link brought you to us is told, from our server to its server",
    ):
        assert named in text, named
    headings = [section.heading for section in PRIVACY.sections]
    assert "Purposes and legal bases" in headings and "How long we keep your data" in headings


def test_privacy_gives_each_right_with_how_to_use_it() -> None:
    rights = next(s for s in PRIVACY.sections if s.id == "your-rights")
    items = " ".join(document_texts(LegalDocument("x", "x", (rights,))))
    for right, how in (
        ("Access and data portability", "Download my data"),
        ("Correction", "profile page"),
        ("Erasure", "account settings"),
        ("Objection", "unsubscribe"),
        ("Restriction", "{support_email}"),
        ("Withdrawing consent", "Notifications page"),
    ):
        assert right in items and how in items, right


def test_retention_periods_are_what_the_code_keeps() -> None:
    """The spec's and the issue's periods, and the code holding them."""
    text = _english(PRIVACY)
    assert timedelta(days=14) == GRACE_PERIOD and "erased 14 days later" in text
    assert timedelta(days=30) == SESSION_LIFETIME and "30 days, or until you log out" in text
    assert timedelta(days=365) == LOGINS_KEPT_FOR and "12 months" in text
    assert timedelta(days=400) == RECORDS_KEPT_FOR and "400 days after signing" in text
    assert timedelta(days=1) == KEPT_FOR and "SMS codes after one day" in text
    assert "Once your account has been erased and 400 days" in text  # only erased: purge_stale
    assert RETENTION_YEARS == 7 and "7 years after the end of the year of purchase" in text
    assert timedelta(days=365) == KEPT_AFTER_CLOSING
    assert "A closed ticket is erased 12 months after" in text
    assert "sent from its e-mail address without logging in" in text  # erase_tickets_of
    assert timedelta(hours=48) == LINK_LIFETIME and "download link for 48 hours" in text
    assert timedelta(days=30) == CLICK_LIFETIME and "remembers that visit for 30 days" in text
    assert timedelta(days=396) == KEPT_UNCLAIMED  # the issue: 13 months
    assert "led to no account is deleted after 13 months" in text  # purge_unclaimed_clicks
    assert timedelta(days=183) == KEPT_AFTER_DECISION  # DSA Art. 20: six months to appeal
    assert "for six months after the decision" in text and "also when its owner" in text


def test_landing_pages_showing_members_and_their_activity_are_named() -> None:
    """The landers show nearby members to visitors; alonetonight and socialnetwork say how
    recently they were active (actions/lander_reads.py), privacy mode keeps a member off."""
    text = _english(PRIVACY)
    assert "Visitors of our landing pages" in text
    assert "active on Amorly in the last 24 hours or 7 days, never when each" in text
    assert "when a member joined or added a photo" in text
    assert "With privacy mode on, your profile does not appear there" in text


def test_what_erasure_keeps_is_in_the_retention_table() -> None:
    """docs/data-rights.md's "Kept after erasure" tables that hold a member's own data."""
    text = _english(PRIVACY)
    assert {"consent", "signupsource", "auditentry", "sddmandate"} <= documented(KEPT)
    for row in ("Your acceptance of the terms", "Origin (partner", "Staff audit log"):
        assert row in text
    assert "The message you wrote when signing up is erased" in text
    assert "trafficclick" in documented(KEPT)
    # models/traffic.forget_click_details empties address_hash and user_agent
    assert "IP address and your browser's identification are then removed" in text


def test_the_partner_hears_of_conversions_only_by_its_own_codes() -> None:
    """A postback's template can name the click and the conversion, nothing of the member."""
    assert set(MACROS) == {"clickid", "sub1", "sub2", "sub3", "ref", "event", "amount",
                           "currency", "tid"}  # fmt: skip
    text = _english(PRIVACY)
    assert "names you only by the partner's own click id and the reference codes" in text
    assert "never by your name, e-mail address or profile" in text


def test_automated_processing_names_the_three_screens() -> None:
    section = next(s for s in PRIVACY.sections if s.id == "automated-decisions")
    text = " ".join(document_texts(LegalDocument("x", "x", (section,))))
    for screen in ("matchfinder scores", "Message filters", "photo classifier"):
        assert screen in text


def test_the_us_notice_is_english_only_with_the_ccpa_parts() -> None:
    texts = [text for text in document_texts(PRIVACY_US) if isinstance(text, str)]
    shared = [text for text in texts if in_catalogues(None, text)]
    assert shared == [FOOTER_US_LINK, FOOTER_OPT_OUT_LINK]  # the English footer's own links
    ids = {section.id for section in PRIVACY_US.sections}
    assert {"notice-at-collection", "categories", "opt-out", "your-rights"} <= ids
    text = _english(PRIVACY_US)
    for named in (
        "do not sell",
        "cross-context behavioral advertising",
        "Right to know",
        "Right to delete",
        "Right to correct",
        "Right to non-discrimination",
        "Sensitive personal information",
        "45 days",
        "From the partner whose link brought you",
        "by its own click id and codes only",  # the postbacks, as in the EU statement
        "visitors of our landing pages",
    ):
        assert named in text, named
    assert len(PRIVACY_US.sections) >= MIN_SECTIONS["privacy-us"]
    assert len(text.split()) >= MIN_WORDS["privacy-us"]


# ----- the cookie table -----


def _declared_client_storage() -> set[tuple[Storage, str]]:
    """Every rx.Cookie, rx.LocalStorage and rx.SessionStorage a state declares."""
    for module in pkgutil.iter_modules(state.__path__):
        importlib.import_module(f"state.{module.name}")
    kinds = {
        rx.Cookie: Storage.COOKIE,
        rx.LocalStorage: Storage.LOCAL,
        rx.SessionStorage: Storage.SESSION,
    }
    found, pending = set(), [rx.State]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        for field in cls.get_fields().values():
            if isinstance(field.default, ClientStorageBase):
                found.add((kinds[type(field.default)], field.default.name))
    return found


def test_every_storage_a_state_declares_is_in_the_table() -> None:
    declared = _declared_client_storage()
    assert len(declared) >= 10
    assert sorted(key for key in declared if not listed(*key)) == []


def test_the_table_names_the_cookies_of_the_code_with_their_lifetimes() -> None:
    rows = {item.name: item for item in STORED_ITEMS if item.storage == Storage.COOKIE}
    assert set(rows) == {SESSION_COOKIE, DEVICE_COOKIE, LOCALE_COOKIE, CLICK_COOKIE, VARIANT_COOKIE}
    assert timedelta(days=30) == CLICK_LIFETIME  # the issue: the click's cookie, 30 days
    assert rows[CLICK_COOKIE].lifetime == "30 days"
    assert VARIANT_COOKIE_MAX_AGE == 90 * 24 * 3600
    assert rows[VARIANT_COOKIE].lifetime == "90 days"
    assert timedelta(days=30) == SESSION_LIFETIME  # the spec: auth cookie 30 days
    assert rows[SESSION_COOKIE].lifetime.startswith("30 days")
    assert LOCALE_COOKIE_MAX_AGE == 365 * 24 * 3600  # the spec: locale cookie 365 days
    assert timedelta(days=365) == device_cookie.LIFETIME
    assert rows[LOCALE_COOKIE].lifetime == rows[DEVICE_COOKIE].lifetime == "365 days"


def test_every_row_is_set_somewhere_in_the_code() -> None:
    """No stale rows: each name is declared by a state or written by the page's scripts."""
    declared = {name for _, name in _declared_client_storage()}
    scripts = " ".join(path.read_text() for path in STORAGE_SOURCES)
    constants = {SESSION_COOKIE, DEVICE_COOKIE, LOCALE_COOKIE, CLICK_COOKIE, VARIANT_COOKIE,
                 REACT_ROUTER_SCROLL_KEY}  # fmt: skip
    stale = [
        item.name
        for item in STORED_ITEMS
        if item.name not in declared | constants and f'"{item.name}"' not in scripts
    ]
    assert stale == []
    names = [(item.storage, item.name) for item in STORED_ITEMS]
    assert len(set(names)) == len(names)


def test_per_page_keys_match_by_their_prefix() -> None:
    assert listed(Storage.SESSION, "chat-draft:/members/12/chat")
    assert not listed(Storage.LOCAL, "chat-draft:/members/12/chat")
    assert not listed(Storage.SESSION, "token2")
