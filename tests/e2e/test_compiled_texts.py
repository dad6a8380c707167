"""No text reaches the browser that the catalogues do not hold: the compiled frontend (our
pages and components, and the pieces Reflex adds itself: its overlay, its error screen) is
scanned for string literals in the places that render text (JSX children, the text props
title, aria-label, placeholder, alt, label, content, description, and toasts), and each must be
a msgid or a translation. What is not text (paths, ids, code) is recognised or allow-listed."""

import json
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from server import Server

from models.legal.document import verbatim_texts
from models.legal.privacy_us import PRIVACY_US
from models.legal.registry import LEGAL_DOCUMENTS
from translations.catalog import po_path
from translations.locales import LANGUAGE_NAMES, LOCALES

SCANNED = ("app", "app_components", "utils/components")  # Reflex's output, not node_modules
_STRING = r'"((?:[^"\\\n]|\\.)*)"'
RENDERED = (
    re.compile(r"[})],\s*" + _STRING + r"(?=\s*[,)])"),  # a child after the props or a child
    re.compile(
        r'(?:\btitle|"aria-label"|\bplaceholder|\balt|\blabel|\bcontent|\bdescription):\s*\(?'
        + _STRING
    ),
    re.compile(r"toast\??\.\w+\(\s*" + _STRING),
)
_WORD = re.compile(r"[^\W\d_]{2,}")
_NOT_TEXT = re.compile(  # ids and names, a memo's tag (a lazy one's loader names it), paths and
    # files, CSS lengths
    r"[a-z][\w-]*|[A-Z]\w*_[0-9a-f]{8}|[\w./#?=&:-]*[./][\w./#?=&:-]*"
    r"|[\d.]+[a-z%]*(?:\s+[\d.]+[a-z%]*)*"
)
NOT_TEXT = {
    *LANGUAGE_NAMES.values(),  # each language named in itself, in every locale
    "width=device-width, initial-scale=1",  # the viewport meta tag
    # cookie names and the US privacy notice, the same in every language
    *(text for doc in (*LEGAL_DOCUMENTS.values(), PRIVACY_US) for text in verbatim_texts(doc)),
}


@cache
def catalogue_texts() -> frozenset[str]:
    """Every msgid and translation, plural forms included."""
    texts: set[str] = set()
    for locale in LOCALES:
        with po_path(locale).open("rb") as handle:
            for message in read_po(handle, locale=locale):
                for part in (message.id, message.string):
                    texts.update([part] if isinstance(part, str) else part)
    return frozenset(texts)


def is_text(literal: str) -> bool:
    return (
        bool(_WORD.search(literal))
        and "\n" not in literal  # an inline script's code
        and not _NOT_TEXT.fullmatch(literal)
        and literal not in NOT_TEXT
    )


def untranslated_texts(web_dir: Path) -> dict[str, str]:
    """Each rendered literal that is text but in no catalogue, with the file it is in."""
    known = catalogue_texts()
    found: dict[str, str] = {}
    for folder in SCANNED:
        for path in sorted((web_dir / folder).rglob("*.js*")):
            source = path.read_text()
            for pattern in RENDERED:
                for match in pattern.finditer(source):
                    literal = json.loads(f'"{match.group(1)}"').strip()
                    if is_text(literal) and literal not in known:
                        found.setdefault(literal, str(path.relative_to(web_dir)))
    return found


@pytest.mark.any_site
def test_the_scan_recognises_text_and_what_is_not() -> None:
    assert is_text("Connection Error: ") and is_text("Copy") and is_text("Built with")
    names = ("websocket-error", "uploadFiles", "SignupLaterSteps_717ab8b9", "/logo.svg")
    for literal in (*names, "favicon.ico", "Suomi", "12px"):
        assert not is_text(literal), literal


def test_every_rendered_text_is_in_the_catalogues(site: Server) -> None:
    assert untranslated_texts(site.web_dir) == {}
