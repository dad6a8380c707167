"""Site settings cached per worker process, refreshed after a short time-to-live.

Handlers on the event loop ask `await site_settings()`, which reads the database in a thread
when the cached copy is stale; code already off the loop (actions, scripts) asks
`current_settings()`."""

import asyncio
import logging
import time
from threading import Lock

from sqlalchemy.exc import SQLAlchemyError

from models.site_settings import SiteSettings, load_settings
from services.database import db_session

log = logging.getLogger(__name__)

CACHE_SECONDS = 30.0

_lock = Lock()
_cached: tuple[float, SiteSettings] | None = None


def _fresh() -> SiteSettings | None:
    cached = _cached
    if cached is None or time.monotonic() - cached[0] > CACHE_SECONDS:
        return None
    return cached[1]


def current_settings() -> SiteSettings:
    """The settings: one thread reloads a stale copy while the others keep using it, so an
    expired cache never makes every database thread queue here."""
    global _cached
    if (fresh := _fresh()) is not None:
        return fresh
    stale = _cached
    if not _lock.acquire(blocking=stale is None):
        return stale[1]
    try:
        if (fresh := _fresh()) is not None:
            return fresh
        with db_session() as db:
            _cached = (time.monotonic(), load_settings(db))
        return _cached[1]
    finally:
        _lock.release()


async def site_settings() -> SiteSettings:
    """The settings for a handler on the event loop: the cached copy, or read in a thread."""
    fresh = _fresh()
    return fresh if fresh is not None else await asyncio.to_thread(current_settings)


async def settings_or_defaults(what: str) -> SiteSettings:
    """The settings, or without the database the defaults, for `what` (a page, a script) that
    must be served all the same; the fallback is logged."""
    try:
        return await site_settings()
    except SQLAlchemyError:
        log.warning("%s with the default site settings: the database is away", what)
        return SiteSettings()


def forget_cached_settings() -> None:
    """Drop this worker's copy, e.g. after an edit, so the next read sees the database."""
    global _cached
    with _lock:
        _cached = None
