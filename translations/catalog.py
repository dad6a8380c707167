"""Reads the .po catalogues once per process and answers translations by locale: plain texts,
texts with a context (`pgettext`) and counted texts in the locale's plural forms (`ngettext`)."""

import base64
import gettext as c_plurals
import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as PoMessage
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from translations.locales import DEFAULT_LOCALE, FALLBACK_LOCALE, LOCALES
from translations.numbers import written_number

CATALOGUE_DIR = Path(__file__).resolve().parent
DOMAIN = "messages"

Key = tuple[str | None, str]  # (context, msgid); a counted text by its singular msgid


class Counted(NamedTuple):
    """A counted text marked for later translation: its two English forms and the name of the
    parameter whose number picks the form."""

    singular: str
    plural: str
    count: str = "count"


Message = str | Counted

# The modules whose texts only the server writes (mails and pushes, translated before they are
# sent): no screen imports them (tests/unit/test_browser_catalogues.py), so the browser's
# catalogue leaves out a text that appears nowhere else.
SERVER_ONLY_SOURCES = frozenset(
    {
        "services/account_mail.py",
        "services/receipt_mail.py",
        "services/notice_mail.py",
        "services/notice_receipt_mail.py",
        "services/statement_mail.py",
        "services/ticket_mail.py",
        "services/data_export_mail.py",
        "services/export_archive.py",
        "services/mail_frame.py",
        "actions/push_notify.py",
    }
)

# Modules whose texts the server writes into a page's HTML (components/server_parts.py: the
# landers, a member's pages): a text found only there (and in mails) never goes to the browser,
# which gets it written. A text such a module hands the browser must appear elsewhere too
# (tests/unit/test_plurals.py proves every text the pages hand the browser is in its catalogue).
SERVER_WRITTEN_PREFIXES = ("components/landers/", "components/member_landings/")

# Catalogue parts: a text that appears only in one part's modules (and perhaps in mails) goes to
# that part's catalogue, which only the part's pages load (app/catalogue_api.py,
# app/document_head.py), so members never download it with every page: the staff console's
# texts, and the legal documents' (models/legal, components/legal_document.py).
STAFF, LEGAL = "staff", "legal"
CATALOGUE_PARTS: dict[str, tuple[str, ...]] = {
    STAFF: (
        "app/pages/staff_",
        "app/staff_",
        "components/staff_",
        "components/decision_fields.py",
        "state/staff_",
        "models/staff_tools.py",
        "models/decision_form.py",
        "models/setting_",  # the admins' settings editor (docs/admin.md)
        "models/lander_variants.py",
        "models/discount_form.py",
        "models/staff_reason.py",
        "actions/site_settings_admin.py",
        "actions/discount_admin.py",
        "models/support_form.py",  # support's tools (docs/support.md)
        "actions/support.py",
    ),
    LEGAL: ("models/legal/", "components/legal_document.py"),
}


def part_global(part: str) -> str:
    """The browser's name for a part's catalogue: "staff" -> `i18nStaff`, whose lookup is
    `i18nStaffText`, whose arrival `i18nStaffLoaded` tells (assets/shell.js)."""
    return f"i18n{part.capitalize()}"


def po_path(locale: str) -> Path:
    return CATALOGUE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def _parsed(locale: str) -> Catalog | None:
    """The locale's .po file; None when it has none. Its callers keep what they need of it."""
    path = po_path(locale)
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _key(message: PoMessage) -> Key:
    """A message's (context, msgid); a counted text by its singular."""
    msgid = message.id if isinstance(message.id, str) else message.id[0] if message.id else ""
    return message.context, msgid


@cache
def _entries(locale: str) -> dict[Key, tuple[str, ...]]:
    """(context, msgid) -> the translated forms (one, or one per plural form); untranslated,
    partly translated and fuzzy entries are left out."""
    found: dict[Key, tuple[str, ...]] = {}
    for m in _parsed(locale) or ():
        forms = (m.string,) if isinstance(m.string, str) else tuple(m.string)
        if m.id and all(forms) and not m.fuzzy:
            found[_key(m)] = forms
    return found


