"""Site settings cached per worker process, refreshed after a short time-to-live."""

import time
from threading import Lock

from models.site_settings import SiteSettings, load_settings
from services.database import db_session

CACHE_SECONDS = 30.0

_lock = Lock()
_cached: tuple[float, SiteSettings] | None = None


def current_settings() -> SiteSettings:
    global _cached
    with _lock:
        if _cached is None or time.monotonic() - _cached[0] > CACHE_SECONDS:
            with db_session() as db:
                _cached = (time.monotonic(), load_settings(db))
        return _cached[1]


def forget_cached_settings() -> None:
    """Drop this worker's copy, e.g. after an edit, so the next read sees the database."""
    global _cached
    with _lock:
        _cached = None
