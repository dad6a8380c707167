"""Counting the SQL statements a page load or an event runs, as Zulip's
`assert_database_query_count` does, and catching statements run on the event-loop thread."""

import asyncio
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from threading import Lock

from sqlalchemy import Engine, event

ROOT = Path(__file__).resolve().parent.parent
# Code in these folders runs on the event loop in the server; below them, in the thread pool.
EVENT_LOOP_LAYERS = tuple(str(ROOT / folder) + "/" for folder in ("state", "app", "components"))


@contextmanager
def _listening(record: Callable[[str], None]) -> Iterator[None]:
    def before(_conn, _cursor, statement, _params, _context, _many) -> None:
        record(statement)

    event.listen(Engine, "before_cursor_execute", before)
    try:
        yield
    finally:
        event.remove(Engine, "before_cursor_execute", before)


@contextmanager
def statements() -> Iterator[list[str]]:
    """Every statement run (on any thread) while the block runs."""
    seen: list[str] = []
    lock = Lock()

    def record(statement: str) -> None:
        with lock:
            seen.append(statement)

    with _listening(record):
        yield seen


def _on_the_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _called_from_event_loop_code() -> str | None:
    """The app frame (state/, app/, components/) that led to this statement, if any."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith(EVENT_LOOP_LAYERS):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return None


@contextmanager
def statements_on_the_event_loop() -> Iterator[list[str]]:
    """Statements that handlers or routes ran on the thread of the event loop: each one
    stalls every other member served by that worker."""
    offenders: list[str] = []

    def record(statement: str) -> None:
        if _on_the_event_loop() and (where := _called_from_event_loop_code()):
            offenders.append(f"{where}: {statement.splitlines()[0][:80]}")

    with _listening(record):
        yield offenders
