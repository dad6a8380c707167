"""A memo's module fetched when its component first mounts, instead of with the page.

Reflex compiles an `@rx.memo` into the module of the Python module that defines it and imports
that statically wherever the memo is used. `lazy` renders the memo through Reflex's `ClientSide`
loader (a `NoSSRComponent`): the page's bundle no longer holds it, and the browser fetches it
the first time it mounts. Until then it renders nothing, so a lazy part belongs where a moment
without it is harmless (the signup's later steps, mounted with the modal's first step)."""

from functools import cache

import reflex as rx
from reflex_base.components.component import NoSSRComponent


def lazy(memo: rx.Component) -> rx.Component:
    """The component `memo` (an `@rx.memo` instance) makes, loaded on its first mount."""
    return _loader(memo.library, memo.tag).create()


@cache
def _loader(library: str, tag: str) -> type[NoSSRComponent]:
    namespace = {"__module__": __name__, "library": library, "tag": tag}
    return type(f"Lazy{tag}", (NoSSRComponent,), namespace)
