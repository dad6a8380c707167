"""The "It's a match!" modal: both members' photos, "Send a message" (opens the chat) and
"Keep browsing" (closes it). The backdrop and Esc close it too."""

import reflex as rx

from components.i18n import t
from components.news_dialog import news_dialog
from state.match_modal import MatchModalState
from translations.catalog import N_

M = MatchModalState


def match_modal() -> rx.Component:
    return news_dialog(
        M,
        "heart-handshake",
        N_("It's a match!"),
        rx.el.div(
            rx.image(src=M.own_thumb, alt="", class_name="match-photo"),
            rx.image(src=M.other["thumb"], alt=M.other["name"], class_name="match-photo"),
            class_name="match-photos",
        ),
        rx.dialog.description(
            t("You and {name} like each other.", name=M.other["name"]),
            class_name="like-modal-name",
        ),
        rx.button(
            t("Send a message"),
            size="3",
            width="100%",
            on_click=M.send_message,
            data_testid="match-message",
        ),
        rx.dialog.close(
            rx.button(
                t("Keep browsing"),
                size="3",
                width="100%",
                variant="soft",
                data_testid="match-close",
            ),
        ),
        testid="match-modal",
    )
