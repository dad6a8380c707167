"""A member tile for grids: main photo, name, age and place, premium badge."""

import reflex as rx

from components.i18n import t
from state.i18n import I18nState


def country_name(code: rx.Var[str]) -> rx.Var[str]:
    """The country's name in the visitor's language, from the browser's own locale data."""
    return rx.Var(f"new Intl.DisplayNames([{I18nState.locale}], {{type: 'region'}}).of({code})").to(
        str
    )


def member_card(member: rx.Var[dict]) -> rx.Component:
    return rx.link(
        rx.image(src=member["thumb"], alt=member["name"], loading="lazy"),
        rx.cond(member["premium"], rx.el.span(t("Premium"), class_name="premium-badge")),
        rx.el.div(
            rx.el.div(member["name"], ", ", member["age"], class_name="member-card-name"),
            rx.el.div(
                member["city"],
                ", ",
                country_name(member["country"]),
                class_name="member-card-place",
            ),
            class_name="member-card-info",
        ),
        href="/members/" + member["id"].to(str),
        class_name="member-card",
        underline="none",
    )
