"""The shape of a legal document: sections of paragraphs, bullet lists and tables whose texts are
marked msgids (`N_`, `N_plural`) with {placeholders} that `models/legal/facts.py` fills in from the
site's settings. components/legal_document.py draws one; texts go to the legal catalogue part,
which only the legal pages load (translations/catalog.py)."""

from dataclasses import dataclass

from translations.catalog import Message


@dataclass(frozen=True)
class Paragraph:
    text: Message


@dataclass(frozen=True)
class Bullets:
    items: tuple[Message, ...]
    numbered: bool = False  # an ordered list (1., 2., ...), e.g. rules decisions cite


@dataclass(frozen=True)
class Verbatim:
    """A value shown as it is in every language (a cookie's name, a storage key)."""

    text: str


Cell = Message | Verbatim


@dataclass(frozen=True)
class Table:
    columns: tuple[Message, ...]
    rows: tuple[tuple[Cell, ...], ...]


Block = Paragraph | Bullets | Table


@dataclass(frozen=True)
class LegalSection:
    id: str  # the anchor: lower-case words joined by hyphens, unique in the document
    heading: Message
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class LegalDocument:
    slug: str  # the static page it fills (models/routes.STATIC_PAGES)
    title: Message
    sections: tuple[LegalSection, ...]
    written_in: str | None = None  # a document of one language (the US notice): never translated


def document_texts(document: LegalDocument) -> list[Message]:
    """Every translated text of the document, in reading order."""
    texts: list[Message] = [document.title]
    for section in document.sections:
        texts.append(section.heading)
        for block in section.blocks:
            texts.extend(_block_texts(block))
    return texts


def _block_texts(block: Block) -> list[Message]:
    match block:
        case Paragraph(text):
            return [text]
        case Bullets(items):
            return list(items)
        case Table(columns, rows):
            cells = [cell for row in rows for cell in row if not isinstance(cell, Verbatim)]
            return [*columns, *cells]


def verbatim_texts(document: LegalDocument) -> list[str]:
    """What the document shows as written in every language: its `Verbatim` cells, and every
    text of a document written in one language."""
    if document.written_in is not None:
        return [text for text in document_texts(document) if isinstance(text, str)]
    return [
        cell.text
        for section in document.sections
        for block in section.blocks
        if isinstance(block, Table)
        for row in block.rows
        for cell in row
        if isinstance(cell, Verbatim)
    ]
