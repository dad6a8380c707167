"""Token buckets for Reflex's websocket: `Bucket` (one per socket, for its frames:
app/event_frames.py) and `EventRate` (one per client address, for its events), on
`KeyedBuckets` (a bounded bucket per key, also per member for the chat texts sent over HTTP:
app/chat_api.py).

A member's page sends few events: a hydrate and a few callbacks on each page, a click at a
time, and text fields debounced by Reflex (one event per 300 ms of typing at most); the site
has no typing indicator and no per-keystroke event. The numbers below leave several times that
room; a client sending faster has its frames or events dropped (see app/event_guard.py). The
buckets live in each worker process: a socket is served by one worker, and an address spread
over N workers gets N times its allowance, which still bounds what one client costs each worker
without a Redis round trip per event.
"""

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

# Per socket (one tab), every frame it sends: 10 a second is about three times a fast typist's
# debounced fields plus clicks (and engine.io's pong, one per 25 s); a burst of 60 covers a page
# load with a flurry of clicks.
SOCKET_RATE, SOCKET_BURST = 10.0, 60.0
# Per client address, the events of all its sockets. Many members can share one address (an
# office, a campus, a carrier's NAT; bench/chat.py's 200 members all come from 127.0.0.1), so
# the allowance is sized for hundreds of members, not one: a page load sends a hydrate and a few
# callbacks (about ten events), so a burst of 3,000 lets 300 members load a page at the same
# moment; 300 a second is one event a second from each of them, several times a member's
# average (a member mostly reads). It stops one host's many sockets, each held to SOCKET_RATE:
# past the burst such a host costs a worker at most a quarter of the probe's 1,200 events a
# second that slowed a log-in.
ADDRESS_RATE, ADDRESS_BURST = 300.0, 3_000.0
ADDRESSES_TRACKED = 10_000  # addresses remembered per worker, the least recently seen dropped


@dataclass
class Bucket:
    rate: float
    burst: float
    tokens: float
    at: float

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def socket_bucket(now: float) -> Bucket:
    """A new socket's bucket for its frames, full."""
    return Bucket(SOCKET_RATE, SOCKET_BURST, SOCKET_BURST, now)


class KeyedBuckets:
    """A full bucket per key when first seen; at most `kept` keys, the least recently seen
    dropped."""

    def __init__(
        self, rate: float, burst: float, kept: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.kept, self._clock = rate, burst, kept, clock
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> bool:
        now = self._clock()
        bucket = self._buckets.pop(key, None) or Bucket(self.rate, self.burst, self.burst, now)
        self._buckets[key] = bucket
        if len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return bucket.take(now)


class EventRate:
    """`allows(sid)` takes one event from the bucket of the socket's address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._sockets: dict[str, str] = {}  # sid: its client address
        self._addresses = KeyedBuckets(ADDRESS_RATE, ADDRESS_BURST, ADDRESSES_TRACKED, clock)

    def connected(self, sid: str, address: str) -> None:
        self._sockets[sid] = address

    def forget(self, sid: str) -> None:
        self._sockets.pop(sid, None)

    def address_of(self, sid: str) -> str:
        return self._sockets.get(sid, "")

    def allows(self, sid: str) -> bool:
        return self._addresses.take(self.address_of(sid))
