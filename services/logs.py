"""Our own log lines (mail links in the outbox mode, purge runs, failures) on the server's
stderr: Reflex and granian configure only their own loggers."""

import logging

OUR_PACKAGES = ("app", "services", "state")


def show_our_logs(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in OUR_PACKAGES:
        logger = logging.getLogger(name)
        if not logger.handlers:
            logger.addHandler(handler)
            logger.setLevel(level)
