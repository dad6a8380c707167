"""The gallery lander (`/landers/gallery/{slug?}`): the niche's headline and counted number, a
grid of its members nearest the visitor, and the signup starting on the page."""

import reflex as rx

from components.landers.common import (
    LANDER,
    grid_html,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    signup_button,
)
from components.server_parts import PageRequest, server_html

KIND = "gallery"
SHOWN = 24  # four rows of six on a wide screen, twelve of two on a phone


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN)
    return {
        lander_mark("head"): head_html(view, request.locale),
        lander_mark("grid"): grid_html(view.found, request.settings, request.locale),
    }


def gallery_lander() -> rx.Component:
    return lander_frame(
        KIND,
        server_html(LANDER, "head"),
        signup_button(),
        server_html(LANDER, "grid"),
        rx.el.div(signup_button(), class_name="lander-cta-row"),
    )
