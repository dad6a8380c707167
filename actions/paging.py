"""One bounded page of a staff list (docs/staff-console.md): numbered pages of `size` rows, read
with OFFSET and one row more, which says whether a next page exists; the page number clamped to
1..`max_page`, so that a page sent by the browser never reads further back than that."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session
from sqlmodel.sql.expression import Select, SelectOfScalar

PAGE_SIZE = 50
MAX_PAGE = 200  # 10,000 rows back at PAGE_SIZE: further than anyone pages


@dataclass(frozen=True)
class Page:
    rows: list[dict[str, Any]]
    page: int  # the page read: the one asked for, within the bounds
    has_next: bool


def bounded_page(page: int, max_page: int = MAX_PAGE) -> int:
    return min(max(page, 1), max_page)


def page_of(
    db: Session,
    statement: Select | SelectOfScalar,
    page: int,
    shape: Callable[[Sequence[Any]], list[dict[str, Any]]],
    size: int = PAGE_SIZE,
    max_page: int = MAX_PAGE,
) -> Page:
    """Page `page` of an ordered `statement`; `shape` turns the page's results (at most `size`)
    into the rows the console shows, so that it may read what they name in one statement."""
    page = bounded_page(page, max_page)
    found = db.exec(statement.offset((page - 1) * size).limit(size + 1)).all()
    return Page(shape(found[:size]), page, len(found) > size)
