"""Settings → privacy: who may start a chat with the member."""

import reflex as rx

from components.forms import notice
from components.i18n import t
from models.chat_from import ChatFrom
from state.chat_from import ChatFromState as S
from translations.catalog import N_

LABELS = {
    ChatFrom.EVERYONE: N_("Everyone"),
    ChatFrom.LIKED: N_("Only members I have liked"),
    ChatFrom.PREMIUM: N_("Only Premium members"),
}
PRIVACY_SAVED = N_("Your privacy settings are saved.")


def _choice(choice: ChatFrom) -> rx.Component:
    return rx.el.label(
        rx.el.input(
            type="radio",
            name="chat_from",
            value=choice.value,
            checked=S.chat_from == choice.value,
            on_change=S.choose(choice.value),
        ),
        rx.el.span(t(LABELS[choice])),
        display="flex",
        gap="8px",
        align_items="center",
        data_testid=f"chat-from-{choice.value}",
    )


def chat_from_setting() -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(t("Who may start a chat with me"), class_name="field-label"),
        rx.el.span(
            t("Chats that have already started go on."),
            class_name="field-hint",
        ),
        *(_choice(choice) for choice in ChatFrom),
        rx.cond(S.saved, notice(t(PRIVACY_SAVED), icon="check", data_testid="saved-chat-from")),
        display="grid",
        gap="6px",
        border="none",
        padding="0",
        margin="0",
        data_testid="chat-from",
    )
