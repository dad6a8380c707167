"""`python -m translations.extract`: collect every marked text and update the 11 catalogues.

Texts are marked by `t("...")` in components, `N_("...")` where they are translated later,
and `gettext(locale, "...")` on the server.
"""

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from translations.catalog import po_path
from translations.locales import DEFAULT_LOCALE, LOCALES

PROJECT_ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"t": None, "N_": None, "gettext": (2,)}
SCANNED = ("app", "components", "state", "actions", "services", "models", "translations")
METHOD_MAP = [(f"{folder}/**.py", "python") for folder in SCANNED]


def extracted_msgids() -> dict[str, list[tuple[str, int]]]:
    """Every marked text with where it occurs."""
    found: dict[str, list[tuple[str, int]]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(PROJECT_ROOT), METHOD_MAP, keywords=KEYWORDS, comment_tags=()
    ):
        if isinstance(message, str) and message:
            found.setdefault(message, []).append((filename, lineno))
    return found


def update_catalogue(locale: str, msgids: dict[str, list[tuple[str, int]]]) -> int:
    """Add new texts, drop unused ones, keep translations; returns how many lack one."""
    path = po_path(locale)
    old: dict[str, str] = {}
    if path.exists():
        with path.open("rb") as handle:
            old = {str(m.id): str(m.string) for m in read_po(handle, locale=locale) if m.id}
    catalogue = Catalog(locale=locale, project="datingsite", fuzzy=False)
    for msgid, locations in sorted(msgids.items()):
        string = msgid if locale == DEFAULT_LOCALE else old.get(msgid, "")
        catalogue.add(msgid, string, locations=locations)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalogue, width=100, omit_header=False, sort_output=True)
    return sum(1 for msgid in msgids if not (old.get(msgid) or locale == DEFAULT_LOCALE))


def main() -> None:
    msgids = extracted_msgids()
    for locale in LOCALES:
        missing = update_catalogue(locale, msgids)
        print(f"{locale}: {len(msgids)} texts, {missing} without translation")


if __name__ == "__main__":
    main()
