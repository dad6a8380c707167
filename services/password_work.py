"""Where password hashing runs: a small thread pool that leaves a CPU core to the event loop.

argon2id is slow on purpose (about 20 ms of CPU, memory-hard). Run on the default executor, ten
log-ins at once would occupy every core and every other member's events would wait behind
them; here they queue for at most `cpu_count - 1` threads, which also run at a lower
scheduling priority (Linux nice +10 per thread), so the event loop gets the CPU first.
"""

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

HASHING_THREADS = max(1, (os.cpu_count() or 2) - 1)
LOWER_PRIORITY = 10


def _yield_to_event_loop() -> None:
    """Lower this worker thread's priority (on Linux `setpriority` on a thread id does that)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWER_PRIORITY)


PASSWORD_POOL = ThreadPoolExecutor(
    max_workers=HASHING_THREADS, thread_name_prefix="password", initializer=_yield_to_event_loop
)


async def with_password_work(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run `fn` (which hashes or verifies a password) in the password pool."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(PASSWORD_POOL, partial(fn, *args, **kwargs))
