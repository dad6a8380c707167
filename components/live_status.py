"""What every logged-in page runs in the background: the periodic refresh, and the count of
unread messages plus new likes that shell.js puts in the tab title and on the app badge.
shell.js clicks the hidden button when a Web Push message arrives."""

import reflex as rx

from state.refresh import RefreshState
from state.session import SessionState


def live_status() -> rx.Component:
    return rx.cond(
        SessionState.logged_in,
        rx.fragment(
            rx.el.span(
                hidden=True,
                data_attention=SessionState.attention,
                data_testid="attention",
                on_mount=RefreshState.start,
            ),
            rx.el.button(
                hidden=True, id="push-refresh", type="button", on_click=RefreshState.push_arrived
            ),
        ),
    )
