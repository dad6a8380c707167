"""The error SQLAlchemy raises when PostgreSQL refuses connections, for tests that fake a
database outage (tests/unit/test_outages.py meets the real one)."""

import psycopg
from sqlalchemy.exc import OperationalError

REFUSED = (
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused'
)


def database_refused() -> OperationalError:
    return OperationalError("SELECT", {}, psycopg.OperationalError(REFUSED))
