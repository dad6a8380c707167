"""Supported interface languages and how a visitor's locale is chosen."""

from starlette.requests import cookie_parser

LOCALES = ("nl", "en", "de", "it", "fr", "es", "pl", "da", "fi", "nb", "sv")
DEFAULT_LOCALE = "en"
FALLBACK_LOCALE = "nl"
LOCALE_COOKIE = "i18n_redirected"
LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600

# Each language named in itself, for the language menu.
LANGUAGE_NAMES = {
    "nl": "Nederlands", "en": "English", "de": "Deutsch", "it": "Italiano", "fr": "Français",
    "es": "Español", "pl": "Polski", "da": "Dansk", "fi": "Suomi", "nb": "Norsk", "sv": "Svenska",
}  # fmt: skip

# The country most of a language's speakers live in, for a visitor whose browser named no region
# (English has no such country).
HOME_COUNTRY = {
    "nl": "NL", "de": "DE", "it": "IT", "fr": "FR", "es": "ES", "pl": "PL", "da": "DK", "fi": "FI",
    "nb": "NO", "sv": "SE",
}  # fmt: skip

# Browsers send "no" or "nn" for Norwegian; we serve Bokmål.
_ALIASES = {"no": "nb", "nn": "nb"}
NOUNS_CAPITALISED = frozenset({"de"})  # German writes every noun with a capital


def supported(code: str | None) -> str | None:
    """The supported locale a language tag names by its first two letters, if any."""
    if not code:
        return None
    base = code.strip().lower().replace("_", "-").split("-")[0][:2]
    base = _ALIASES.get(base, base)
    return base if base in LOCALES else None


def cookie_locale(header: str | None) -> str:
    """The supported locale the locale cookie in a Cookie header names, else ""."""
    return supported(cookie_parser(header or "").get(LOCALE_COOKIE)) or ""


def parse_accept_language(header: str | None) -> list[str]:
    """Language tags from an Accept-Language header, best first."""
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(weighted)]


def resolve_locale(
    cookie: str | None = None,
    account: str | None = None,
    accept_language: str | None = None,
    domain_language: str | None = None,
) -> str:
    """Cookie, then the account, then the browser, then the domain's language, else en."""
    for candidate in (cookie, account, *parse_accept_language(accept_language), domain_language):
        if locale := supported(candidate):
            return locale
    return DEFAULT_LOCALE


def country_from_accept_language(header: str | None) -> str | None:
    """The region of the browser's first regional tag (nl-NL -> NL), if it has one."""
    for tag in parse_accept_language(header):
        parts = tag.replace("_", "-").split("-")
        if len(parts) > 1 and len(parts[1]) == 2 and parts[1].isalpha():
            return parts[1].upper()
    return None


def mid_sentence(label: str, locale: str) -> str:
    """A label (a capitalised noun, "Travel") as it reads inside a sentence ("travel")."""
    return label if locale in NOUNS_CAPITALISED else label[:1].lower() + label[1:]
