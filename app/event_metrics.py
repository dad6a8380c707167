"""Each Reflex event is counted and timed by handler (services/metrics.py) and runs with an
event id its log lines carry (services/request_ids.py, services/logs.py).

Reflex creates its event processor in a lifespan task registered before ours; `measure_events`
runs next and wraps that processor's `_execute_event`, which every event of the app passes
through (the browser's, chained and background ones), in the task that runs the event."""

import asyncio
from collections.abc import Awaitable, Callable
from time import perf_counter
from typing import Any

import reflex as rx

from services.metrics import EVENT_SECONDS, EVENTS
from services.request_ids import EVENT_ID

Execute = Callable[..., Awaitable[None]]


def measure_events(app: rx.App) -> None:
    """The lifespan task (app/app.py) that wraps the running app's event processor."""
    processor = app.event_processor
    processor._execute_event = measured(processor._execute_event)


def handler_label(registered_handler: Any) -> str:
    """`module.Class.method` of the handler: one of the app's registered handlers."""
    fn = registered_handler.handler.fn
    return f"{fn.__module__}.{fn.__qualname__}"


def measured(execute: Execute) -> Execute:
    async def execute_measured(*, entry: Any, registered_handler: Any) -> None:
        EVENT_ID.set(getattr(entry.ctx, "txid", None))  # Reflex's own id of the event
        handler, outcome, start = handler_label(registered_handler), "error", perf_counter()
        try:
            await execute(entry=entry, registered_handler=registered_handler)
            outcome = "ok"
        except asyncio.CancelledError:  # superseded (a newer page load) or shut down
            outcome = "cancelled"
            raise
        finally:
            EVENTS.labels(handler, outcome).inc()
            EVENT_SECONDS.labels(handler).observe(perf_counter() - start)

    return execute_measured
