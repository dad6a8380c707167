"""Calls released together from threads, for the races a lock must close. They are a PostgreSQL
matter: SQLite lets one writer at a time in (BEGIN IMMEDIATE, services/database.py)."""

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import TypeVar

import pytest
from sqlalchemy import Engine

T = TypeVar("T")


def postgres_only(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("concurrent transactions: PostgreSQL")


def at_once(calls: Sequence[Callable[[], T]]) -> list[T | Exception]:
    """Each call in a thread of its own, all released by one barrier; what each returned or
    raised, in order."""
    start = Barrier(len(calls))

    def run(call: Callable[[], T]) -> T | Exception:
        start.wait()
        try:
            return call()
        except Exception as error:  # the caller counts refusals
            return error

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))
