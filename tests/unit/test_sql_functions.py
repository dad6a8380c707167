"""The SQL that PostgreSQL and SQLite spell differently gives the same answers in both: ages
as models/directory.age_on counts them (29 February too), and the items of JSON arrays, with
nothing from a value that is not an array."""

from datetime import date, timedelta

import pytest
from sqlalchemy import JSON, Date, String, bindparam, func, literal, null, select
from sqlmodel import Session

from models.directory import age_on
from models.sql_functions import json_contains, json_items, parsed_json, years_between

BIRTHDAYS = (date(2000, 2, 29), date(1999, 3, 1), date(1990, 12, 31), date(2001, 1, 1))


def test_years_between_counts_an_age_as_age_on_does(db: Session) -> None:
    born, day = bindparam("born", type_=Date), bindparam("day", type_=Date)
    statement = select(years_between(born, day))
    days = [date(2027, 2, 27) + timedelta(days=n) for n in range(4)]  # 27 Feb to 2 Mar
    days += [date(2028, 2, 28) + timedelta(days=n) for n in range(3)]  # a leap year
    days += [date(2026, 12, 30), date(2026, 12, 31), date(2027, 1, 1)]
    for born_on in BIRTHDAYS:
        for today in days:
            ages = db.exec(statement, params={"born": born_on, "day": today}).one()[0]
            assert ages == age_on(born_on, today), (born_on, today)


@pytest.mark.parametrize(
    ("value", "items"),
    [
        (["wine", "art"], ["wine", "art"]),
        ([], []),
        (None, []),  # JSON null
        ({"wine": 1}, []),
        ("wine", []),
    ],
)
def test_json_items_of_an_array_and_of_anything_else(db: Session, value: object,
                                                     items: list) -> None:  # fmt: skip
    array = parsed_json(literal(value, JSON))
    assert list(db.exec(select(json_items(array))).scalars()) == items
    assert db.exec(select(json_contains(array, literal("wine", String)))).one()[0] == (
        "wine" in items
    )


def test_json_items_of_a_missing_value_are_none(db: Session) -> None:
    missing = null()  # SQL NULL, as from a left join without a row
    assert db.exec(select(func.count(json_items(missing)))).one()[0] == 0
