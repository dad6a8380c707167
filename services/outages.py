"""A database or Redis that cannot be reached, told apart from a bug.

During an outage every click and every background round fails the same way; a traceback for
each would bury the log. `log_failure` writes one line naming the service for an outage and
keeps the traceback for anything else.
"""

import logging
import sys

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

# Connection refused or lost, a pool that hands out no connection, a statement or lock timeout
# (psycopg raises those as OperationalError too), Redis away or still loading its data.
DATABASE_DOWN = (OperationalError, PoolTimeoutError, DisconnectionError)
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError)
MAX_DETAIL = 200  # characters of the driver's message kept in the line


def unavailable_service(error: BaseException | None) -> str | None:
    """The service `error` (or an error it was raised from) says cannot be reached, "database"
    or "Redis"; None for anything else."""
    while error is not None:
        if isinstance(error, DATABASE_DOWN):
            return "database"
        if isinstance(error, REDIS_DOWN):
            return "Redis"
        error = error.__cause__
    return None


def log_failure(
    log: logging.Logger, message: str, *args: object, error: BaseException | None = None
) -> None:
    """Log `error` (else the exception being handled) after `message`: one line when the
    database or Redis is unreachable, with its traceback when it is something else."""
    error = error if error is not None else sys.exc_info()[1]
    service = unavailable_service(error)
    if service is None:
        log.error(message, *args, exc_info=error)
        return
    lines = str(error).strip().splitlines()
    detail = lines[0][:MAX_DETAIL] if lines else ""
    log.error(f"{message}: %s unreachable (%s: %s)", *args, service, type(error).__name__, detail)
