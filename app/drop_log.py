"""What the websocket's guards drop is logged in one line per client and reason a minute.

A flood must not become a log flood: the first drop of a period is logged at once, the ones
after it only counted, and the next period's first line says how many there were. A line names
the client (its throttle key), the reason and the event (its name, cut), never its payload.
"""

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from reflex_base.utils.format import sanitize_client_log_value

from app.event_rate import ADDRESSES_TRACKED

LOG_PERIOD = 60.0  # seconds between two lines about one client and reason
MAX_LOGGED_NAME = 120  # characters of an event's name in a line

log = logging.getLogger(__name__)


class DropLog:
    """One warning per client and reason per LOG_PERIOD; the drops between are counted."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._seen: OrderedDict[tuple[str, str], tuple[float, int]] = OrderedDict()

    def note(self, client: str, reason: str, name: object = "-") -> None:
        now, key = self._clock(), (client, reason)
        logged_at, count = self._seen.pop(key, (now - LOG_PERIOD, 0))
        count += 1
        if now - logged_at >= LOG_PERIOD:
            shown = sanitize_client_log_value(name, max_length=MAX_LOGGED_NAME)
            log.warning(
                "dropped %d websocket event(s) from %s since the last line: %s (last: %s)",
                count,
                client or "-",
                reason,
                shown,
            )
            logged_at, count = now, 0
        self._seen[key] = (logged_at, count)
        if len(self._seen) > ADDRESSES_TRACKED:
            self._seen.popitem(last=False)


DROPS = DropLog()  # per worker process
