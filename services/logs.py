"""Our own log lines (mail links in the outbox mode, purge runs, failures) on the server's
stderr: Reflex and granian configure only their own loggers.

LOG_FORMAT=json writes one JSON object a line (timestamp, level, logger, message, the request
or event id, and the record's extra fields) for a log collector; the default is readable text.
"""

import json
import logging
from datetime import UTC, datetime

from services.config import get_config
from services.outages import OutageLines
from services.request_ids import EVENT_ID, REQUEST_ID

OUR_PACKAGES = ("app", "services", "state")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# The attributes every LogRecord has: whatever else a record carries came as `extra=`.
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class ContextIds(logging.Filter):
    """Stamps each record with the id of the request or event it was written in."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.event_id = EVENT_ID.get()
        return True


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(
            (key, value)
            for key, value in record.__dict__.items()
            if key not in _STANDARD and value is not None
        )
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def log_handler(log_format: str) -> logging.Handler:
    handler = logging.StreamHandler()
    json_lines = log_format == "json"
    handler.setFormatter(JsonLines() if json_lines else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(ContextIds())
    return handler


# The job engine's loggers (docs/background-work.md): procrastinate's own warnings and errors,
# an outage in one line as ours (it logs each failed side task with its traceback); psycopg's
# pool logs every failed reconnection attempt, which the worker's own line already says.
LIBRARY_LEVELS = {"procrastinate": logging.WARNING, "psycopg.pool": logging.ERROR}


def show_our_logs(level: int = logging.INFO) -> None:
    handler = log_handler(get_config().log_format)
    for name in OUR_PACKAGES:
        _attach(name, handler, level)
    library_handler = log_handler(get_config().log_format)
    library_handler.addFilter(OutageLines())
    for name, library_level in LIBRARY_LEVELS.items():
        _attach(name, library_handler, library_level)
        logging.getLogger(name).propagate = False  # else the root's last resort prints it too


def _attach(name: str, handler: logging.Handler, level: int) -> None:
    logger = logging.getLogger(name)
    if not logger.handlers:
        logger.addHandler(handler)
        logger.setLevel(level)