def _server_only(path: str) -> bool:
    return path in SERVER_ONLY_SOURCES or path.startswith(SERVER_WRITTEN_PREFIXES)


@cache
def server_only_texts() -> frozenset[Key]:
    """The texts that appear only in server-only modules (by the default catalogue's places)."""
    return frozenset(
        _key(m)
        for m in _parsed(DEFAULT_LOCALE) or ()
        if m.id and m.locations and all(_server_only(path) for path, _ in m.locations)
    )


def messages(locale: str) -> dict[str, str]:
    """msgid -> translation of the plain texts (no context, no plural) of one locale."""
    return {
        msgid: forms[0]
        for (context, msgid), forms in _entries(locale).items()
        if context is None and len(forms) == 1
    }


@cache
def plural_rule(locale: str) -> tuple[int, str]:
    """The locale's number of plural forms and gettext's C expression choosing one (Babel's);
    the expression is valid JavaScript too, so the browser picks with the same rule."""
    rule = get_plural(locale)
    return rule.num_plurals, rule.plural_expr


@cache
def _plural_function(locale: str) -> Callable[[int], int]:
    return c_plurals.c2py(plural_rule(locale)[1])


def plural_index(locale: str, count: int) -> int:
    """Which of the locale's plural forms a count takes."""
    return _plural_function(locale)(abs(int(count)))


def _fitted(forms: tuple[str, ...], wanted: int) -> tuple[str, ...]:
    """Forms from a language with another number of them: the first is the singular, the last
    the most general plural, in every catalogue we have."""
    return forms if len(forms) == wanted else (forms[0], *[forms[-1]] * (wanted - 1))


def forms(
    locale: str, msgid: str, plural: str | None = None, context: str | None = None
) -> tuple[str, ...]:
    """The text's forms in `locale` (else the fallback locale, else English, else the msgids):
    one for a plain text, the locale's number of plural forms for a counted one."""
    wanted = plural_rule(locale)[0] if plural is not None else 1
    for source in (locale, FALLBACK_LOCALE, DEFAULT_LOCALE):
        if found := _entries(source).get((context, msgid)):
            return _fitted(found, wanted)
    return _fitted((msgid,) if plural is None else (msgid, plural), wanted)


def browser_key(context: str | None, msgid: str) -> str:
    """The short, stable name of a text in the browser's catalogues: 8 characters of a hash of
    its context and msgid (a test checks that no two texts share one)."""
    digest = hashlib.blake2b(f"{context or ''}\x04{msgid}".encode(), digest_size=6).digest()
    return base64.b64encode(digest, altchars=b"-_").decode()


BrowserMessage = dict[str, object]  # {"key": a browser key, "params": {name: value}}


def browser_message(msgid: str, **params: object) -> BrowserMessage:
    """A text the server picks at runtime (an error, a refusal), as a state keeps it: its key in
    the browser's catalogues and its {name}s' values, which the browser writes in the page's
    language (components/i18n.t_message), again after a switch of language in place."""
    return {"key": browser_key(None, msgid), "params": {k: str(v) for k, v in params.items()}}


def _part_of(locations: list[tuple[str, int]]) -> str | None:
    """The part whose modules alone show a text at `locations`; None: the main catalogue."""
    paths = [path for path, _ in locations if not _server_only(path)]
    for part, prefixes in CATALOGUE_PARTS.items():
        if paths and all(path.startswith(prefixes) for path in paths):
            return part
    return None


@cache
def _parts() -> dict[Key, str]:
    """The texts of the catalogue parts, each with its part's name."""
    found = {}
    for m in _parsed(DEFAULT_LOCALE) or ():
        if m.id and (part := _part_of(m.locations)):
            found[_key(m)] = part
    return found


