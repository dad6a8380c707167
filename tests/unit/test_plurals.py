"""Counted texts take the plural form their locale's CLDR rule asks for, on the server and in
the browser; gendered and contexted labels pick their form; the region field is named per
country; every text the pages hand to the browser is in the catalogues."""

import json
import re

import pytest
from babel import Locale
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from components import i18n
from components.i18n import plural_index_js, tn
from models.attribute_labels import (
    GENDERED_FIELDS,
    REGION_LABELS,
    VALUE_LABELS,
    every_label,
    label_key,
    region_label_key,
    value_label,
)
from models.attributes import GENDERS
from models.legal.privacy import REQUIRED_DATA
from models.site_settings import TARGET_COUNTRIES
from tests.node import run_node
from translations import errors
from translations.catalog import (
    GENDER_CONTEXTS,
    browser_catalogue,
    browser_key,
    gettext,
    npgettext,
    pgettext,
    plural_index,
    po_path,
)
from translations.extract import extracted_entries
from translations.locales import LOCALES

COUNTS = (0, 1, 2, 5, 22, 101)
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A plain text that puts a number before a noun with a plural is a counted text in disguise.
COUNTED_NOUN = re.compile(  # a member's name before "likes" is a verb's subject, not a count
    r"\{(?!name\}|sender\})\w+\}\+? (credits|members|messages|chats|days|hours|minutes|photos"
    r"|characters|pixels|megapixels|years|likes)\b"
)
# The spec's Dutch is verbatim, and the age limit is never 1.
NOT_COUNTED = {errors.DATE_OF_BIRTH_REQUIRED, REQUIRED_DATA}


def cldr_form(locale: str, count: int) -> int:
    """Which gettext form a count needs, from the locale's CLDR rule (not the compiled
    expression): "one" is the first form; a language with three forms for whole numbers (pl)
    has "few" second and "many" third."""
    category = Locale.parse(locale).plural_form(count)
    if category == "one":
        return 0
    return 1 if get_plural(locale).num_plurals == 2 or category == "few" else 2


@pytest.fixture(scope="module")
def entries() -> dict:
    return extracted_entries()


@pytest.fixture(scope="module")
def counted(entries) -> list[tuple[str | None, tuple[str, str]]]:
    return [(context, msgid) for context, msgid in entries if isinstance(msgid, tuple)]


def catalogue(locale: str) -> dict:
    with po_path(locale).open("rb") as handle:
        read = read_po(handle, locale=locale)
    return {(m.context, m.id): m.string for m in read if m.id}


def test_the_languages_have_the_plural_forms_their_rules_need() -> None:
    assert {locale: get_plural(locale).num_plurals for locale in LOCALES} == {
        **dict.fromkeys(LOCALES, 2),
        "pl": 3,
    }
    assert [cldr_form("pl", n) for n in (1, 2, 4, 5, 12, 21, 22, 25, 101, 102)] == [
        0, 1, 1, 2, 2, 2, 1, 2, 2, 1,
    ]  # fmt: skip
    assert [cldr_form("fr", n) for n in (0, 1, 2)] == [0, 0, 1]


def test_the_app_has_counted_texts_and_no_count_outside_them(entries, counted) -> None:
    assert len(counted) >= 30
    disguised = [
        msgid
        for _context, msgid in entries
        if isinstance(msgid, str) and COUNTED_NOUN.search(msgid) and msgid not in NOT_COUNTED
    ]
    assert disguised == []


@pytest.mark.parametrize("locale", LOCALES)
def test_every_counted_text_has_all_its_forms_filled(locale: str, counted) -> None:
    texts = catalogue(locale)
    wanted = get_plural(locale).num_plurals
    for key in counted:
        forms = texts[key]
        assert len(forms) == wanted and all(forms), (locale, key)
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(key[1][1])), form


@pytest.mark.parametrize("locale", LOCALES)
def test_every_counted_text_renders_the_form_the_cldr_rule_asks_for(locale: str, counted) -> None:
    texts = catalogue(locale)
    for context, (singular, plural) in counted:
        for n in COUNTS:
            params = dict.fromkeys(PLACEHOLDER.findall(plural), n)
            expected = texts[(context, (singular, plural))][cldr_form(locale, n)]
            assert npgettext(locale, context, singular, plural, n, **params) == expected.format(
                **params
            ), (locale, singular, n)


def test_the_issue_examples_read_right() -> None:
    gift = ("A gift costs {count} credit", "A gift costs {count} credits")
    assert [npgettext("pl", None, *gift, n) for n in (1, 3, 5, 22)] == [
        "Prezent kosztuje 1 kredyt",
        "Prezent kosztuje 3 kredyty",
        "Prezent kosztuje 5 kredytów",
        "Prezent kosztuje 22 kredyty",
    ]
    found = ("{count} member found", "{count} members found")
    assert npgettext("en", None, *found, 1) == "1 member found"
    assert npgettext("fr", None, *found, 0) == "0 membre trouvé"
    assert npgettext("fi", None, *found, 5) == "Löytyi 5 jäsentä"


def test_a_counted_error_takes_its_form_from_the_parameter_it_names() -> None:
    from models.chat import FREE_CHATS_USED

    assert gettext("pl", FREE_CHATS_USED, count=5, name="Ola") == (
        "Użytkownicy bez Premium mogą rozpocząć 5 czatów. Przejdź na Premium i rozpocznij czat: "
        "Ola."
    )
    assert "2 chats" in gettext("en", FREE_CHATS_USED, count=2, name="Ola")


