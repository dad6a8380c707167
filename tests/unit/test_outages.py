"""A database or Redis that cannot be reached is logged in one line; anything else with its
traceback (services/outages.py)."""

import logging

import pytest
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from services.outages import log_failure, unavailable_service

log = logging.getLogger("services.test_outages")
REFUSED = 'connection failed: connection to server at "127.0.0.1", port 5432 failed\nDETAIL: x'


class Wrapped(Exception):
    pass


def raised_from(cause: BaseException) -> Wrapped:
    try:
        raise Wrapped("while pushing") from cause
    except Wrapped as error:
        return error


@pytest.mark.parametrize(
    ("error", "service"),
    [
        (OperationalError("SELECT 1", {}, Exception(REFUSED)), "database"),
        (PoolTimeoutError("QueuePool limit reached"), "database"),
        (RedisConnectionError("Error 111 connecting to 127.0.0.1:6379."), "Redis"),
        (BusyLoadingError("Redis is loading the dataset in memory"), "Redis"),
        (raised_from(RedisConnectionError("gone")), "Redis"),
        (IntegrityError("INSERT", {}, Exception("duplicate key")), None),
        (ValueError("a bug"), None),
    ],
)
def test_an_outage_is_told_apart_from_a_bug(error: BaseException, service: str | None) -> None:
    assert unavailable_service(error) == service


def test_an_outage_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=log.name):
        try:
            raise OperationalError("SELECT 1", {}, Exception(REFUSED))
        except OperationalError:
            log_failure(log, "push to member %s failed", 7)

    [record] = caplog.records
    assert record.levelname == "ERROR" and record.exc_info is None
    assert record.getMessage() == (
        "push to member 7 failed: database unreachable (OperationalError: "
        '(builtins.Exception) connection failed: connection to server at "127.0.0.1", port 5432 '
        "failed)"
    )


def test_a_bug_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=log.name):
        log_failure(log, "effect failed", error=ValueError("a bug"))

    [record] = caplog.records
    assert record.levelname == "ERROR" and record.exc_info is not None
    assert record.getMessage() == "effect failed"
