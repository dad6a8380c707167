"""What a member sees while the page cannot reach the server, in their language. It replaces
Reflex's own overlay (an English "Connection Error" title and "Cannot connect to server"
toast): after two failed attempts a notice says the page is reconnecting; it goes by itself."""

import reflex as rx
from reflex_components_core.core.banner import has_too_many_connection_errors

from components.i18n import t
from translations.catalog import N_

RECONNECTING = N_("No connection to the server. Trying again…")


def connection_notice() -> rx.Component:
    return rx.fragment(
        rx.cond(
            has_too_many_connection_errors,
            rx.el.div(
                rx.icon("wifi-off", size=18, aria_hidden="true"),
                rx.el.span(t(RECONNECTING)),
                role="status",
                class_name="connection-notice",
                data_testid="connection-notice",
            ),
        )
    )


def notifications_label() -> rx.Var[str]:
    """The name screen readers give the toasts' region (sonner's English "Notifications")."""
    return t(N_("Notifications"))
