"""The new-like modal (spec section 2): thumbs up, 'New like!', the liker's main photo, a button.
The backdrop closes it; the photo or the button opens the liker's profile."""

import reflex as rx

from components.i18n import t
from components.news_dialog import news_dialog
from state.likes import LikeModalState
from translations.catalog import N_

M = LikeModalState


def like_modal() -> rx.Component:
    return news_dialog(
        M,
        "thumbs-up",
        N_("New like!"),
        rx.el.button(
            rx.image(src=M.liker["thumb"], alt=M.liker["name"]),
            type="button",
            class_name="like-modal-photo",
            aria_label=t("View profile"),
            on_click=M.open_profile,
            data_testid="like-modal-image",
        ),
        rx.dialog.description(M.liker["name"], ", ", M.liker["age"], class_name="like-modal-name"),
        rx.button(
            t("View profile"),
            size="3",
            width="100%",
            on_click=M.open_profile,
            data_testid="like-modal-open",
        ),
        testid="like-modal",
    )
