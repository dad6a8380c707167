"""Builds the Reflex app: theme, head, every route of the table in its layout, HTTP routes.
The screens and their load events are declared by the page modules (app/pages/registry.py)."""

from collections.abc import Callable

import reflex as rx

import app.job_modules
from app.document_head import DocumentHead
from app.early_form_posts import EarlyFormPosts
from app.event_errors import event_failed
from app.event_frames import EventFrames
from app.event_guard import guard_events
from app.event_metrics import measure_events
from app.http_api import http_api
from app.lander_variants import LanderVariants
from app.layouts import error_page, with_layout
from app.member_redirects import UnlistedMembers
from app.page_meta import NOT_FOUND, description
from app.pages.registry import Page, declared_pages
from app.pages.titled import titled_page
from app.shell_api import shell_url
from app.slashless_pages import SlashlessPages
from app.traffic_clicks import TrafficClicks
from app.upload_guard import guard_uploads
from components.connection_notice import connection_notice, notifications_label
from components.i18n import t
from components.render_error import render_error_boundary
from models.routes import ROUTES, Route
from services.jobs import run_jobs_here
from services.logs import show_our_logs
from services.loop_database import serve_on_loop
from services.payments.provider import warn_about_payments
from services.place_names import warm_up_in_background
from state.shell import ShellState

HEAD = [
    rx.el.link(rel="manifest", href="/manifest.webmanifest"),
    rx.el.link(rel="icon", href="/favicon.ico", sizes="any"),
    rx.el.link(rel="apple-touch-icon", href="/apple-touch-icon.png"),
    rx.el.meta(name="theme-color", content="#2a1248"),
    rx.el.meta(name="mobile-web-app-capable", content="yes"),
    rx.script(src=shell_url()),
]


def _page_builder(route: Route, page: Page | None) -> Callable[[], rx.Component]:
    screen = page.screen if page else None

    def build() -> rx.Component:
        return with_layout(route, screen() if screen else titled_page(route))

    # Reflex writes a page's memoized components into a module named after its builder's
    # module; one module per screen module gives each route its own JavaScript chunk
    # instead of one chunk of every screen loaded on every page.
    build.__module__ = (screen or titled_page).__module__
    return build


def _add_route(rx_app: rx.App, route: Route, page: Page | None) -> None:
    rx_app.add_page(
        _page_builder(route, page),
        route=route.path,
        title=t(route.title),
        description=t(description(route)),
        on_load=[
            ShellState.on_page_load(route.login_required),
            *(page.on_load if page else ()),
        ],
        image="/icon-512.png",
    )


show_our_logs()
app = rx.App(
    stylesheets=["/site.css"],
    head_components=HEAD,
    # The headers wrap the guard's refusals too; pages get their language in DocumentHead, at
    # their own address (SlashlessPages).
    api_transformer=[
        guard_uploads,
        EventFrames,
        EarlyFormPosts,
        SlashlessPages,
        DocumentHead,
        UnlistedMembers,  # inside TrafficClicks: a redirected landing's click is recorded
        TrafficClicks,  # outside DocumentHead: sees a HEAD as a HEAD
        LanderVariants,  # outside both: the page and the click name the same variant
        http_api(),
    ],
    toaster=rx.toast.provider(custom_attrs={"containerAriaLabel": notifications_label()}),
    # A failed event says "try again" in the visitor's language; an outage is one log line.
    backend_exception_handler=event_failed,
)
# Reflex's connection overlay and error screen speak English only: ours speak the visitor's.
app.app_wraps[5, "Overlay"] = lambda stateful: connection_notice() if stateful else None
app.app_wraps[55, "ErrorBoundary"] = lambda _stateful: render_error_boundary()
guard_events(app)  # bounds and rates on the websocket's events before Reflex reads them
app.register_lifespan_task(measure_events)  # after Reflex's, which made the event processor
app.register_lifespan_task(run_jobs_here)  # the job worker, unless JOB_WORKER=off
app.register_lifespan_task(serve_on_loop)  # the viewer checks' pool on PostgreSQL
app.register_lifespan_task(warm_up_in_background)  # landers' place names
warn_about_payments()
_pages = declared_pages()
for _route in ROUTES:
    _add_route(app, _route, _pages.get(_route.name))
app.add_page(
    lambda: with_layout(NOT_FOUND, error_page(404)),
    route="404",
    title=t(NOT_FOUND.title),
    description=t(description(NOT_FOUND)),
    on_load=ShellState.on_page_load,
)
