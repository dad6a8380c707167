"""The id of the HTTP request or Reflex event being served, for the log lines it writes.

Each is a context variable: set by the request middleware (app/request_ids.py) or the event
wrapper (app/event_metrics.py) in the task that serves it, read by services/logs.py."""

import re
import secrets
from contextvars import ContextVar

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
EVENT_ID: ContextVar[str | None] = ContextVar("event_id", default=None)
# What a proxy or load balancer sends as X-Request-ID: a UUID, hex, or a similar token. Anything
# else (too long, spaces, quotes) could forge or break a log line and is replaced.
WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{8,128}")


def new_id() -> str:
    return secrets.token_hex(16)


def request_id_from(header: str | None) -> str:
    """The header's id when it is well-formed, else a fresh one."""
    if header and WELL_FORMED.fullmatch(header):
        return header
    return new_id()
