"""A fresh Reflex state tree per test, with the request headers a tab would send."""

from collections.abc import Callable
from typing import TypeVar

import pytest
import reflex as rx
from reflex.istate.data import RouterData

import app.app  # noqa: F401 - registers every state of the app
import services.site_settings

S = TypeVar("S", bound=rx.State)


def substate(root: rx.State, cls: type[S]) -> S:
    return root.get_substate(cls.get_full_name().split(".")[1:])


@pytest.fixture
def make_root(engine) -> Callable[..., rx.State]:
    services.site_settings.forget_cached_settings()

    def build(**headers: str) -> rx.State:
        root = rx.State(_reflex_internal_init=True)
        root.router = RouterData.from_router_data(
            {"headers": {k.replace("_", "-"): v for k, v in headers.items()}}
        )
        return root

    yield build
    services.site_settings.forget_cached_settings()
