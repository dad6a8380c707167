"""A legal document as a page: its title, version date, a table of contents linking to each
section, and the numbered sections with their headings as anchors. Facts come from the site's
settings (models/legal/facts.py): the site's name and company details as the page's HTML
carries them (state/site_info.py), the rest with the page's state (state/legal.py)."""

import json
import string
from collections.abc import Callable

import reflex as rx

from components.i18n import filled_in, t
from models.legal.document import (
    Block,
    Bullets,
    LegalDocument,
    LegalSection,
    Paragraph,
    Table,
    Verbatim,
)
from state.i18n import text_locale
from state.legal import LegalState
from state.site_info import site_text
from translations.catalog import N_, Counted, Message

VERSION = N_("Version of {version_date}")
CONTENTS = N_("Contents")

# Facts the page's HTML already carries (state/site_info.FIELDS), by their fact name.
_SITE_FIELDS = {
    "site": "name",
    "company": "company",
    "address": "address",
    "city": "city",
    "kvk": "kvk",
    "support_email": "email",
    "support_phone": "phone",
}


def fact(name: str) -> rx.Var[str]:
    """The fact as the visitor's language writes it."""
    if field := _SITE_FIELDS.get(name):
        return site_text(field)
    language_facts = f"{LegalState.facts}?.[{text_locale()}]"
    return rx.Var(f"({language_facts}?.[{json.dumps(name)}] ?? '')").to(str)


def placeholders(text: Message) -> set[str]:
    """The {names} a text fills (a counted text: its count's too)."""
    sources = (text.singular, text.plural) if isinstance(text, Counted) else (text,)
    found = {name for source in sources for _, name, _, _ in string.Formatter().parse(source)}
    return {name for name in found if name} | ({text.count} if isinstance(text, Counted) else set())


Write = Callable[[Message], rx.Var[str]]


def _facts(text: Message) -> dict[str, rx.Var[str]]:
    return {name: fact(name) for name in sorted(placeholders(text))}


def legal_text(text: Message) -> rx.Var[str]:
    """The text in the visitor's language with its facts filled in."""
    return t(text, **_facts(text))


def as_written(text: Message) -> rx.Var[str]:
    """The text as written, in every language, with its facts filled in (a document of one
    language: `LegalDocument.written_in`)."""
    return filled_in(rx.Var.create(text), _facts(text))


def _cell(cell: Message | Verbatim, write: Write) -> rx.Component:
    content = rx.el.code(cell.text) if isinstance(cell, Verbatim) else write(cell)
    return rx.el.td(content, padding="6px 8px", vertical_align="top")


def _block(block: Block, write: Write) -> rx.Component:
    match block:
        case Paragraph(text):
            return rx.el.p(write(text), margin_bottom="10px")
        case Bullets(items, numbered):
            tag = rx.el.ol if numbered else rx.el.ul
            return tag(
                *(rx.el.li(write(item)) for item in items),
                class_name="static-points",
                list_style="decimal" if numbered else "disc",
                margin_bottom="10px",
            )
        case Table(columns, rows):
            head = rx.el.tr(*(rx.el.th(write(c), text_align="start") for c in columns))
            body = [rx.el.tr(*(_cell(cell, write) for cell in row)) for row in rows]
            table = rx.el.table(rx.el.thead(head), rx.el.tbody(*body), width="100%")
            return rx.el.div(table, overflow_x="auto")


def _numbered(index: int, heading: Message, write: Write) -> rx.Var[str]:
    return rx.Var.create(f"{index}. ") + write(heading)


def _contents(sections: tuple[LegalSection, ...], write: Write) -> rx.Component:
    links = (
        rx.el.li(rx.el.a(_numbered(i, s.heading, write), href=f"#{s.id}"))
        for i, s in enumerate(sections, 1)
    )
    return rx.el.nav(
        rx.el.strong(t(CONTENTS)),
        rx.el.ul(*links, list_style="none", padding_left="0", line_height="1.8"),
        class_name="card legal-contents",
        aria_label=t(CONTENTS),
        margin="16px 0 24px",
    )


def _section(index: int, section: LegalSection, write: Write) -> rx.Component:
    return rx.el.section(
        rx.el.h2(_numbered(index, section.heading, write), id=section.id, scroll_margin_top="72px"),
        *(_block(block, write) for block in section.blocks),
        margin_top="28px",
    )


def legal_document(document: LegalDocument) -> rx.Component:
    """The document's body under the page's title (app/pages/static_pages.py)."""
    write = legal_text if document.written_in is None else as_written
    return rx.el.div(
        rx.el.p(legal_text(VERSION), class_name="muted"),
        _contents(document.sections, write),
        *(_section(i, s, write) for i, s in enumerate(document.sections, 1)),
        class_name="legal-document",
        overflow_wrap="anywhere",
        data_testid=f"legal-{document.slug}",
    )
