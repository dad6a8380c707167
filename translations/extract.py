"""`python -m translations.extract`: collect every marked text and update the 11 catalogues.

Texts are marked by `t("...")`, `tn("one", "many", count)` and `tp("context", "...")` in
components, by `N_("...")` and `N_plural("one", "many")` where they are translated later, and by
`gettext`, `ngettext`, `pgettext` and `npgettext` on the server; `NC_("context", "...")` marks a
text in a context and `N_gendered("...")` one with a form per gender (extracted once per gender
context). A counted text becomes a
`msgid_plural` entry with as many forms as the locale's `Plural-Forms` header (Babel's) names; a
text with a context gets its `msgctxt`.
"""

from collections.abc import Collection, Iterator
from pathlib import Path
from typing import IO

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.pofile import read_po, write_po

from translations.catalog import GENDER_CONTEXTS, plural_rule, po_path
from translations.locales import DEFAULT_LOCALE, LOCALES

PROJECT_ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {
    "t": None,
    "tn": (1, 2),
    "tp": ((1, "c"), 2),
    "N_": None,
    "N_plural": (1, 2),
    "NC_": ((1, "c"), 2),
    "N_gendered": None,
    "gettext": (2,),
    "ngettext": (2, 3),
    "pgettext": ((2, "c"), 3),
    "npgettext": ((2, "c"), 3, 4),
}
SCANNED = ("app", "components", "state", "actions", "services", "models", "translations")
METHOD_MAP = [(f"{folder}/**.py", "translations.extract:extract_gendered") for folder in SCANNED]

MsgId = str | tuple[str, str]  # a plain text, or a counted text's singular and plural
Entry = tuple[str | None, MsgId]  # (context, msgid)


def extract_gendered(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: dict
) -> Iterator[tuple[int, str, object, list[str]]]:
    """Babel's Python extractor, with each `N_gendered("...")` text once per gender context."""
    for lineno, funcname, messages, comments in extract_python(
        fileobj, keywords, comment_tags, options
    ):
        if funcname == "N_gendered" and isinstance(messages, str):
            for context in GENDER_CONTEXTS:
                yield lineno, "NC_", (context, messages), comments
        else:
            yield lineno, funcname, messages, comments


def extracted_entries() -> dict[Entry, list[tuple[str, int]]]:
    """Every marked text, with its context, and where it occurs."""
    found: dict[Entry, list[tuple[str, int]]] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(PROJECT_ROOT), METHOD_MAP, keywords=KEYWORDS, comment_tags=()
    ):
        if isinstance(message, tuple):
            message = tuple(message[:2]) if all(message[:2]) else None
        if message:
            found.setdefault((context, message), []).append((filename, lineno))
    return found


def extracted_msgids() -> dict[str, list[tuple[str, int]]]:
    """The plain marked texts (no context, no plural) with where they occur."""
    return {
        msgid: places
        for (context, msgid), places in extracted_entries().items()
        if context is None and isinstance(msgid, str)
    }


def _empty(locale: str, msgid: MsgId) -> str | tuple[str, ...]:
    return "" if isinstance(msgid, str) else ("",) * plural_rule(locale)[0]


def _complete(string: object) -> bool:
    return bool(string) and (isinstance(string, str) or all(string))


def update_catalogue(locale: str, entries: dict[Entry, list[tuple[str, int]]]) -> int:
    """Add new texts, drop unused ones, keep translations; returns how many lack one."""
    path = po_path(locale)
    old: dict[Entry, object] = {}
    if path.exists():
        with path.open("rb") as handle:
            old = {(m.context, m.id): m.string for m in read_po(handle, locale=locale) if m.id}
    catalogue = Catalog(locale=locale, project="datingsite", fuzzy=False)
    missing = 0
    for (context, msgid), locations in sorted(entries.items(), key=lambda e: str(e[0])):
        if locale == DEFAULT_LOCALE:
            string = msgid
        else:
            string = old.get((context, msgid)) or _empty(locale, msgid)
            missing += not _complete(string)
        catalogue.add(msgid, string, locations=locations, context=context)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalogue, width=100, omit_header=False, sort_output=True)
    return missing


def main() -> None:
    entries = extracted_entries()
    for locale in LOCALES:
        missing = update_catalogue(locale, entries)
        print(f"{locale}: {len(entries)} texts, {missing} without translation")


if __name__ == "__main__":
    main()
