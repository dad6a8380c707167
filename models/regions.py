"""Top-level regions per country (ISO 3166-2 via pycountry), e.g. provinces, states, cantons."""

from collections import Counter
from functools import cache

import pycountry

# Subdivisions that are not a place to live in the country proper (overseas, other countries).
_LEFT_OUT = {("NL", "Country"), ("NL", "Special municipality"), ("US", "Outlying area")}
_LEFT_OUT_WORDS = ("Overseas", "Dependency", "Arctic", "Special island")


def _kept(country: str, kind: str) -> bool:
    return (country, kind) not in _LEFT_OUT and not any(w in kind for w in _LEFT_OUT_WORDS)


@cache
def _subdivisions(country: str) -> tuple:
    found = pycountry.subdivisions.get(country_code=country.upper()) or []
    return tuple(
        s for s in found if not getattr(s, "parent_code", None) and _kept(country.upper(), s.type)
    )


def regions_of(country: str) -> tuple[tuple[str, str], ...]:
    """(code, name) of the country's top-level subdivisions, by name."""
    return tuple(sorted(((s.code, s.name) for s in _subdivisions(country)), key=lambda p: p[1]))


def region_kind(country: str) -> str:
    """What the country calls its regions (pycountry's type, e.g. Province, Canton, State)."""
    kinds = Counter(s.type for s in _subdivisions(country))
    return kinds.most_common(1)[0][0] if kinds else ""


def is_region_of(country: str, region: str) -> bool:
    return any(code == region for code, _name in regions_of(country))
