"""Whether this instance can serve: the database, Redis (when configured) and the photo store
(its folder or bucket) answer, each within CHECK_SECONDS. The load balancer asks through
/readyz (app/ops_api.py)."""

import asyncio
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis
from sqlalchemy import text

from services import database
from services.config import get_config
from services.outages import TIMED_OUT, UNREACHABLE
from services.photo_store import photo_store

CHECK_SECONDS = 2.0
OK = "ok"
Check = Callable[[], Awaitable[None]]


async def readiness() -> dict[str, str]:
    """Each dependency's state: OK, UNREACHABLE or TIMED_OUT; all checked at once."""
    checks = _checks()
    states = await asyncio.gather(*(_state(check) for check in checks.values()))
    return dict(zip(checks, states, strict=True))


def _checks() -> dict[str, Check]:
    checks: dict[str, Check] = {"database": _database}
    if url := get_config().redis_url:
        checks["redis"] = lambda: _redis(url)
    checks["photos"] = _photo_store
    return checks


async def _state(check: Check) -> str:
    try:
        await asyncio.wait_for(check(), CHECK_SECONDS)
    except TimeoutError:
        return TIMED_OUT
    except Exception:
        return UNREACHABLE
    return OK


async def _database() -> None:
    await asyncio.to_thread(_select_one)


def _select_one() -> None:
    with database.get_engine().connect() as connection:
        connection.execute(text("SELECT 1"))


async def _redis(url: str) -> None:
    client = Redis.from_url(url, socket_connect_timeout=CHECK_SECONDS, socket_timeout=CHECK_SECONDS)
    try:
        await client.ping()
    finally:
        await client.aclose()


async def _photo_store() -> None:
    """The photos' folder or bucket (services/photo_store.py) can be written to."""
    await asyncio.to_thread(lambda: photo_store().check())
