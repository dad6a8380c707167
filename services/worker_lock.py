"""Periodic work that one worker does for all: the site runs several worker processes, each with
the same lifespan tasks, and a round that asks the payment provider about every due refund
should run once, not once per worker."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import Connection

from models.db import session_unlock, try_session_lock
from services import database


@asynccontextmanager
async def one_worker(name: str) -> AsyncIterator[bool]:
    """True inside when this worker holds the lock `name` (PostgreSQL's advisory lock, on a
    connection of its own for the block); False when another worker's round holds it. The
    connection is taken and released on a thread, off the event loop."""
    connection = await asyncio.to_thread(database.get_engine().connect)
    try:
        alone = await asyncio.to_thread(try_session_lock, connection, name)
        try:
            yield alone
        finally:
            if alone:
                await asyncio.to_thread(_unlock, connection, name)
    finally:
        await asyncio.to_thread(connection.close)


def _unlock(connection: Connection, name: str) -> None:
    """Unlock; a connection that cannot is closed for good (its lock ends with its session)
    rather than go back to the pool still holding it."""
    try:
        session_unlock(connection, name)
    except Exception:
        connection.invalidate()
        raise
