"""The start-up's heap is frozen out of the collector's full passes once the warm-up built
what it builds, before the process says it is warm (services/heap.py,
services/place_names.warm_up_in_background): the benches wait for that line."""

import gc
import logging

import pytest

import services.place_names
from services.place_names import WARMED_UP, warm_up_in_background


class _FrozenWhenSaid(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.said: list[tuple[str, int]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.said.append((record.getMessage(), gc.get_freeze_count()))


async def test_the_heap_is_frozen_after_the_warm_up_and_before_it_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frozen_while_warming: list[int] = []
    monkeypatch.setattr(
        services.place_names, "warm_up", lambda: frozen_while_warming.append(gc.get_freeze_count())
    )
    handler, logger = _FrozenWhenSaid(), logging.getLogger(services.place_names.__name__)
    logger.addHandler(handler)
    monkeypatch.setattr(logger, "level", logging.INFO)
    try:
        await warm_up_in_background()
    finally:
        gc.unfreeze()
        logger.removeHandler(handler)
    assert frozen_while_warming == [0]
    [(said, frozen)] = handler.said
    assert said == WARMED_UP and frozen > 0
