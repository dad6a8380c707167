"""Password hashing runs in its own small, lower-priority pool, not on the event loop."""

import os
import threading

from services.password_work import HASHING_THREADS, with_password_work


def _where() -> tuple[str, int]:
    return threading.current_thread().name, os.getpriority(
        os.PRIO_PROCESS, threading.get_native_id()
    )


async def test_work_runs_in_the_password_pool_at_lower_priority() -> None:
    name, nice = await with_password_work(_where)
    assert name.startswith("password") and name != threading.main_thread().name
    assert nice > os.getpriority(os.PRIO_PROCESS, 0)


def test_the_pool_leaves_a_core_to_the_event_loop() -> None:
    cores = os.cpu_count() or 1
    assert HASHING_THREADS >= 1 and (cores > HASHING_THREADS or cores == 1)
