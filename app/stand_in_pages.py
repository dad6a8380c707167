"""Prerendered pages for routes with dynamic parts: the landers' `/landers/gallery/[[...splat]]`
and a member's pages such as `/members/[id]/landing`. React Router prerenders only the paths it
is given, and such a route's addresses had no HTML of their own, so nothing the server could
write its parts into (app/document_head.py, components/server_parts.py): the page painted only
after the app had run.

A Reflex plugin adds one stand-in path per such route (the lander's bare path `/landers/gallery`,
member 0's `/members/0/landing`) to the paths React Router prerenders; any address of the route
is then served that HTML (`prerendered_path`), which the route hydrates, since it matches both
addresses and the page reads its member and slug from the address in the browser."""

import json
import re
from typing import Any

import reflex as rx

from models.routes import ROUTES, Route

_TAIL = "/[[...splat]]"
_ID = "[id]"
_PRERENDER = '"prerender": true'
# A member's pages, written by the server with the member in them.
MEMBER_PAGES = (
    "members-id",
    "members-id-landing",
    "members-id-landing2",
    "members-id-landing3",
    "members-id-signup",
)


def _stands_in(route: Route) -> bool:
    if route.name in MEMBER_PAGES:
        return True
    return route.path.endswith(_TAIL) and "[" not in route.path.removesuffix(_TAIL)


def _pattern(path: str) -> re.Pattern[str]:
    """The addresses of a route: `[id]` a member's number, the optional tail one segment."""
    fixed = re.escape(path.removesuffix(_TAIL)).replace(re.escape(_ID), r"[1-9][0-9]{0,17}")
    tail = "(?:/[^/]+)?" if path.endswith(_TAIL) else ""
    return re.compile(f"{fixed}{tail}/?")


STAND_INS = tuple(
    (_pattern(route.path), route.path.removesuffix(_TAIL).replace(_ID, "0"))
    for route in ROUTES
    if _stands_in(route)
)
STAND_IN_PATHS = tuple(stand_in for _, stand_in in STAND_INS)


def prerendered_path(path: str) -> str:
    """The address whose prerendered HTML serves `path` (itself for any other path)."""
    for pattern, stand_in in STAND_INS:
        if pattern.fullmatch(path):
            return stand_in
    return path


def with_stand_ins(config_js: str) -> str:
    """react-router.config.js, prerendering the stand-in paths too."""
    paths = json.dumps(list(STAND_IN_PATHS))
    listed = f'"prerender": async ({{getStaticPaths}}) => [...getStaticPaths(), ...{paths}]'
    return config_js.replace(_PRERENDER, listed)


class StandInPrerender(rx.plugins.Plugin):
    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"]("react-router.config.js", with_stand_ins)