def in_catalogues(context: str | None, msgid: str) -> bool:
    """The text has an entry (brand names such as iDEAL have none: the same everywhere)."""
    return (context, msgid) in _entries(DEFAULT_LOCALE)


def text_part(context: str | None, msgid: str) -> str | None:
    """The catalogue part holding the text (`CATALOGUE_PARTS`); None: the main catalogue."""
    return _parts().get((context, msgid))


@cache
def browser_catalogue(locale: str, part: str | None = None) -> dict[str, str | list[str]]:
    """Every text of the catalogues in `locale` that a member's page may show (`part`: that
    only that catalogue part's pages show), by its browser key, with `forms`'s fallbacks: a
    plain text as its translation, a counted one as the locale's plural forms. Mail and push
    texts stay on the server."""
    catalogue: dict[str, str | list[str]] = {}
    server_only = server_only_texts()
    for (context, msgid), english in _entries(DEFAULT_LOCALE).items():
        if (context, msgid) in server_only or text_part(context, msgid) != part:
            continue
        plural = english[1] if len(english) > 1 else None
        found = forms(locale, msgid, plural, context)
        catalogue[browser_key(context, msgid)] = list(found) if plural is not None else found[0]
    return catalogue


@cache
def every_browser_text(locale: str) -> dict[str, str | list[str]]:
    """The main catalogue and every part's together, by browser key (for the server's own
    writing of a page's texts, translations/prerender_marks.py)."""
    merged = dict(browser_catalogue(locale))
    for part in CATALOGUE_PARTS:
        merged.update(browser_catalogue(locale, part))
    return merged


@cache
def catalogue_version() -> str:
    """Changes whenever a catalogue does, so a browser may keep each locale's file for a year."""
    digest = hashlib.blake2b(digest_size=6)
    for locale in LOCALES:
        digest.update(po_path(locale).read_bytes())
    return digest.hexdigest()


def _filled(text: str, params: dict[str, object]) -> str:
    return text.format(**params) if params else text


def pgettext(locale: str, context: str | None, msgid: str, **params: object) -> str:
    """The text of `msgid` in `context` (e.g. "hair colour", "female") in `locale`."""
    return _filled(forms(locale, msgid, context=context)[0], params)


def npgettext(
    locale: str, context: str | None, singular: str, plural: str, count: int, /, **params: object
) -> str:
    """The counted text in the form `count` takes in `locale`; {count} is the count grouped the
    language's way (de "1.500") unless `params` give it another way of writing."""
    chosen = forms(locale, singular, plural, context)[plural_index(locale, count)]
    return _filled(chosen, {"count": written_number(count, locale), **params})


def ngettext(locale: str, singular: str, plural: str, count: int, /, **params: object) -> str:
    return npgettext(locale, None, singular, plural, count, **params)


def gettext(locale: str, msgid: Message, **params: object) -> str:
    """The text in `locale`, else the fallback locale, else the msgid; {name}s filled in. A
    counted text takes its form from the parameter it names, written the language's way."""
    if isinstance(msgid, Counted):
        count = params[msgid.count]
        written = {msgid.count: written_number(count, locale)}
        return ngettext(locale, msgid.singular, msgid.plural, count, **{**params, **written})
    return pgettext(locale, None, msgid, **params)


def N_(msgid: str) -> str:
    """Marks a text for extraction where it is translated later, by its msgid."""
    return msgid


def N_plural(singular: str, plural: str, count: str = "count") -> Counted:
    """Marks a counted text for extraction where it is translated later; `count` names the
    parameter whose number picks the form."""
    return Counted(singular, plural, count)


GENDER_CONTEXTS = ("male", "female")  # the contexts of a text with a form per gender


def NC_(context: str, msgid: str) -> tuple[str, str]:
    """Marks a text in a context for extraction where it is translated later."""
    return context, msgid


def N_gendered(msgid: str) -> str:
    """Marks a text that takes a form per gender (a body type, a marital status) for extraction
    in each of GENDER_CONTEXTS; it is translated later with the person's gender as context."""
    return msgid
