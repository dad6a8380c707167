"""The home page for visitors: what the site is, a glimpse of members, how it works."""

import reflex as rx

from app.pages.registry import page
from components.i18n import t
from components.link_button import link_button
from components.member_card import member_card
from models.routes import url
from state.members import NEWEST_SHOWN, MembersState
from translations.catalog import N_

MOSAIC_TILES = 6
_STEPS = (
    (
        "user-round-plus",
        N_("Create your free profile"),
        N_("Sign up in a minute and add a few photos."),
    ),
    ("search", N_("Discover members"), N_("Search by age and region and see who likes you.")),
    (
        "message-circle-heart",
        N_("Start chatting"),
        N_("Send a message or a gift and get to know each other."),
    ),
)


def _hero() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h1(t("Meet new people who are looking for the same thing")),
                rx.el.p(t("Chat, flirt and date with members from your region.")),
                rx.el.div(
                    link_button(t("Sign up free"), href=url("signup"), size="4"),
                    link_button(
                        t("Log in"),
                        href=url("login"),
                        size="4",
                        variant="outline",
                        class_name="hero-login",
                    ),
                    class_name="hero-cta",
                ),
            ),
            rx.el.div(
                *map(_mosaic_tile, range(MOSAIC_TILES)),
                class_name="hero-mosaic",
                aria_hidden="true",
            ),
            class_name="container hero-grid",
        ),
        class_name="hero",
    )


def _mosaic_tile(index: int) -> rx.Component:
    """A place in the hero's mosaic, painted before a member's photo arrives to fill it (so
    nothing below moves)."""
    member = MembersState.members[index]
    return rx.el.div(
        rx.cond(
            MembersState.members.length() > index,
            rx.image(src=member["thumb"], alt=""),
        ),
        class_name="hero-tile",
    )


def _newest_members() -> rx.Component:
    """The newest members; until they arrive, empty cards hold their places."""
    return rx.el.div(
        rx.cond(
            MembersState.newest_loaded,
            rx.foreach(MembersState.members[:NEWEST_SHOWN], member_card),
            rx.fragment(*(rx.el.div(class_name="card-placeholder") for _ in range(NEWEST_SHOWN))),
        ),
        class_name="member-grid",
    )


def _step(icon: str, title: str, text: str) -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.icon(icon, size=22), class_name="step-icon"),
        rx.el.div(rx.el.strong(t(title)), rx.el.div(t(text), color="var(--muted)")),
        class_name="step card",
    )


@page("index", on_load=[MembersState.load_newest])
def landing_page() -> rx.Component:
    return rx.fragment(
        _hero(),
        rx.el.div(
            rx.el.div(*(_step(*step) for step in _STEPS), class_name="steps"),
            rx.el.h2(t("New members"), class_name="section-title"),
            _newest_members(),
            class_name="container",
        ),
    )
