"""/appeal/<token>: a statement of reasons and the form to contest it (docs/moderation.md)."""

import reflex as rx

from app.pages.registry import page
from components.i18n import t
from components.statement import statement_view
from state.appeal import AppealState


@page("appeal", on_load=[AppealState.load])
def appeal_page() -> rx.Component:
    return rx.el.article(
        rx.el.h1(t("Statement of reasons"), class_name="page-title"),
        rx.el.div(statement_view(), class_name="card"),
        class_name="container static-page",
        max_width="820px",
        data_testid="appeal-page",
    )
