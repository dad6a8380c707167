"""Reads the .po catalogues once per process and answers translations by locale."""

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from translations.locales import DEFAULT_LOCALE, FALLBACK_LOCALE, LOCALES

CATALOGUE_DIR = Path(__file__).resolve().parent
DOMAIN = "messages"


def po_path(locale: str) -> Path:
    return CATALOGUE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def messages(locale: str) -> dict[str, str]:
    """msgid -> translation for one locale; untranslated and fuzzy entries are left out."""
    path = po_path(locale)
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=locale)
    return {
        str(m.id): str(m.string)
        for m in catalogue
        if m.id and isinstance(m.string, str) and m.string and not m.fuzzy
    }


def gettext(locale: str, msgid: str, **params: object) -> str:
    """The text in `locale`, else the fallback locale, else the msgid; {name}s filled in."""
    text = (
        messages(locale).get(msgid)
        or messages(FALLBACK_LOCALE).get(msgid)
        or messages(DEFAULT_LOCALE).get(msgid)
        or msgid
    )
    return text.format(**params) if params else text


def all_translations(msgid: str) -> dict[str, str]:
    """The text in every supported locale, for lookups compiled into the frontend."""
    return {locale: gettext(locale, msgid) for locale in LOCALES}


def N_(msgid: str) -> str:
    """Marks a text for extraction where it is translated later, by its msgid."""
    return msgid
