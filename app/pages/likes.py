"""/likes and /likes/[type]: the likes received (new ones first), given, and the matches
(members who like each other, each with a way to start the chat), page by page."""

import reflex as rx

from actions.likes import GIVEN, MATCHES, RECEIVED
from app.pages.registry import page
from components.i18n import t
from components.link_button import link_button
from components.member_card import match_card, member_card_with_heart
from models.routes import liked_member_url, likes_url, url
from state.likes import LIKES_GRID_ID, NEWS_CHECKS, LikesState
from state.session import SessionState
from translations.catalog import N_

EMPTY_TEXTS = {
    RECEIVED: N_("Nobody has liked you yet. Members who like you show up here."),
    GIVEN: N_("You have not liked anyone yet. Tap the heart on a profile you fancy."),
    MATCHES: N_("No matches yet. When someone you like likes you back, it's a match."),
}


def _tab(kind: str, label: str, count: rx.Component) -> rx.Component:
    return rx.link(
        t(label),
        count,
        href=likes_url(kind),
        class_name="likes-tab",
        data_selected=LikesState.kind == kind,
        underline="none",
        data_testid=f"likes-tab-{kind}",
    )


def _tabs() -> rx.Component:
    new_count = rx.cond(
        SessionState.likes_badge != "",
        rx.el.span(SessionState.likes_badge, class_name="likes-tab-count", data_testid="new-count"),
    )
    return rx.el.nav(
        _tab(RECEIVED, N_("Received"), new_count),
        _tab(GIVEN, N_("Given"), rx.fragment()),
        _tab(MATCHES, N_("Matches"), rx.fragment()),
        class_name="likes-tabs",
    )


def _empty() -> rx.Component:
    return rx.el.div(
        rx.icon("heart", size=36, class_name="likes-empty-icon"),
        rx.text(
            rx.match(
                LikesState.kind,
                *((kind, t(text)) for kind, text in EMPTY_TEXTS.items() if kind != RECEIVED),
                t(EMPTY_TEXTS[RECEIVED]),
            )
        ),
        link_button(t("Browse members"), href=url("members"), size="3"),
        class_name="card likes-empty",
        data_testid="likes-empty",
    )


def _card(member: rx.Var[dict]) -> rx.Component:
    return rx.cond(
        LikesState.kind == MATCHES,
        match_card(member, liked_member_url),
        member_card_with_heart(member, LikesState.like, LikesState.unlike, liked_member_url),
    )


def _grid() -> rx.Component:
    return rx.fragment(
        rx.el.div(
            rx.foreach(LikesState.cards, _card),
            id=LIKES_GRID_ID,
            class_name="member-grid",
            data_testid="likes-grid",
        ),
        rx.cond(
            LikesState.has_more,
            rx.center(
                rx.button(
                    t("Show more"),
                    on_click=LikesState.load_more,
                    variant="soft",
                    size="3",
                    data_testid="likes-more",
                ),
                margin_top="20px",
            ),
        ),
    )


@page("likes", "likes-type", on_load=[LikesState.load_page, *NEWS_CHECKS])
def likes_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Likes"), class_name="page-title"),
        _tabs(),
        rx.cond(
            LikesState.loaded & (LikesState.cards.length() == 0),
            _empty(),
            _grid(),
        ),
        class_name="container",
        data_testid="page-likes",
    )
