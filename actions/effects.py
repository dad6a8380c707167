"""What happens after a commit that may be lost: the live updates to open tabs (best-effort, with
their catch-up). What must not be lost (mails, pushes, builds) is a job (services/jobs.py).

An action returns effects as plain data (a dataclass per kind); the layers above subscribe a
handler to each kind with `@handles(Kind)`. The runner dispatches them only after the action's
transaction committed, each handler in its own background task, so a slow or failing effect
never holds up the member who acted and never undoes what was stored.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from services.jobs import settle as settle_jobs
from services.outages import log_failure

E = TypeVar("E")
Handler = Callable[[Any], Awaitable[None]]

log = logging.getLogger(__name__)
_handlers: dict[type, list[Handler]] = {}
_tasks: set[asyncio.Task] = set()


def handles(kind: type[E]) -> Callable[[Callable[[E], Awaitable[None]]], Callable]:
    """Subscribe the decorated coroutine function to effects of `kind`."""

    def subscribe(handler: Callable[[E], Awaitable[None]]) -> Callable[[E], Awaitable[None]]:
        _handlers.setdefault(kind, []).append(handler)
        return handler

    return subscribe


def dispatch(effects: Iterable[object]) -> None:
    """Start the handlers of each effect in the background; a durable one (a job deferred in
    the transaction, services/jobs.py) is already taken care of."""
    for effect in effects:
        if getattr(effect, "durable", False):
            continue
        handlers = _handlers.get(type(effect), [])
        if not handlers:
            log.warning("no handler for effect %s", type(effect).__name__)
        for handler in handlers:
            spawn(handler(effect))


def spawn(work: Awaitable[None]) -> None:
    """Run `work` in the background; a failure is logged, never raised to anyone."""
    task = asyncio.ensure_future(work)
    _tasks.add(task)
    task.add_done_callback(_finished)


def _finished(task: asyncio.Task) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log_failure(log, "effect failed", error=task.exception())


async def settle() -> None:
    """Wait until every effect this event loop started so far (and those they started) has
    finished, and run the jobs deferred so far (services/jobs.py). Effects of a loop that has
    closed (a test's, left unfinished) never will: they are let go."""
    loop = asyncio.get_running_loop()
    _tasks.difference_update([task for task in _tasks if task.get_loop().is_closed()])
    while pending := [task for task in _tasks if not task.done() and task.get_loop() is loop]:
        await asyncio.gather(*pending, return_exceptions=True)
    await settle_jobs()
