"""A lander's optional slug: a niche prefix and a place (`milf-amsterdam`, `gay`, `berlin`).

The niche prefixes are the settings' (`NICHE_SLUG_PREFIXES`); the place is whatever words follow,
looked up by the caller's `find_place` (services/place_names.py: the cities and regions the site
knows). A slug that is too long or holds anything but a-z, 0-9 and "-" means the plain lander
anywhere, and an unknown place is ignored: a bad link still shows a lander, never an error."""

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from models.routes import ROUTES
from models.site_settings import NICHE_SLUG_PREFIXES

PLAIN = "none"
# Niche name -> its slug prefix: "she" -> "she-"; the plain niche has none.
NICHE_PREFIXES = {prefix.removesuffix("-"): prefix for prefix in NICHE_SLUG_PREFIXES.values()}
NICHE_PREFIXES[PLAIN] = NICHE_PREFIXES.pop("")
NICHES = tuple(NICHE_PREFIXES)
MAX_SLUG_LENGTH = 80
_SLUG = re.compile(rf"[a-z0-9-]{{1,{MAX_SLUG_LENGTH}}}")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class LanderPlace:
    country: str  # ISO 3166-1 alpha-2
    region: str | None  # ISO 3166-2, when known
    city: str  # "" for a whole region


@dataclass(frozen=True)
class LanderTarget:
    niche: str = PLAIN  # one of NICHES
    place: LanderPlace | None = None


def slug_words(name: str) -> str:
    """A name as a slug writes it: "Den Haag" -> "den-haag", "München" -> "munchen"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return _NOT_WORD.sub("-", plain.lower()).strip("-")


def _no_place(_words: str) -> LanderPlace | None:
    return None


def _niche_and_rest(slug: str) -> tuple[str, str]:
    for niche, prefix in NICHE_PREFIXES.items():
        if prefix and slug == niche:
            return niche, ""
        if prefix and slug.startswith(prefix):
            return niche, slug.removeprefix(prefix)
    return PLAIN, slug


def slug_parts(slug: object) -> tuple[str, str]:
    """(niche, place words) of `slug`: ("milf", "amsterdam") for `milf-amsterdam`; the plain
    niche and no words for anything unusable."""
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug := slug.lower()):
        return PLAIN, ""
    niche, rest = _niche_and_rest(slug)
    return niche, rest.strip("-")


def parse_slug(
    slug: object, find_place: Callable[[str], LanderPlace | None] = _no_place
) -> LanderTarget:
    """The niche and place `slug` names; the plain niche anywhere for anything unusable."""
    niche, words = slug_parts(slug)
    return LanderTarget(niche, find_place(words) if words else None)


_TAIL = "/[[...splat]]"
_SLUGGED = tuple(
    re.compile(
        "^"
        + re.sub(r"\\\[[a-z_]+\\\]", "[^/]+", re.escape(route.path.removesuffix(_TAIL)))
        + r"(?:/([^/]*))?(?:/.*)?$"
    )
    for route in ROUTES
    if route.path.endswith(_TAIL)
)


def slug_of(path: str) -> str | None:
    """The slug of a page on a route with an optional tail (the landers', the member landings'):
    the tail's first segment, "" without one; None on other pages."""
    found = next((m for pattern in _SLUGGED if (m := pattern.match(path))), None)
    return None if found is None else found[1] or ""
