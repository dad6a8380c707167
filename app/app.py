"""Builds the Reflex app: theme, head, every route of the table in its layout, HTTP routes."""

from collections.abc import Callable
from functools import partial

import reflex as rx

from app.http_api import http_api
from app.layouts import error_page, with_layout
from app.pages.landing import landing_page
from app.pages.members import members_page
from app.pages.static_pages import static_page, token_page
from app.pages.titled import titled_page
from app.routes import ROUTES, STATIC_PAGES, Layout, Route
from components.i18n import t
from state.members import MembersState
from state.shell import ShellState

_SCREENS: dict[str, Callable[[], rx.Component]] = {
    "index": landing_page,
    "members": members_page,
    "token": token_page,
    **{f"pages-{slug}": partial(static_page, slug) for slug in STATIC_PAGES},
}
_EXTRA_LOAD_EVENTS = {
    "index": [MembersState.load_first_page],
    "members": [MembersState.load_first_page],
}

HEAD = [
    rx.el.link(rel="manifest", href="/manifest.webmanifest"),
    rx.el.link(rel="icon", href="/favicon.ico", sizes="any"),
    rx.el.link(rel="apple-touch-icon", href="/apple-touch-icon.png"),
    rx.el.meta(name="theme-color", content="#2a1248"),
    rx.el.meta(name="mobile-web-app-capable", content="yes"),
    rx.script(src="/shell.js"),
]


def _screen(route: Route) -> rx.Component:
    build = _SCREENS.get(route.name)
    return with_layout(route, build() if build else titled_page(route))


def _add_route(app: rx.App, route: Route) -> None:
    app.add_page(
        lambda: _screen(route),
        route=route.path,
        title=t(route.title),
        on_load=[ShellState.on_page_load, *_EXTRA_LOAD_EVENTS.get(route.name, [])],
        image="/icon-512.png",
    )


app = rx.App(
    stylesheets=["/site.css"],
    head_components=HEAD,
    api_transformer=http_api(),
)
for _route in ROUTES:
    _add_route(app, _route)
app.add_page(
    lambda: with_layout(Route("404", "/404", "Page not found", Layout.DEFAULT), error_page(404)),
    route="404",
    title=t("Page not found"),
    on_load=ShellState.on_page_load,
)
