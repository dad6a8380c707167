"""The staff console's frame: the header of the staff layout (the console's name, the language
menu, a log-out link and navigation to the tools the viewer's roles open, models/staff_tools.
TOOLS), and each page's title above its content. Dense but readable at desktop width and at
375 px (the navigation scrolls sideways there)."""

import reflex as rx

from components.i18n import t
from components.navigation import LOGOUT_URL, language_menu
from models.routes import route_named
from models.staff_tools import TOOLS
from state.staff_shell import StaffShellState


def _tool_link(name: str, current: str) -> rx.Component:
    route = route_named(name)
    return rx.cond(
        StaffShellState.tools.contains(name),
        rx.link(
            t(route.title),
            href=route.path,
            class_name="staff-nav-link",
            aria_current="page" if name == current else None,
            underline="none",
            data_testid=f"staff-nav-{name}",
        ),
    )


def staff_header(current: str) -> rx.Component:
    """The console's own top bar (app/layouts.py, Layout.STAFF): the logo and the console's
    name, the language menu and the log-out link, with the tools' navigation under them."""
    return rx.el.header(
        rx.el.div(
            rx.link(
                rx.image(src="/logo.svg", alt=""),
                rx.el.span(t("Staff console")),
                href=route_named("staff").path,
                class_name="brand staff-brand",
                underline="none",
            ),
            rx.el.div(class_name="nav-spacer"),
            language_menu(),
            rx.el.a(
                t("Logout"),
                href=LOGOUT_URL,
                data_logout="post",  # shell.js posts it (a GET cannot log out)
                reload_document=True,
                class_name="staff-logout",
                data_testid="staff-logout",
            ),
            class_name="container topnav-inner",
        ),
        rx.el.nav(
            *(_tool_link(name, current) for name in TOOLS),
            class_name="container staff-nav",
            aria_label=t("Staff console"),
        ),
        class_name="topnav staff-topnav",
    )


def staff_shell(
    current: str, content: rx.Component, title: rx.Component | None = None
) -> rx.Component:
    """The page of staff route `current`: its title (the route's, unless `title` is given, e.g.
    "Report ABC123") above `content`."""
    heading = title if title is not None else t(route_named(current).title)
    return rx.el.div(
        rx.el.section(
            rx.el.h1(heading, class_name="staff-title"),
            content,
            class_name="staff-content",
        ),
        class_name="container staff-page",
        data_testid=f"page-{current}",
    )
