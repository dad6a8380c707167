"""/chats, /chats/[id] and /members/[id]/chat: the conversation list beside the open chat on wide
screens, one of the two at a time on phones."""

import reflex as rx

from app.pages.registry import page
from components.chat_list import chat_list
from components.chat_window import chat_window
from state.chats import ChatsState


@page("chats", "chats-id", "members-id-chat", on_load=[ChatsState.open_page])
def chats_page() -> rx.Component:
    return rx.el.div(
        chat_list(),
        chat_window(),
        class_name=rx.cond(
            ChatsState.chat_open | ChatsState.not_found, "chats chat-is-open", "chats"
        ),
    )
