"""Our own log lines (mail links in the outbox mode, purge runs, failures) on the server's
stderr: Reflex and granian configure only their own loggers."""

import logging

from services.outages import OutageLines

OUR_PACKAGES = ("app", "services", "state")
# The job engine's loggers (docs/background-work.md): procrastinate's own warnings and errors,
# an outage in one line as ours (it logs each failed side task with its traceback); psycopg's
# pool logs every failed reconnection attempt, which the worker's own line already says.
LIBRARY_LEVELS = {"procrastinate": logging.WARNING, "psycopg.pool": logging.ERROR}


def show_our_logs(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in OUR_PACKAGES:
        _attach(name, handler, level)
    library_handler = logging.StreamHandler()
    library_handler.setFormatter(handler.formatter)
    library_handler.addFilter(OutageLines())
    for name, library_level in LIBRARY_LEVELS.items():
        _attach(name, library_handler, library_level)
        logging.getLogger(name).propagate = False  # else the root's last resort prints it too


def _attach(name: str, handler: logging.Handler, level: int) -> None:
    logger = logging.getLogger(name)
    if not logger.handlers:
        logger.addHandler(handler)
        logger.setLevel(level)
