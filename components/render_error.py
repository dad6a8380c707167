"""What a member sees when a page fails to render, in their language: it replaces Reflex's
English error screen ("An error occurred while rendering this page", the stack trace)."""

import reflex as rx
from reflex_components_core.base.error_boundary import ErrorBoundary

from components.i18n import t
from models.routes import url
from translations.catalog import N_
from translations.errors import BACK_TO_HOME

RENDER_FAILED = N_("Something went wrong while showing this page. Please reload it.")


def _fallback() -> rx.Component:
    return rx.el.section(
        rx.heading(t(RENDER_FAILED), size="5", margin_y="12px"),
        rx.el.a(t(BACK_TO_HOME), href=url("index")),
        class_name="error-page",
        role="alert",
        data_testid="render-error",
    )


def render_error_boundary() -> rx.Component:
    """The app-wide boundary: Reflex still reports the error to the backend's handler."""
    return ErrorBoundary.create(fallback_render=_fallback())