def test_the_browser_and_the_server_choose_the_same_form() -> None:
    counts = [*range(0, 230), 1000, 1001, 1002, 1005, 1012, 1022, 100001, 1000000]
    script = (
        f"const pick = {plural_index_js()};"
        f"console.log(JSON.stringify(Object.fromEntries({json.dumps(LOCALES)}.map("
        f"l => [l, {json.dumps(counts)}.map(n => pick(n, l))]))));"
    )
    browser = json.loads(run_node(script))
    server = {locale: [plural_index(locale, n) for n in counts] for locale in LOCALES}
    assert browser == server
    assert {locale: [cldr_form(locale, n) for n in COUNTS] for locale in LOCALES} == {
        locale: [plural_index(locale, n) for n in COUNTS] for locale in LOCALES
    }


def test_a_counted_browser_text_takes_its_forms_from_the_visitors_catalogue() -> None:
    code = str(tn("{count} credit", "{count} credits", 3))
    key = browser_key(None, "{count} credit")
    assert plural_index_js() in code and json.dumps(key) in code
    assert "kredyt" not in code  # Polish travels in the Polish catalogue only
    polish = ["{count} kredyt", "{count} kredyty", "{count} kredytów"]
    assert browser_catalogue("pl")[key] == polish


def test_labels_of_a_man_and_a_woman_take_their_gender() -> None:
    assert GENDER_CONTEXTS == GENDERS
    athletic = {g: pgettext("pl", *value_label("body_type", "athletic", g)) for g in GENDERS}
    assert athletic == {"male": "Wysportowany", "female": "Wysportowana"}
    assert pgettext("it", *value_label("body_type", "slim", "male")) == "Snello"
    assert pgettext("es", *value_label("body_type", "slim", "male")) == "Delgado"
    assert pgettext("pl", *value_label("relationship_status", "married", "female")) == "Zamężna"
    assert value_label("tattoos", "one", "male") == "One tattoo"  # not gendered


def test_hair_and_eye_colours_are_translated_apart() -> None:
    hair, eyes = VALUE_LABELS["hair_colour"]["brown"], VALUE_LABELS["eye_colour"]["brown"]
    assert (pgettext("it", *hair), pgettext("it", *eyes)) == ("Castani", "Marroni")
    assert (pgettext("pl", *VALUE_LABELS["hair_colour"]["grey"]),
            pgettext("pl", *VALUE_LABELS["eye_colour"]["grey"])) == ("Siwe", "Szare")  # fmt: skip


def test_every_label_a_profile_can_show_is_translated_by_its_key(entries) -> None:
    labels = every_label()
    for field in GENDERED_FIELDS:
        for value in VALUE_LABELS.get(field, {}) or ():
            for gender in GENDERS:
                assert label_key(value_label(field, value, gender)) in labels
    for label in labels.values():
        context, msgid = (None, label) if isinstance(label, str) else label
        assert (context, msgid) in entries


def test_the_region_field_is_named_the_way_each_country_names_its_regions() -> None:
    keys = {country: region_label_key(country) for country in TARGET_COUNTRIES}
    assert set(keys.values()) <= set(REGION_LABELS)
    assert (keys["DE"], keys["AT"], keys["US"], keys["CH"], keys["GB"]) == (
        "Land", "Land", "State", "Canton", "Nation",
    )  # fmt: skip
    german = {c: pgettext("de", *REGION_LABELS[keys[c]]) for c in ("DE", "AT", "US", "CH")}
    assert german == {"DE": "Bundesland", "AT": "Bundesland", "US": "Bundesstaat", "CH": "Kanton"}
    country = {pgettext(locale, None, "Country") for locale in LOCALES}
    labels = {pgettext(locale, *REGION_LABELS[keys["GB"]]) for locale in LOCALES}
    assert not labels & country  # the UK's nations are not labelled "Country"


def test_every_text_the_pages_hand_the_browser_is_in_the_catalogues(monkeypatch, entries) -> None:
    """A variable passed to t() (the "Details" heading was) escapes extraction and stays
    English: record what every screen asks the browser lookups for."""
    import reflex as rx
    from reflex.route import get_route_args

    from app.layouts import error_page, with_layout
    from app.pages.registry import declared_pages
    from app.pages.titled import titled_page
    from models.payment_methods import METHOD_LABELS
    from models.routes import ROUTES

    asked: set[tuple[str | None, object]] = set()
    browser_text = i18n.browser_text

    def recording(context: str | None, msgid: str, plural: str | None = None, fills=()):
        asked.add((context, msgid if plural is None else (msgid, plural)))
        return browser_text(context, msgid, plural, fills)

    monkeypatch.setattr(i18n, "browser_text", recording)
    pages = declared_pages()
    for route in ROUTES:
        rx.State.setup_dynamic_args(get_route_args(route.path))  # what add_page does first
        page = pages.get(route.name)
        with_layout(route, page.screen() if page and page.screen else titled_page(route))
    error_page()
    assert len(asked) > 300
    brands = {(None, label) for label in METHOD_LABELS.values()}  # the same in every language
    assert sorted(asked - set(entries) - brands, key=str) == []
