"""Region names as natives write them in each interface language, sorted the way each language
sorts (models/regions.py, models/data/region_names.tsv, translations/collation.py)."""

import random
import re

import pycountry
import pytest

from models.regions import (
    COUNTRY_CODES,
    _named,
    clean_name,
    region_name,
    regions_of,
    reviewed_names,
)
from models.site_settings import TARGET_COUNTRIES
from translations.collation import sort_key
from translations.locales import LOCALES

# What ISO's names carry and no native writes: bracketed alternatives and codes, inverted forms.
UNNATIVE = re.compile(
    r"[\[\];]|\b[A-Z]{2}-(?:[0-9]{1,3}|[A-Z]{2,3})\b|\([A-Z]{2,}"
    r"|, (?:Région|Region|Regione|Regio|Gewest|Comunidad|Communauté|Principado|Respublika)\b"
)


def names(country: str, locale: str) -> list[str]:
    return [name for _code, name in regions_of(country, locale)]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_region_of_every_country_has_a_clean_name(locale: str) -> None:
    for country in COUNTRY_CODES:
        for code, name in regions_of(country, locale):
            assert name and name == name.strip() and "  " not in name, (code, name)
            assert not UNNATIVE.search(name), (locale, code, name)


def test_the_reviewed_names_cover_every_region_of_the_target_countries_in_every_language() -> None:
    reviewed = reviewed_names()
    for country in TARGET_COUNTRIES:
        codes = {code for code, _name in regions_of(country)}
        assert codes and codes <= set(reviewed), country
    for code, by_locale in reviewed.items():
        assert pycountry.subdivisions.get(code=code) is not None, code
        assert set(by_locale) == set(LOCALES) and all(by_locale.values()), code


@pytest.mark.parametrize("locale", LOCALES)
def test_names_change_with_the_language_and_codes_do_not(locale: str) -> None:
    for country in TARGET_COUNTRIES:
        assert {c for c, _ in regions_of(country, locale)} == {c for c, _ in regions_of(country)}


@pytest.mark.parametrize(
    ("locale", "country", "code", "name"),
    [
        ("fr", "GB", "GB-ENG", "Angleterre"),
        ("fr", "GB", "GB-WLS", "Pays de Galles"),
        ("en", "GB", "GB-WLS", "Wales"),
        ("pl", "GB", "GB-SCT", "Szkocja"),
        ("de", "US", "US-CA", "Kalifornien"),
        ("fr", "US", "US-CA", "Californie"),
        ("fi", "US", "US-NC", "Pohjois-Carolina"),
        ("nl", "BE", "BE-BRU", "Brussel"),
        ("fr", "BE", "BE-WAL", "Wallonie"),
        ("en", "DE", "DE-BY", "Bavaria"),
        ("de", "DE", "DE-BY", "Bayern"),
        ("it", "DE", "DE-TH", "Turingia"),
        ("fr", "DE", "DE-TH", "Thuringe"),
        ("de", "CH", "CH-GE", "Genf"),
        ("it", "CH", "CH-GE", "Ginevra"),
        ("es", "ES", "ES-MC", "Región de Murcia"),
        ("fi", "FI", "FI-01", "Ahvenanmaa"),
        ("sv", "FI", "FI-18", "Nyland"),
        ("sv", "SE", "SE-AB", "Stockholms län"),
        ("pl", "PL", "PL-10", "łódzkie"),
        ("nl", "NL", "NL-FR", "Friesland"),
    ],
)
def test_regions_are_named_as_natives_name_them(locale, country, code, name) -> None:
    assert region_name(country, code, locale) == name


def test_polish_voivodeships_sort_as_polish_sorts() -> None:
    assert names("PL", "pl") == [
        "dolnośląskie", "kujawsko-pomorskie", "lubelskie", "lubuskie", "łódzkie",
        "małopolskie", "mazowieckie", "opolskie", "podkarpackie", "podlaskie", "pomorskie",
        "śląskie", "świętokrzyskie", "warmińsko-mazurskie", "wielkopolskie",
        "zachodniopomorskie",
    ]  # fmt: skip


