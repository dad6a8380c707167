"""A link that looks like a button: one <a>, one tab stop. A button inside a link is invalid
HTML, and the keyboard stops on both."""

import reflex as rx
from reflex.components.react_router import link as router_link


def link_button(
    *children: rx.Component | rx.Var | str, href: rx.Var | str, **props
) -> rx.Component:
    """Radix's button (`props`: size, variant, colour, test id…) drawn as React Router's link,
    which changes the page without reloading it."""
    return rx.button(router_link(*children, to=href), as_child=True, **props)
