"""SQL that PostgreSQL and SQLite spell differently: JSON parsed once for many lookups, the
text items of a JSON array, and whole years between two dates. Each renders for the dialect
the statement runs on."""

from typing import Any

from sqlalchemy import JSON, ColumnElement, Integer, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement


class _ParsedJson(FunctionElement):
    type = JSON()
    name = "parsed_json"
    inherit_cache = True


@compiles(_ParsedJson)
def _parsed_json_sqlite(element: _ParsedJson, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.clauses, **kw)


@compiles(_ParsedJson, "postgresql")
def _parsed_json_postgresql(element: _ParsedJson, compiler: SQLCompiler, **kw: Any) -> str:
    return f"CAST({compiler.process(element.clauses, **kw)} AS JSONB)"


def parsed_json(value: ColumnElement) -> ColumnElement:
    """JSON that many lookups read: PostgreSQL parses its JSON text on every lookup, and its
    binary JSONB once. SQLite has only the text."""
    return _ParsedJson(value)


class _JsonItems(FunctionElement):
    """The items of a JSON array as text, one row each; none when the value is not an array."""

    name = "json_items"
    inherit_cache = True


@compiles(_JsonItems)
def _json_items_sqlite(element: _JsonItems, compiler: SQLCompiler, **kw: Any) -> str:
    value = compiler.process(element.clauses, **kw)
    return f"json_each(CASE WHEN json_type({value}) = 'array' THEN {value} END)"


@compiles(_JsonItems, "postgresql")
def _json_items_postgresql(element: _JsonItems, compiler: SQLCompiler, **kw: Any) -> str:
    value = f"CAST({compiler.process(element.clauses, **kw)} AS JSONB)"  # JSON or JSONB
    return f"jsonb_array_elements_text(CASE WHEN jsonb_typeof({value}) = 'array' THEN {value} END)"


def json_items(array: ColumnElement) -> ColumnElement[str]:
    """A column of the array's items, for `select(items)` and `x.in_(select(items))`."""
    return _JsonItems(array).table_valued("value").c.value


def json_contains(array: ColumnElement, value: ColumnElement[str]) -> ColumnElement[bool]:
    """The JSON array of texts holds `value`."""
    return value.in_(select(json_items(array)).scalar_subquery())


class _YearsBetween(FunctionElement):
    type = Integer()
    name = "years_between"
    inherit_cache = True


def years_between(born: ColumnElement, day: ColumnElement) -> ColumnElement[int]:
    """Whole years from `born` to `day`: an age, counted as models/directory.age_on counts."""
    return _YearsBetween(born, day)


@compiles(_YearsBetween)
def _years_between_sqlite(element: _YearsBetween, compiler: SQLCompiler, **kw: Any) -> str:
    born, day = (compiler.process(clause, **kw) for clause in element.clauses)
    return (
        f"(CAST(strftime('%Y', {day}) AS INTEGER) - CAST(strftime('%Y', {born}) AS INTEGER)"
        f" - (strftime('%m-%d', {day}) < strftime('%m-%d', {born})))"
    )


@compiles(_YearsBetween, "postgresql")
def _years_between_postgresql(element: _YearsBetween, compiler: SQLCompiler, **kw: Any) -> str:
    born, day = (compiler.process(clause, **kw) for clause in element.clauses)
    return f"CAST(date_part('year', age({day}, {born})) AS INTEGER)"
