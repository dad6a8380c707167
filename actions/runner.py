"""The one async runner: actions and reads run in a thread pool, never on the event loop.

`act` runs an action (a function returning `Done`), then dispatches its effects and starts the
jobs it deferred that run in this process (SQLite, services/jobs.py); `read` runs a
query that changes nothing. The pool is as large as the database pool, so a worker's event
loop keeps answering other members while a statement waits on a lock or a slow disk. (The one
exception: on PostgreSQL the viewer checks run as asynchronous statements on the event loop's
own pool, services/loop_database.py, and come here only when that pool cannot serve them.)
"""

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Generic, ParamSpec, TypeVar

from actions.effects import dispatch
from services.database import pool_capacity
from services.jobs import Call, collecting, start
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


def _collected(action: Callable[..., Done[T]], *args, **kwargs) -> tuple[Done[T], list[Call]]:
    """The action's result, and the jobs it deferred that run in this process (SQLite)."""
    with collecting() as calls:
        return action(*args, **kwargs), calls


async def _acted(executor: Executor, action: Callable[..., Done[T]], *args, **kwargs) -> T:
    work = partial(_collected, action, *args, **kwargs)
    future = asyncio.get_running_loop().run_in_executor(executor, work)
    future.add_done_callback(_dispatch_effects)
    # Shielded: a caller cancelled meanwhile (a tab that closed) does not cancel the effects of
    # what the action committed.
    return (await asyncio.shield(future))[0].value


def _dispatch_effects(future: asyncio.Future) -> None:
    if not future.cancelled() and future.exception() is None:
        done, calls = future.result()
        start(calls)
        dispatch(done.effects)


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
