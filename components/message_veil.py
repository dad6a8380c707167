"""The message filter in the chat: the sender's "Are you sure?" before a flagged text is sent,
and the recipient's "This message may be offensive: Show / Report" over a flagged message."""

import reflex as rx

from components.i18n import t
from components.report_dialog import report_button
from models.moderation import ContentType
from state.chats import ChatsState
from translations.catalog import N_

S = ChatsState
VEILED = N_("This message may be offensive.")
REMOVED = N_("Removed by a moderator")  # a message a moderation decision removed


def veiled(message: rx.Var[dict]) -> rx.Component:
    """A received flagged message: its text stays hidden until "Show"."""
    return rx.el.span(
        rx.el.span(t(VEILED), class_name="veil-text"),
        rx.el.span(
            rx.button(
                t("Show"),
                type="button",
                variant="soft",
                size="1",
                on_click=S.show_flagged(message["id"].to(int)),
                data_testid="show-flagged",
            ),
            report_button(ContentType.MESSAGE, message["id"].to(int)),
            class_name="veil-actions",
        ),
        class_name="bubble-veil",
        data_testid="message-veil",
    )


def confirm_flagged() -> rx.Component:
    """The sender's "Are you sure?": "Edit" (back to the draft) or "Send anyway" (stored
    flagged)."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(t("Are you sure?")),
            rx.alert_dialog.description(S.confirm_text),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(
                        t("Edit"),
                        variant="soft",
                        color_scheme="gray",
                        on_click=S.edit_flagged,
                        data_testid="edit-flagged",
                    )
                ),
                rx.alert_dialog.action(
                    rx.button(
                        t("Send anyway"),
                        color_scheme="red",
                        on_click=S.send_anyway,
                        data_testid="send-anyway",
                    )
                ),
                spacing="3",
                justify="end",
                margin_top="16px",
            ),
            data_testid="confirm-flagged",
        ),
        open=S.confirm_text != "",
    )
