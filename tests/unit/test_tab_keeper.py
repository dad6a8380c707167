"""A worker's tab keeper after Redis lost its data: the socket records of the websockets it holds
stored again, their tabs registered again, and the tabs whose record was gone told to hydrate
(their state went with it); another worker's tabs and closed tabs are left alone. Needs Redis
(REDIS_URL, as in CI)."""

import os
import pickle
import uuid
from types import SimpleNamespace

import pytest
from redis.asyncio import Redis
from reflex.utils.token_manager import RedisTokenManager, SocketRecord

import state.tab_keeper as keeper
from services.tab_registry import MemoryTabRegistry

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set")


class Namespace:
    def __init__(self, manager: RedisTokenManager) -> None:
        self._token_manager = manager
        self.told: list[tuple[str, list]] = []

    async def emit_update(self, update, token: str) -> None:
        self.told.append((token, [event.name for event in update.events]))


async def test_the_tabs_redis_lost_are_kept_and_told_to_hydrate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    redis = Redis.from_url(REDIS_URL)
    manager = RedisTokenManager(redis)
    monkeypatch.setattr(manager, "_ensure_socket_record_task", lambda: None)
    monkeypatch.setattr(manager, "ensure_lost_and_found_task", lambda _emit: None)
    registry = MemoryTabRegistry()
    monkeypatch.setattr(keeper, "tab_registry", lambda: registry)
    kept, lost, foreign, closed = (str(uuid.uuid4()) for _ in range(4))
    for token in (kept, lost):
        manager.token_to_socket[token] = SocketRecord(
            instance_id=manager.instance_id, sid=f"sid-{token}"
        )
    manager.token_to_socket[foreign] = SocketRecord(instance_id="another-worker", sid="sid-foreign")
    await redis.set(manager._get_redis_key(kept), pickle.dumps(manager.token_to_socket[kept]))
    monkeypatch.setattr(keeper, "_held", {kept: 1, lost: 2, closed: 3})
    namespace = Namespace(manager)

    try:
        assert await keeper.keep_tabs(SimpleNamespace(event_namespace=namespace)) == (2, 1)

        assert namespace.told == [(lost, ["_remove_session_storage"])]
        for token in (kept, lost):
            assert await redis.exists(manager._get_redis_key(token))
        assert not await redis.exists(manager._get_redis_key(foreign))
        assert await registry.tokens(1) == [kept]
        assert await registry.tokens(2) == [lost]
        assert keeper._held == {kept: 1, lost: 2}  # the closed tab forgotten
    finally:
        await redis.delete(*(manager._get_redis_key(token) for token in (kept, lost)))
        await redis.aclose()
