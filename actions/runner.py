"""The one async runner: actions and reads run in a thread pool, never on the event loop.

`act` runs an action (a function returning `Done`), then dispatches its effects; `read` runs a
query that changes nothing. The pool is as large as the database pool, so a worker's event
loop keeps answering other members while a statement waits on a lock or a slow disk.
"""

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Generic, ParamSpec, TypeVar

from actions.effects import dispatch
from services.database import pool_capacity
from services.password_work import PASSWORD_POOL

T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True)
class Done(Generic[T]):
    """What an action returns: its result, and the effects to run once it committed."""

    value: T
    effects: tuple[object, ...] = field(default=())


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=pool_capacity(), thread_name_prefix="db")


async def _in_pool(work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    return await asyncio.get_running_loop().run_in_executor(_pool(), partial(work, *args, **kwargs))


async def _acted(executor: Executor, action: Callable[..., Done[T]], *args, **kwargs) -> T:
    future = asyncio.get_running_loop().run_in_executor(executor, partial(action, *args, **kwargs))
    future.add_done_callback(_dispatch_effects)
    # Shielded: a caller cancelled meanwhile (a tab that closed) does not cancel the effects of
    # what the action committed.
    return (await asyncio.shield(future)).value


def _dispatch_effects(future: asyncio.Future) -> None:
    if not future.cancelled() and future.exception() is None:
        dispatch(future.result().effects)


async def act(action: Callable[P, Done[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run `action` off the event loop; after its commit, start its effects; its result."""
    return await _acted(_pool(), action, *args, **kwargs)


async def act_hashing(action: Callable[P, Done[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """`act` for an action that hashes or checks a password (argon2id is slow on purpose): it
    runs in the small password pool, which leaves a CPU core to the event loop."""
    return await _acted(PASSWORD_POOL, action, *args, **kwargs)


async def read(query: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run `query`, which changes nothing, off the event loop."""
    return await _in_pool(query, *args, **kwargs)
