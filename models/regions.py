"""Top-level regions per country (ISO 3166-2 via pycountry), e.g. provinces, states, cantons,
named the way the viewer's language names them and sorted the way it sorts.

A region's name in a language: models/data/region_names.tsv for the site's target countries
(every region in all 11 interface languages, reviewed by hand); for any other country the
translation in pycountry's iso3166-2 catalogue of that language, else pycountry's own name.
Every name is cleaned of ISO's bracketed alternatives and codes and of inverted forms
("Murcia, Región de" becomes "Región de Murcia").

Only a known ISO country code and a supported locale reach the lookups, and their caches hold at
most one entry per country (and language): what a browser sends can neither grow them nor reach
pycountry unchecked. Stored profiles keep the region's code; names exist only on the way out."""

import csv
import gettext
import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib.metadata import version
from importlib.resources import files

import pycountry

from translations.collation import sort_key
from translations.locales import DEFAULT_LOCALE, LOCALES, supported

COUNTRY_CODES = frozenset(country.alpha_2 for country in pycountry.countries)
# Subdivisions that are not a place to live in the country proper (overseas, other countries).
_LEFT_OUT = {("NL", "Country"), ("NL", "Special municipality"), ("US", "Outlying area")}
_LEFT_OUT_WORDS = ("Overseas", "Dependency", "Arctic", "Special island")
_CATALOGUE_LANGUAGE = {"nb": "nb_NO"}  # pycountry's folder for Norwegian Bokmål
_BRACKETED = re.compile(r"\s*\[[^\]]*\]|\s*\([A-Z]{2,}\b[^)]*\)")
_LIST_WORDS = re.compile(r"\b(?:and|y|et|e|i|und|og|och|ja)\b")


def _kept(country: str, kind: str) -> bool:
    return (country, kind) not in _LEFT_OUT and not any(w in kind for w in _LEFT_OUT_WORDS)


def known_country(country: object) -> str | None:
    """The ISO 3166-1 alpha-2 code `country` names, or None for anything else."""
    code = country.upper() if isinstance(country, str) and len(country) == 2 else ""
    return code if code in COUNTRY_CODES else None


def clean_name(name: str) -> str:
    """An ISO name as people write it: "Wales [Cymru GB-CYM]" is "Wales", "wallonne, Région"
    is "Région wallonne", of alternatives ("A; B") the first; a list such as "San Andrés,
    Providencia y Santa Catalina" stays as it is."""
    name = _BRACKETED.sub("", name.split(";")[0]).strip()
    head, comma, tail = name.partition(", ")
    if not comma or _LIST_WORDS.search(tail):
        return name
    return f"{tail[:1].upper()}{tail[1:]} {head}"


@lru_cache(maxsize=len(COUNTRY_CODES))
def _subdivisions(country: str) -> tuple:
    """The top-level subdivisions of `country`, a code from COUNTRY_CODES."""
    found = pycountry.subdivisions.get(country_code=country) or []
    return tuple(s for s in found if not getattr(s, "parent_code", None) and _kept(country, s.type))


def _subdivisions_of(country: object) -> tuple:
    code = known_country(country)
    return _subdivisions(code) if code is not None else ()


@cache
def reviewed_names() -> dict[str, dict[str, str]]:
    """Region code -> locale -> name, from models/data/region_names.tsv."""
    text = files("models").joinpath("data", "region_names.tsv").read_text(encoding="utf-8")
    rows = csv.DictReader(text.splitlines(), delimiter="\t")
    return {row["code"]: {locale: row[locale] for locale in LOCALES} for row in rows}


@cache
def _catalogue(locale: str) -> gettext.NullTranslations:
    language = _CATALOGUE_LANGUAGE.get(locale, locale)
    return gettext.translation(
        "iso3166-2", pycountry.LOCALES_DIR, languages=[language], fallback=True
    )


def _name(subdivision, locale: str) -> str:
    reviewed = reviewed_names().get(subdivision.code)
    if reviewed is not None:
        return reviewed[locale]
    return clean_name(_catalogue(locale).gettext(subdivision.name))


@lru_cache(maxsize=len(COUNTRY_CODES) * len(LOCALES))
def _named(country: str, locale: str) -> tuple[tuple[str, str], ...]:
    named = ((s.code, _name(s, locale)) for s in _subdivisions(country))
    by_name = sort_key(locale)
    return tuple(sorted(named, key=lambda pair: by_name(pair[1])))


def regions_of(country: object, locale: object = DEFAULT_LOCALE) -> tuple[tuple[str, str], ...]:
    """(code, name) of the country's top-level subdivisions, named in `locale` and sorted the
    way `locale` sorts; nothing for an unknown country."""
    code = known_country(country)
    if code is None:
        return ()
    return _named(code, supported(locale if isinstance(locale, str) else None) or DEFAULT_LOCALE)


def region_name(country: object, region: object, locale: object) -> str:
    """The name of region `region` of `country` in `locale`, or "" when it is not one."""
    return dict(regions_of(country, locale)).get(region, "") if isinstance(region, str) else ""


def region_kind(country: str) -> str:
    """What the country calls its regions (pycountry's type, e.g. Province, Canton, State)."""
    kinds = Counter(s.type for s in _subdivisions_of(country))
    return kinds.most_common(1)[0][0] if kinds else ""


def is_region_of(country: str, region: str) -> bool:
    return any(s.code == region for s in _subdivisions_of(country))


def region_catalogue(countries: Iterable[object], locale: str) -> dict[str, str | list[str]]:
    """What the browser's catalogue of `locale` carries of `countries`' regions: under
    "regions:CC" their codes in the order `locale` sorts their names, under "region:CODE" each
    name (the texts' own keys have no colon)."""
    entries: dict[str, str | list[str]] = {}
    for country in countries:
        named = regions_of(country, locale)
        if named:
            entries[f"regions:{country}"] = [code for code, _name in named]
            entries.update((f"region:{code}", name) for code, name in named)
    return entries


@cache
def regions_version() -> str:
    """Changes whenever the names could: the reviewed names and pycountry's data."""
    digest = hashlib.blake2b(digest_size=4)
    digest.update(files("models").joinpath("data", "region_names.tsv").read_bytes())
    digest.update(version("pycountry").encode())
    return digest.hexdigest()
