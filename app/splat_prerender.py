"""Prerendered pages for routes whose only dynamic part is an optional tail (the landers'
`/landers/gallery/[[...splat]]`): React Router prerenders only paths without parameters, so
these pages had no HTML of their own and no server-written content (app/document_head.py).

A Reflex plugin lists each such route's path without its tail (`/landers/gallery`) among the
paths React Router prerenders; the page of `/landers/gallery/milf-amsterdam` is then that HTML
(`prerendered_path`), which the same route hydrates, since it matches both addresses."""

import json
from typing import Any

import reflex as rx

from models.lander_slug import slug_of
from models.routes import ROUTES

_TAIL = "/[[...splat]]"
_PRERENDER = '"prerender": true'
# Paths of routes whose only dynamic segment is their optional tail.
TAIL_ROUTES = tuple(
    route.path.removesuffix(_TAIL)
    for route in ROUTES
    if route.path.endswith(_TAIL) and "[" not in route.path.removesuffix(_TAIL)
)


def prerendered_path(path: str) -> str:
    """The address whose prerendered HTML serves `path` (itself for any other path)."""
    slug, bare = slug_of(path), path.rstrip("/")
    if slug and bare.endswith("/" + slug) and bare.removesuffix("/" + slug) in TAIL_ROUTES:
        return bare.removesuffix("/" + slug)
    return path


def with_tail_routes(config_js: str) -> str:
    """react-router.config.js, prerendering the tail routes' bare paths too."""
    paths = json.dumps(list(TAIL_ROUTES))
    listed = f'"prerender": async ({{getStaticPaths}}) => [...getStaticPaths(), ...{paths}]'
    return config_js.replace(_PRERENDER, listed)


class SplatPrerender(rx.plugins.Plugin):
    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"]("react-router.config.js", with_tail_routes)
