"""Screens whose content belongs to a later capability show their title in their layout."""

import reflex as rx

from components.i18n import t
from models.routes import Route


def titled_page(route: Route) -> rx.Component:
    return rx.el.div(
        rx.el.h1(t(route.title), class_name="page-title"),
        class_name="container",
        data_testid=f"page-{route.name}",
    )
