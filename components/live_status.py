"""What every logged-in page runs in the background: the periodic refresh, and the count of
unread messages plus new likes that shell.js puts in the tab title and on the app badge."""

import reflex as rx

from state.refresh import RefreshState
from state.session import SessionState


def live_status() -> rx.Component:
    return rx.cond(
        SessionState.logged_in,
        rx.el.span(
            hidden=True,
            data_attention=SessionState.attention,
            data_testid="attention",
            on_mount=RefreshState.start,
        ),
    )
