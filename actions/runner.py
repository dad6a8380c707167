"""The one async runner: actions and reads run in a thread pool, never on the event loop.

`act` runs an action (a function returning `Done`), then dispatches its effects; `read` runs a
query that changes nothing. The pool is as large as the database pool, so a worker's event
loop keeps answering other members while a statement waits on a lock or a slow disk.
"""

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Generic, ParamSpec, TypeVar

from actions.effects import dispatch
from services.database import pool_capacity
from services.password_work import with_password_work

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


async def act(action: Callable[P, Done[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run `action` off the event loop; after its commit, start its effects; its result."""
    done = await _in_pool(action, *args, **kwargs)
    dispatch(done.effects)
    return done.value


async def act_hashing(action: Callable[P, Done[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """`act` for an action that hashes or checks a password (argon2id is slow on purpose): it
    runs in the small password pool, which leaves a CPU core to the event loop."""
    done = await with_password_work(action, *args, **kwargs)
    dispatch(done.effects)
    return done.value


async def read(query: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run `query`, which changes nothing, off the event loop."""
    return await _in_pool(query, *args, **kwargs)
