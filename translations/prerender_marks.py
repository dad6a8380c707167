"""Texts in the prerendered HTML. Reflex prerenders every page once, before anyone asks for it
and so in no language: there each text is a mark, `⟦key¦name=value⟧`, naming its browser key
and the values the page filled into its {name}s. The server writes the visitor's text in place
of each mark before it sends the page (app/document_head.py), so the first paint is the page
in the visitor's language, and the browser's first render, in the same language, matches it."""

import re
from html import escape, unescape

from translations.catalog import every_browser_text, plural_index

OPEN, SEPARATOR, CLOSE = "\u27e6", "\u00a6", "\u27e7"  # ⟦ ¦ ⟧: in no text of ours
_FILL = f"{SEPARATOR}\\w+=[^{SEPARATOR}{OPEN}{CLOSE}<]*"  # a value may be a text: a mark inside
_MARK = re.compile(f"{OPEN}([A-Za-z0-9_-]{{8}})((?:{_FILL})*){CLOSE}")
LOCALE_MARK = f"{OPEN}locale{CLOSE}"  # the language's code, as the language menu shows it
_LEFTOVER = re.compile(f"[{OPEN}{SEPARATOR}{CLOSE}]")


def mark(key: str, names: tuple[str, ...]) -> str:
    """The mark of the text with browser key `key`, with a `{name}` for each of `names` for the
    page's code to fill as it fills the text."""
    fills = "".join(f"{SEPARATOR}{name}={{{name}}}" for name in names)
    return f"{OPEN}{key}{fills}{CLOSE}"


def _count(value: str | None) -> int:
    """The count as the browser reads it (`Math.abs(Number(value))`; not a number: 0)."""
    try:
        return abs(int(float(value or 0)))
    except ValueError:
        return 0


def _text(locale: str, key: str, fills: str) -> str:
    entry = every_browser_text(locale).get(key, "")
    values = dict(fill.split("=", 1) for fill in fills.split(SEPARATOR)[1:])
    values = {name: unescape(value) for name, value in values.items()}
    if isinstance(entry, list):
        entry = entry[min(plural_index(locale, _count(values.get("count"))), len(entry) - 1)]
    for name, value in values.items():
        entry = entry.replace("{" + name + "}", value)
    return entry


def filled(html: str, locale: str) -> str:
    """The prerendered page with each mark replaced by its text in `locale`: the innermost
    first, so a text filled into another is written before the one it is in."""
    count = 1
    while count:
        html, count = _MARK.subn(lambda found: escape(_text(locale, found[1], found[2])), html)
    return html.replace(LOCALE_MARK, locale.upper())


def has_leftovers(html: str) -> bool:
    """A mark the page's code took apart (or one that never was a mark) is still there."""
    return _LEFTOVER.search(html) is not None
