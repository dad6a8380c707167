"""A page's rows as the page shows them, written by the database: `page_columns` labels each
field with the page's key and has times written as ISO 8601 text in UTC with microseconds (""
for none) on PostgreSQL and SQLite alike, so that `page_dicts` makes each row into the page's
dict with a zip. Making the rows' datetimes into text in Python, field by field, cost a staff
console's history of 95 rows more than its statements did (bench/moderation.py)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import DateTime, String, TypeDecorator, cast, null
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement, Label
from sqlalchemy.sql.functions import FunctionElement

Fields = Mapping[str, ColumnElement[Any]]  # the page's keys and what each shows


class _IsoTime(FunctionElement[str]):
    type = String()
    inherit_cache = True


def _shown(value: ColumnElement[Any]) -> ColumnElement[Any]:
    kind = value.type.impl_instance if isinstance(value.type, TypeDecorator) else value.type
    return _IsoTime(value) if isinstance(kind, DateTime) else value  # UTCDateTime decorates it


def page_columns(fields: Fields) -> list[Label[Any]]:
    """The fields as columns, in order, labelled with their keys."""
    return [_shown(value).label(key) for key, value in fields.items()]


def page_dicts(rows: Iterable[Sequence[Any]], fields: Fields) -> list[dict[str, Any]]:
    """Rows that start with `page_columns(fields)` as the page's dicts (columns after them,
    such as a cursor's, left out)."""
    keys = tuple(fields)
    return [dict(zip(keys, row, strict=False)) for row in rows]


def part_columns(parts: Sequence[Fields], which: int) -> list[Label[Any]]:
    """The columns of one arm of a UNION ALL of several tables' rows, as `page_columns` has
    them: every part's fields in turn, labelled `<part>_<key>`, the other parts' as NULLs of
    their type (a UNION gives each column one type)."""
    return [
        (column if index == which else cast(null(), column.type)).label(f"{index}_{column.name}")
        for index, fields in enumerate(parts)
        for column in page_columns(fields)
    ]


def part_dicts(
    rows: Iterable[Sequence[Any]], parts: Sequence[Fields], first: int = 0
) -> list[list[dict[str, Any]]]:
    """Rows of `part_columns` as each part's dicts, in the rows' order: a row's first column
    says its part; the parts' columns start at column `first`."""
    spans, at = [], first
    for fields in parts:
        spans.append((tuple(fields), at, at + len(fields)))
        at += len(fields)
    found: list[list[dict[str, Any]]] = [[] for _ in parts]
    for row in rows:
        keys, start, end = spans[row[0]]
        found[row[0]].append(dict(zip(keys, row[start:end], strict=True)))
    return found


@compiles(_IsoTime, "postgresql")
def _iso_postgresql(element: _IsoTime, compiler: SQLCompiler, **kw: Any) -> str:
    moment = compiler.process(element.clauses, **kw)  # timestamptz: the instant, in UTC
    return (
        f"coalesce(to_char({moment} AT TIME ZONE 'UTC', "
        f"'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"'), '')"
    )


@compiles(_IsoTime, "sqlite")
def _iso_sqlite(element: _IsoTime, compiler: SQLCompiler, **kw: Any) -> str:
    moment = compiler.process(element.clauses, **kw)  # stored as UTC "YYYY-MM-DD HH:MM:SS.ffffff"
    return f"coalesce(replace({moment}, ' ', 'T') || '+00:00', '')"
