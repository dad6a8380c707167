"""/signup-matches: the new member's best matches, each with its percentage and a heart, and the
way on to all members."""

import reflex as rx

from app.pages.registry import page
from components.i18n import percent, t
from components.link_button import link_button
from components.member_card import member_card_with_heart
from models.routes import member_url, url
from state.signup_matches import SignupMatchesState as S


def _card(member: rx.Var[dict]) -> rx.Component:
    return rx.el.div(
        member_card_with_heart(member, S.like, S.unlike, member_url),
        rx.el.span(percent(member["percent"]), class_name="match-percent"),
        class_name="match-result signup-match",
        data_testid="signup-match",
    )


@page("signup-matches", on_load=[S.load])
def signup_matches_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Your matches"), class_name="page-title"),
        rx.el.p(
            t("Members who fit what you told us. Like the ones you fancy: they will hear of it."),
            class_name="page-lead",
        ),
        rx.cond(
            S.loaded,
            rx.el.div(rx.foreach(S.cards, _card), class_name="member-grid"),
            rx.center(rx.spinner(size="3"), class_name="swipe-loading"),
        ),
        rx.center(
            link_button(
                t("See all members"),
                href=url("members", signup_complete=1),
                size="3",
                data_testid="signup-matches-all",
            ),
            margin_top="24px",
        ),
        class_name="container",
        data_testid="page-signup-matches",
    )
