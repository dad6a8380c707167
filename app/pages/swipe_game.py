"""/swipe-game: the card stack with Pass, Undo and Like buttons (every drag has a button, and
the arrow keys press them: assets/shell.js), the likes left today, and past the limit when new
likes come with the Premium offer."""

import reflex as rx

from app.pages.registry import page
from components.i18n import t, tn
from components.link_button import link_button
from components.member_card import country_name
from models.routes import liked_member_url, url
from state.likes import NEWS_CHECKS
from state.session import SessionState
from state.swipe import UNLIMITED, SwipeState
from translations.catalog import N_

S = SwipeState
EMPTY = N_("You have seen everyone who fits for now. New members join every day.")
PREMIUM_OFFER = N_("Premium members like as many members as they want.")


def _card(member: rx.Var[dict], index: rx.Var[int]) -> rx.Component:
    return rx.el.article(
        rx.image(src=member["thumb"], alt=member["name"], loading="eager", draggable=False),
        rx.el.div(
            rx.el.h2(member["name"], ", ", member["age"], class_name="swipe-card-name"),
            rx.el.p(
                rx.cond(member["city"] != "", rx.fragment(member["city"], ", ")),
                country_name(member["country"]),
                class_name="swipe-card-place",
            ),
            rx.link(
                t("View profile"),
                href=liked_member_url(member["id"]),
                class_name="swipe-card-profile",
            ),
            class_name="swipe-card-info",
        ),
        class_name="swipe-card",
        data_depth=index,
        data_id=member["id"],
        aria_hidden=rx.cond(index == 0, "false", "true"),
        data_testid=rx.cond(index == 0, "swipe-top", "swipe-card"),
    )


def _round_button(icon: str, label: str, testid: str, **props) -> rx.Component:
    return rx.el.button(
        rx.icon(icon, size=26),
        type="button",
        class_name=f"swipe-button swipe-{testid}",
        aria_label=t(label),
        title=t(label),
        data_testid=f"swipe-{testid}",
        **props,
    )


def _buttons() -> rx.Component:
    top = S.cards[0]["id"]
    return rx.el.div(
        _round_button("x", N_("Pass"), "pass", on_click=S.skip(top)),
        _round_button(
            "undo-2", N_("Undo the last pass"), "undo", on_click=S.undo, disabled=~S.can_undo
        ),
        _round_button("heart", N_("Like"), "like", on_click=S.like(top), disabled=S.limit_reached),
        class_name="swipe-buttons",
    )


def _allowance() -> rx.Component:
    return rx.cond(
        S.likes_left != UNLIMITED,
        rx.el.p(
            tn("{count} like left today", "{count} likes left today", S.likes_left),
            class_name="swipe-allowance",
            data_testid="swipe-left",
        ),
    )


def _limit_reached() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("clock")),
        rx.el.div(
            rx.callout.text(
                rx.cond(
                    S.reset_hours > 0,
                    tn("New likes in {count} hour.", "New likes in {count} hours.", S.reset_hours),
                    tn(
                        "New likes in {count} minute.",
                        "New likes in {count} minutes.",
                        S.reset_minutes,
                    ),
                ),
                " ",
                t(PREMIUM_OFFER),
            ),
            link_button(
                rx.icon("crown", size=16),
                t("Get Premium"),
                href=url("premium"),
                color_scheme="amber",
            ),
            class_name="swipe-limit-text",
        ),
        color_scheme="amber",
        class_name="swipe-limit",
        data_testid="swipe-limit",
    )


def _empty() -> rx.Component:
    return rx.el.div(
        rx.icon("sparkles", size=36, class_name="likes-empty-icon"),
        rx.text(t(EMPTY)),
        link_button(t("Search members"), href=url("members"), size="3"),
        class_name="card likes-empty",
        data_testid="swipe-empty",
    )


def _game() -> rx.Component:
    return rx.cond(
        S.cards.length() > 0,
        rx.fragment(
            rx.el.div(
                rx.foreach(S.cards, _card),
                class_name="swipe-stack",
                data_decisions=S.decisions,
                data_testid="swipe-stack",
            ),
            _buttons(),
        ),
        _empty(),
    )


@page("swipe-game", on_load=[S.load, *NEWS_CHECKS])
def swipe_game_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Swipe game"), class_name="page-title"),
        _allowance(),
        rx.cond(S.limit_reached & SessionState.logged_in, _limit_reached()),
        rx.cond(S.loaded, _game(), rx.center(rx.spinner(size="3"), class_name="swipe-loading")),
        class_name="container swipe-page",
        data_testid="page-swipe-game",
    )