def test_swedish_counties_sort_with_a_ring_and_umlauts_after_z() -> None:
    swedish = names("SE", "sv")
    assert swedish[-3:] == ["Västra Götalands län", "Örebro län", "Östergötlands län"]
    assert swedish.index("Gotlands län") < swedish.index("Gävleborgs län")
    assert swedish.index("Stockholms län") < swedish.index("Södermanlands län")


def test_other_languages_sort_accents_with_their_letter() -> None:
    assert names("AT", "de").index("Oberösterreich") < names("AT", "de").index("Salzburg")
    assert names("CH", "fr")[:3] == ["Appenzell Rhodes-Extérieures",
                                     "Appenzell Rhodes-Intérieures", "Argovie"]  # fmt: skip
    assert names("FR", "fr").index("Île-de-France") < names("FR", "fr").index("Normandie")


@pytest.mark.parametrize(
    ("locale", "ordered"),
    [
        ("pl", ["Lublin", "Łask", "Łódź", "Mazury", "Sopot", "Śrem", "Zabrze", "Źródła", "Żary"]),
        ("sv", ["Arboga", "Zinkgruvan", "Åre", "Æbeltoft", "Älmhult", "Örebro", "Østerby"]),
        ("fi", ["Aura", "Ylöjärvi", "Åbo", "Äänekoski", "Öja"]),
        ("da", ["Bornholm", "Zealand", "Ærø", "Øster", "Åbenrå", "Aarhus"]),
        ("nb", ["Bodø", "Zeta", "Ærfugl", "Ørsta", "Ålesund", "Aasgard"]),
        ("de", ["Baden", "Bär", "Bayern", "Ober", "Öhringen", "Ozean", "Straße", "Strasse2"]),
        ("es", ["Nadal", "Nuevo", "Ñandú", "Oviedo"]),
        ("en", ["Bavaria", "Écosse", "Ecuador", "Zürich"]),
    ],
)
def test_the_collation_of_each_language(locale: str, ordered: list[str]) -> None:
    shuffled = random.Random(1).sample(ordered, len(ordered))
    assert sorted(shuffled, key=sort_key(locale)) == ordered


@pytest.mark.parametrize(
    ("iso", "clean"),
    [
        ("Bruxelles-Capitale, Région de", "Région de Bruxelles-Capitale"),
        ("wallonne, Région", "Région wallonne"),
        ("Wales [Cymru GB-CYM]", "Wales"),
        ("Stockholms län [SE-01]", "Stockholms län"),
        ("Guelmim-Oued Noun (EH-partial)", "Guelmim-Oued Noun"),
        ("Peking, Stadsprovincie; Beijing, Stadsprovincie", "Stadsprovincie Peking"),
        ("San Andrés, Providencia y Santa Catalina", "San Andrés, Providencia y Santa Catalina"),
        ("Castilla y León", "Castilla y León"),
    ],
)
def test_iso_names_are_cleaned_for_countries_without_reviewed_names(iso: str, clean: str) -> None:
    assert clean_name(iso) == clean


def test_what_a_browser_sends_neither_fails_nor_grows_the_caches() -> None:
    before = _named.cache_info().currsize
    for junk in ("x" * 900_000, "zz", "", None, 7, "nl-x"):
        assert regions_of(junk, "nl") == ()
        assert region_name(junk, "NL-UT", "nl") == ""
    assert regions_of("NL", "x" * 900_000) == regions_of("NL", "en")  # an unknown language
    assert region_name("NL", ["NL-UT"], "nl") == "" and region_name("NL", "DE-BY", "nl") == ""
    assert _named.cache_info().currsize <= before + 1
    assert _named.cache_info().maxsize == len(COUNTRY_CODES) * len(LOCALES)
