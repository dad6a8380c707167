"""Pages declare themselves: `@page("members", on_load=[...])` on a screen function names its
routes in the route table (models/routes.py, which holds path, layout and flags) and the events
its load runs after the frame's own. app/app.py collects what the modules declared."""

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import reflex as rx

from models.routes import Route, route_named

Screen = Callable[[], rx.Component]
S = TypeVar("S", bound=Screen)


@dataclass(frozen=True)
class Page:
    route: Route
    screen: Screen | None  # None: the route shows only its title until its capability is built
    on_load: tuple[rx.event.EventType, ...]


_DECLARED: dict[str, Page] = {}


def _declare(name: str, screen: Screen | None, on_load: Iterable) -> None:
    if name in _DECLARED:
        raise ValueError(f"route {name!r} is declared twice")
    _DECLARED[name] = Page(route_named(name), screen, tuple(on_load))


def page(*names: str, on_load: Iterable = ()) -> Callable[[S], S]:
    """Declare the decorated function as the screen of the named routes."""

    def declare(screen: S) -> S:
        for name in names:
            _declare(name, screen, on_load)
        return screen

    return declare


def title_only(*names: str, on_load: Iterable = ()) -> None:
    """Routes whose screen is still only their title, with the events their load needs."""
    for name in names:
        _declare(name, None, on_load)


def declared_pages() -> dict[str, Page]:
    """What the page modules of this package declare, by route name (imported here first)."""
    for module in pkgutil.iter_modules([str(Path(__file__).parent)], f"{__package__}."):
        importlib.import_module(module.name)
    return dict(_DECLARED)
