"""The new-like modal (spec section 2): thumbs up, 'New like!', the liker's main photo, a button.
The backdrop closes it; the photo or the button opens the liker's profile."""

import reflex as rx

from components.i18n import t
from state.likes import LikeModalState

M = LikeModalState


def like_modal() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.el.div(rx.icon("thumbs-up", size=30), class_name="like-modal-icon"),
            rx.dialog.title(t("New like!"), class_name="like-modal-title"),
            rx.el.button(
                rx.image(src=M.liker["thumb"], alt=M.liker["name"]),
                type="button",
                class_name="like-modal-photo",
                aria_label=t("View profile"),
                on_click=M.open_profile,
                data_testid="like-modal-image",
            ),
            rx.dialog.description(
                M.liker["name"], ", ", M.liker["age"], class_name="like-modal-name"
            ),
            rx.button(
                t("View profile"),
                size="3",
                width="100%",
                on_click=M.open_profile,
                data_testid="like-modal-open",
            ),
            class_name="like-dialog",
            data_testid="like-modal",
        ),
        open=M.open & (M.shown_at == rx.State.router.url.path),
        on_open_change=M.open_changed,
    )
