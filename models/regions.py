"""Top-level regions per country (ISO 3166-2 via pycountry), e.g. provinces, states, cantons.

Only a known ISO country code reaches the subdivision lookup, and its cache holds at most one
entry per country: what a browser sends can neither grow it nor reach pycountry unchecked."""

from collections import Counter
from functools import lru_cache

import pycountry

COUNTRY_CODES = frozenset(country.alpha_2 for country in pycountry.countries)
# Subdivisions that are not a place to live in the country proper (overseas, other countries).
_LEFT_OUT = {("NL", "Country"), ("NL", "Special municipality"), ("US", "Outlying area")}
_LEFT_OUT_WORDS = ("Overseas", "Dependency", "Arctic", "Special island")


def _kept(country: str, kind: str) -> bool:
    return (country, kind) not in _LEFT_OUT and not any(w in kind for w in _LEFT_OUT_WORDS)


def known_country(country: object) -> str | None:
    """The ISO 3166-1 alpha-2 code `country` names, or None for anything else."""
    code = country.upper() if isinstance(country, str) and len(country) == 2 else ""
    return code if code in COUNTRY_CODES else None


@lru_cache(maxsize=len(COUNTRY_CODES))
def _subdivisions(country: str) -> tuple:
    """The top-level subdivisions of `country`, a code from COUNTRY_CODES."""
    found = pycountry.subdivisions.get(country_code=country) or []
    return tuple(s for s in found if not getattr(s, "parent_code", None) and _kept(country, s.type))


def _subdivisions_of(country: object) -> tuple:
    code = known_country(country)
    return _subdivisions(code) if code is not None else ()


def regions_of(country: str) -> tuple[tuple[str, str], ...]:
    """(code, name) of the country's top-level subdivisions, by name."""
    return tuple(sorted(((s.code, s.name) for s in _subdivisions_of(country)), key=lambda p: p[1]))


def region_kind(country: str) -> str:
    """What the country calls its regions (pycountry's type, e.g. Province, Canton, State)."""
    kinds = Counter(s.type for s in _subdivisions_of(country))
    return kinds.most_common(1)[0][0] if kinds else ""


def is_region_of(country: str, region: str) -> bool:
    return any(code == region for code, _name in regions_of(country))
