"""/members: the members grid, page by page. Filters arrive with the search issue."""

import reflex as rx

from components.i18n import t
from components.member_card import member_card
from state.members import MembersState


def _login_prompt() -> rx.Component:
    return rx.el.div(
        rx.heading(t("Log in to see our members"), size="5"),
        rx.flex(
            rx.link(rx.button(t("Sign up free")), href="/signup"),
            rx.link(rx.button(t("Log in"), variant="soft"), href="/login"),
            gap="3",
            margin_top="12px",
        ),
        class_name="card",
    )


def members_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Search members"), class_name="page-title"),
        rx.cond(
            MembersState.login_required,
            _login_prompt(),
            rx.fragment(
                rx.el.div(rx.foreach(MembersState.members, member_card), class_name="member-grid"),
                rx.cond(
                    MembersState.has_more,
                    rx.center(
                        rx.button(
                            t("Show more"),
                            on_click=MembersState.load_more,
                            variant="soft",
                            size="3",
                        ),
                        margin_top="20px",
                    ),
                ),
            ),
        ),
        class_name="container",
    )
