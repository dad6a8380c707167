"""The live registry of members' open tabs: added, listed, removed, forgotten after the TTL;
in memory, and in Redis when REDIS_URL is set (CI)."""

import os
import uuid
from dataclasses import dataclass

import pytest
from redis.asyncio import Redis

import services.tab_registry as registry_module
from services.tab_registry import MemoryTabRegistry, RedisTabRegistry, TabRegistry

REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.fixture(params=["memory", "redis"])
def registry(request: pytest.FixtureRequest) -> TabRegistry:
    """The Redis client connects lazily, in the test's own event loop."""
    if request.param == "memory":
        return MemoryTabRegistry()
    if not REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    return RedisTabRegistry(Redis.from_url(REDIS_URL))


@dataclass
class Clock:
    now: float = 1_000_000.0


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The registry's wall and monotonic clocks, moved on by hand."""
    fake = Clock()
    monkeypatch.setattr(registry_module.time, "time", lambda: fake.now)
    monkeypatch.setattr(registry_module.time, "monotonic", lambda: fake.now)
    return fake


def member_id() -> int:
    return uuid.uuid4().int % 10**9


async def test_tabs_are_listed_per_member_and_removed(registry: TabRegistry) -> None:
    anna, bob = member_id(), member_id()
    await registry.add(anna, "tab-1")
    await registry.add(anna, "tab-2")
    await registry.add(bob, "tab-3")
    await registry.add(anna, "tab-1")  # a refresh renews, it does not duplicate

    assert sorted(await registry.tokens(anna)) == ["tab-1", "tab-2"]
    await registry.remove(anna, "tab-1")
    assert await registry.tokens(anna) == ["tab-2"]
    assert await registry.tokens(bob) == ["tab-3"]
    assert await registry.tokens(member_id()) == []
    nobody = member_id()
    both = await registry.tabs_of([anna, bob, nobody])  # a message's two members at once
    assert both == {anna: {"tab-2": ""}, bob: {"tab-3": ""}, nobody: {}}


async def test_a_tab_not_renewed_within_the_ttl_is_forgotten(
    registry: TabRegistry, clock: Clock
) -> None:
    anna = member_id()
    await registry.add(anna, "old")
    clock.now += registry_module.TAB_TTL_SECONDS - 1
    await registry.add(anna, "new")
    clock.now += 2

    assert await registry.tokens(anna) == ["new"]


async def test_renewing_many_tabs_at_once_adds_and_keeps_them(registry: TabRegistry) -> None:
    anna, bob = member_id(), member_id()
    await registry.add(anna, "tab-1")
    await registry.renew({"tab-1": anna, "tab-2": anna, "tab-3": bob})
    await registry.renew({})

    assert sorted(await registry.tokens(anna)) == ["tab-1", "tab-2"]
    assert await registry.tokens(bob) == ["tab-3"]


async def test_only_tabs_seen_in_the_last_five_and_a_half_minutes_are_on_the_site(
    registry: TabRegistry, clock: Clock
) -> None:
    anna = member_id()
    await registry.add(anna, "closed")
    clock.now += 331
    await registry.add(anna, "open")
    clock.now += 300  # "open" refreshes at least every 300 s

    online = registry_module.ONLINE_SECONDS
    assert await registry.tokens(anna, within=online) == ["open"]
    assert sorted(await registry.tokens(anna)) == ["closed", "open"]  # still reachable live


async def test_each_tab_keeps_what_its_last_registration_said_it_shows(
    registry: TabRegistry,
) -> None:
    anna, bob = member_id(), member_id()
    await registry.add(anna, "chat", "7 key")
    await registry.add(anna, "list")
    await registry.add(bob, "elsewhere", "9 key")
    await registry.add(bob, "elsewhere")  # it left the chat
    await registry.renew({"chat": anna})  # the tab keeper keeps what it shows

    assert await registry.tabs_of([anna, bob]) == {
        anna: {"chat": "7 key", "list": ""},
        bob: {"elsewhere": ""},
    }
    await registry.remove(anna, "chat")
    assert await registry.tabs_of([anna]) == {anna: {"list": ""}}


async def test_a_registration_drops_what_expired_tabs_showed(clock: Clock) -> None:
    """Redis keeps what tabs show in a hash whose TTL each registration renews."""
    if not REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    redis = Redis.from_url(REDIS_URL)
    registry, anna = RedisTabRegistry(redis), member_id()
    await registry.add(anna, "closed", "7 key")
    await registry.add(anna, "open", "8 key")
    clock.now += registry_module.TAB_TTL_SECONDS + 1
    await registry.add(anna, "open", "9 key")

    shows = registry_module._SHOWS_KEY.format(anna)
    assert await redis.hgetall(shows) == {b"open": b"9 key"}
    assert await registry.tabs_of([anna]) == {anna: {"open": "9 key"}}
    await redis.aclose()
