"""Token buckets for the events of Reflex's websocket: one per socket, one per client address.

A member's page sends few events: a hydrate and a few callbacks on each page, a click at a
time, and text fields debounced by Reflex (one event per 300 ms of typing at most); the site
has no typing indicator and no per-keystroke event. The numbers below leave several times that
room; a client sending faster has its events dropped (see app/event_guard.py). The buckets
live in each worker process: a socket is served by one worker, and an address spread over N
workers gets N times its allowance, which still bounds what one client costs each worker
without a Redis round trip per event.
"""

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

# Per socket (one tab): 10 events a second is about three times a fast typist's debounced
# fields plus clicks; a burst of 60 covers a page load with a flurry of clicks.
SOCKET_RATE, SOCKET_BURST = 10.0, 60.0
# Per client address: many members can share one (an office, a campus, a carrier's NAT), so
# ten tabs' worth; one client with many sockets is still held to this.
ADDRESS_RATE, ADDRESS_BURST = 100.0, 600.0
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


class EventRate:
    """`allows(sid)` takes one event from the socket's bucket and its address's."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._sockets: dict[str, tuple[Bucket, str]] = {}
        self._addresses: OrderedDict[str, Bucket] = OrderedDict()

    def connected(self, sid: str, address: str) -> None:
        """The socket's address (its bucket, when it has one, stays)."""
        bucket = self._sockets[sid][0] if sid in self._sockets else None
        fresh = Bucket(SOCKET_RATE, SOCKET_BURST, SOCKET_BURST, self._clock())
        self._sockets[sid] = (bucket or fresh, address)

    def forget(self, sid: str) -> None:
        self._sockets.pop(sid, None)

    def address_of(self, sid: str) -> str:
        return self._sockets[sid][1] if sid in self._sockets else ""

    def allows(self, sid: str) -> bool:
        now = self._clock()
        if sid not in self._sockets:
            self.connected(sid, "")
        bucket, address = self._sockets[sid]
        return bucket.take(now) and self._address_bucket(address, now).take(now)

    def _address_bucket(self, address: str, now: float) -> Bucket:
        bucket = self._addresses.pop(address, None) or Bucket(
            ADDRESS_RATE, ADDRESS_BURST, ADDRESS_BURST, now
        )
        self._addresses[address] = bucket
        if len(self._addresses) > ADDRESSES_TRACKED:
            self._addresses.popitem(last=False)
        return bucket
