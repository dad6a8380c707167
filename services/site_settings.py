"""Site settings cached per worker process, refreshed after a short time-to-live.

Handlers on the event loop ask `await site_settings()`, which reads the database in a thread
when the cached copy is stale; code already off the loop (actions, scripts) asks
`current_settings()`."""

import asyncio
import logging
import time
from threading import Lock

from sqlalchemy.exc import SQLAlchemyError

from models.site_settings import SETTINGS_WRITTEN, SiteSettings, load_settings
from services.config import get_config
from services.database import db_session, open_session

log = logging.getLogger(__name__)


def cache_seconds() -> float:
    """How long a worker keeps its copy (SETTINGS_CACHE_SECONDS): an edit reaches every worker
    within this time."""
    return get_config().settings_cache_seconds


_lock = Lock()
_cached: tuple[float, SiteSettings] | None = None


def _fresh() -> SiteSettings | None:
    cached = _cached
    if cached is None or time.monotonic() - cached[0] > cache_seconds():
        return None
    return cached[1]


def current_settings() -> SiteSettings:
    """The settings. Nobody waits for another thread here: with a stale copy one thread reloads
    while the others keep using it; with none (a fresh worker) each caller loads its own. So
    a thread holding a pool connection never waits for one that needs another connection."""
    if (fresh := _fresh()) is not None:
        return fresh
    stale = _cached
    if stale is None:
        return _load()
    if not _lock.acquire(blocking=False):
        return stale[1]
    try:
        return _fresh() or _load()
    finally:
        _lock.release()


def _load() -> SiteSettings:
    """Read the settings through this thread's open session (a transaction in progress already
    holds its connection), else through a session of their own; cache them, unless that
    transaction wrote settings: it may yet roll back, and no other thread may see its edit."""
    global _cached
    if (db := open_session()) is not None:
        with db.no_autoflush:
            settings = load_settings(db)
        if db.info.get(SETTINGS_WRITTEN):
            return settings
    else:
        with db_session() as own:
            settings = load_settings(own)
    _cached = (time.monotonic(), settings)
    return settings


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


def settings_at_hand() -> SiteSettings:
    """The cached copy however old, else the defaults: for code that must answer without
    waiting on the database (which may be the reason it is answering)."""
    cached = _cached
    return cached[1] if cached is not None else SiteSettings()


def forget_cached_settings() -> None:
    """Drop this worker's copy, e.g. after an edit, so the next read sees the database."""
    global _cached
    with _lock:
        _cached = None
