"""A member tile for grids: main photo, name, age and place, premium badge; on the likes
screens also a "New" marker and a heart that likes or unlikes."""

from collections.abc import Callable

import reflex as rx
from reflex.event import EventHandler

from components.i18n import intl_object, t
from models.routes import member_chat_url, member_url

ProfileUrl = Callable[[rx.Var], str]  # a builder of models/routes.py


def country_name(code: rx.Var[str]) -> rx.Var[str]:
    """The country's name in the visitor's language, from the browser's own locale data."""
    names = intl_object("DisplayNames", "type: 'region'")
    return rx.Var(f"{names}.of({code})").to(str)


def countries_by_name(codes: rx.Var[list[str]]) -> rx.Var[list[str]]:
    """Country codes in the order of their names in the visitor's language, sorted the way that
    language sorts (the browser's collation, as for the names)."""
    names = intl_object("DisplayNames", "type: 'region'")
    compare = "(names, order) => (a, b) => order.compare(names.of(a), names.of(b))"
    by_name = f"({compare})({names}, {intl_object('Collator')})"
    return rx.Var(f"[...{codes}].sort({by_name})").to(list[str])


EAGER_CARDS = 6  # a wide screen's first row, a phone's first three rows


def member_card(member: rx.Var[dict], index: rx.Var[int]) -> rx.Component:
    """A card linking to the profile, for rx.foreach; the grid's first cards load their photos
    at once (the page's largest paint), the others when they are scrolled near."""
    loading = rx.cond(index < EAGER_CARDS, "eager", "lazy")
    return linked_card(member, member_url, loading)


def linked_card(
    member: rx.Var[dict], profile_url: ProfileUrl, loading: rx.Var[str] | str = "lazy"
) -> rx.Component:
    return rx.link(
        rx.image(src=member["thumb"], alt=member["name"], loading=loading),
        rx.cond(member["premium"], rx.el.span(t("Premium"), class_name="premium-badge")),
        rx.el.div(
            rx.el.div(member["name"], ", ", member["age"], class_name="member-card-name"),
            rx.el.div(
                rx.cond(member["city"] != "", rx.fragment(member["city"], ", ")),
                country_name(member["country"]),
                class_name="member-card-place",
            ),
            class_name="member-card-info",
        ),
        href=profile_url(member["id"]),
        class_name="member-card",
        underline="none",
    )


def _heart(member: rx.Var[dict], on_like: EventHandler, on_unlike: EventHandler) -> rx.Component:
    return rx.cond(
        member["liked"],
        rx.el.button(
            rx.icon("heart", size=20, fill="currentColor"),
            type="button",
            class_name="card-heart",
            data_liked="true",
            aria_label=t("Unlike"),
            on_click=on_unlike(member["id"]),
            data_testid="card-unlike",
        ),
        rx.el.button(
            rx.icon("heart", size=20),
            type="button",
            class_name="card-heart",
            aria_label=t("Like"),
            on_click=on_like(member["id"]),
            data_testid="card-like",
        ),
    )


def member_card_with_heart(
    member: rx.Var[dict], on_like: EventHandler, on_unlike: EventHandler, profile_url: ProfileUrl
) -> rx.Component:
    """A card with a "New" marker while `member["is_new"]` and a heart that likes the member,
    or unlikes while `member["liked"]`; the handlers take the member id."""
    return rx.el.div(
        linked_card(member, profile_url),
        rx.cond(
            member["is_new"],
            rx.el.span(t("New"), class_name="new-badge", data_testid="card-new"),
        ),
        _heart(member, on_like, on_unlike),
        class_name="member-card-frame",
        data_testid="like-card",
    )


def match_card(member: rx.Var[dict], profile_url: ProfileUrl) -> rx.Component:
    """A card of a match: the profile, and a button that opens the chat with them."""
    return rx.el.div(
        linked_card(member, profile_url),
        rx.link(
            rx.icon("message-circle", size=20),
            href=member_chat_url(member["id"]),
            class_name="card-heart",
            aria_label=t("Send a message"),
            title=t("Send a message"),
            data_testid="card-message",
        ),
        class_name="member-card-frame",
        data_testid="match-card",
    )
