"""Which browser tabs a member has open: member id -> Reflex client tokens, for live delivery.

A tab registers on every page load and periodic refresh (at most every 300 s), so an entry not
renewed within `TAB_TTL_SECONDS` belongs to a closed tab and is dropped. With `REDIS_URL` the
registry lives in Redis (one sorted set per member, scored by last sight) and every worker sees
every tab; without it, one worker serves everything and a dict in memory is enough.

Beside each tab the registry keeps what it shows, as its last registration said: an opaque
text (state/live.py writes the open chat and the tab's session there), for a push that skips
the tab's state.
"""

import time
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Protocol

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from services.config import get_config

TAB_TTL_SECONDS = 900
# A member with a tab seen this recently is on the site: an open tab refreshes at least every
# 300 s (state/refresh.py), and with Redis the tab keeper renews it every 3 s.
ONLINE_SECONDS = 330
# One immediate retry (a pooled connection left dead by a Redis restart), no back-off: redis-py's
# default waits up to 14 s, inside the page load that holds the tab's state lock.
_RETRY = Retry(NoBackoff(), retries=1)
_KEY = "amorly:tabs:{}"
_SHOWS_KEY = "amorly:tab-shows:{}"
# KEYS: the member's tabs, what they show; ARGV: token, now, TTL, what it shows
_ADD = """
local oldest = tonumber(ARGV[2]) - tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. oldest)
if #expired > 0 then
  redis.call('ZREM', KEYS[1], unpack(expired))
  redis.call('HDEL', KEYS[2], unpack(expired))
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[3])
"""
# KEYS: each member's tabs, then what they show; ARGV: the oldest sighting still open. Per
# member: the tokens, then what each shows (false where nothing is known).
_TABS_OF = """
local found = {}
for i = 1, #KEYS, 2 do
  local tokens = redis.call('ZRANGEBYSCORE', KEYS[i], ARGV[1], '+inf')
  found[#found + 1] = tokens
  found[#found + 1] = #tokens > 0 and redis.call('HMGET', KEYS[i + 1], unpack(tokens)) or {}
end
return found
"""


class TabRegistry(Protocol):
    async def add(self, member_id: int, token: str, shows: str = "") -> None: ...

    async def remove(self, member_id: int, token: str) -> None: ...

    async def tokens(self, member_id: int, within: float = TAB_TTL_SECONDS) -> list[str]: ...

    # several members' tabs at once: client token -> what the tab shows ("" unknown)
    async def tabs_of(self, member_ids: Sequence[int]) -> dict[int, dict[str, str]]: ...

    async def renew(self, tabs: Mapping[str, int]) -> None: ...  # client token -> member


class MemoryTabRegistry:
    def __init__(self) -> None:
        self._seen: dict[int, dict[str, float]] = {}
        self._shows: dict[str, str] = {}

    async def add(self, member_id: int, token: str, shows: str = "") -> None:
        self._seen.setdefault(member_id, {})[token] = time.monotonic()
        self._shows[token] = shows

    async def remove(self, member_id: int, token: str) -> None:
        tabs = self._seen.get(member_id, {})
        tabs.pop(token, None)
        self._shows.pop(token, None)
        if not tabs:
            self._seen.pop(member_id, None)

    async def tokens(self, member_id: int, within: float = TAB_TTL_SECONDS) -> list[str]:
        now = time.monotonic()
        tabs = self._seen.get(member_id, {})
        for token in [token for token, seen in tabs.items() if seen < now - TAB_TTL_SECONDS]:
            await self.remove(member_id, token)
        return [
            token for token, seen in self._seen.get(member_id, {}).items() if seen >= now - within
        ]

    async def tabs_of(self, member_ids: Sequence[int]) -> dict[int, dict[str, str]]:
        return {
            member_id: {token: self._shows.get(token, "") for token in await self.tokens(member_id)}
            for member_id in member_ids
        }

    async def renew(self, tabs: Mapping[str, int]) -> None:
        now = time.monotonic()
        for token, member_id in tabs.items():
            self._seen.setdefault(member_id, {})[token] = now


class RedisTabRegistry:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._add = redis.register_script(_ADD)  # EVALSHA, the script's text sent once
        self._tabs_of = redis.register_script(_TABS_OF)

    async def add(self, member_id: int, token: str, shows: str = "") -> None:
        """One round trip; the tabs it finds expired leave both keys (the hash's TTL is renewed
        here, so their fields would stay for as long as the member keeps a tab open)."""
        keys = [_KEY.format(member_id), _SHOWS_KEY.format(member_id)]
        args = [token, time.time(), TAB_TTL_SECONDS, shows]
        await self._add(keys=keys, args=args)

    async def renew(self, tabs: Mapping[str, int]) -> None:
        """One round trip for all: a worker re-asserts its tabs every few seconds."""
        if not tabs:
            return
        now, members = time.time(), set(tabs.values())
        async with self._redis.pipeline(transaction=False) as pipe:
            for token, member_id in tabs.items():
                pipe.zadd(_KEY.format(member_id), {token: now})
            for member_id in members:
                pipe.expire(_KEY.format(member_id), TAB_TTL_SECONDS)
            await pipe.execute()

    async def remove(self, member_id: int, token: str) -> None:
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(_KEY.format(member_id), token)
            pipe.hdel(_SHOWS_KEY.format(member_id), token)
            await pipe.execute()

    async def tokens(self, member_id: int, within: float = TAB_TTL_SECONDS) -> list[str]:
        oldest = time.time() - within
        found = await self._redis.zrangebyscore(_KEY.format(member_id), oldest, "+inf")
        return _decoded(found)

    async def tabs_of(self, member_ids: Sequence[int]) -> dict[int, dict[str, str]]:
        """Several members' tabs and what each shows in one command (a message's recipient
        and sender): one script, not a pipeline of two commands a member, whose packing and
        parsing cost more Python than the round trip."""
        keys = [key.format(m) for m in member_ids for key in (_KEY, _SHOWS_KEY)]
        found = await self._tabs_of(keys=keys, args=[time.time() - TAB_TTL_SECONDS])
        return {
            member_id: {
                _text(token): _text(text or b"") for token, text in zip(tokens, shows, strict=True)
            }
            for member_id, tokens, shows in zip(member_ids, found[::2], found[1::2], strict=True)
        }


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _decoded(tokens: list[bytes | str]) -> list[str]:
    return [_text(token) for token in tokens]


@cache
def tab_registry() -> TabRegistry:
    url = get_config().redis_url
    return RedisTabRegistry(Redis.from_url(url, retry=_RETRY)) if url else MemoryTabRegistry()
