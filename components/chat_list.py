"""The conversation list: the other member's photo and name, the last message, its time and the
unread count; the open conversation highlighted."""

import reflex as rx

from components.chat_live import shown_chats
from components.chat_time import list_time
from components.gift_labels import GIFT_LABELS
from components.i18n import t, t_choice
from components.link_button import link_button
from components.message_veil import REMOVED, VEILED
from models.routes import chat_url, url
from state.chats import ChatsState

S = ChatsState


def _preview(chat: rx.Var[dict]) -> rx.Component:
    text = rx.cond(
        chat["gift"] != "",
        t("Gift: {gift}", gift=t_choice(GIFT_LABELS, chat["gift"].to(str))),
        rx.cond(
            chat["removed"].to(bool),
            t(REMOVED),
            rx.cond(chat["veiled"].to(bool), t(VEILED), chat["text"].to(str)),
        ),
    )
    return rx.el.span(
        rx.cond(chat["from_me"], rx.el.span(t("You:"), " ", class_name="chat-preview-me")),
        text,
        class_name="chat-preview",
    )


def _chat_row(chat: rx.Var[dict]) -> rx.Component:
    unread = chat["unread"].to(int)
    return rx.link(
        rx.image(src=chat["thumb"].to(str), alt="", class_name="chat-avatar"),
        rx.el.span(
            rx.el.span(
                rx.el.strong(chat["name"].to(str)),
                rx.el.time(list_time(chat["at"].to(str)), class_name="chat-time"),
                class_name="chat-row-top",
            ),
            rx.el.span(
                _preview(chat),
                rx.cond(
                    unread > 0,
                    rx.el.span(
                        rx.cond(unread > 99, "99+", unread.to_string()),
                        class_name="chat-unread",
                        data_testid="chat-unread",
                    ),
                ),
                class_name="chat-row-bottom",
            ),
            class_name="chat-row-text",
        ),
        href=chat_url(chat["id"]),
        class_name=rx.cond(chat["id"].to(int) == S.conversation_id, "chat-row active", "chat-row"),
        underline="none",
        data_testid="chat-row",
    )


def chat_list() -> rx.Component:
    chats = shown_chats()
    return rx.el.aside(
        rx.el.h1(t("Messages"), class_name="chat-list-title"),
        rx.cond(
            S.chats.length() > 0,
            rx.el.nav(rx.foreach(chats, _chat_row), class_name="chat-rows"),
            rx.el.div(
                rx.icon("message-circle-heart", size=40),
                rx.el.p(t("No conversations yet. Find someone you like and say hello!")),
                link_button(t("Search members"), href=url("members")),
                class_name="chat-empty",
                data_testid="chats-empty",
            ),
        ),
        class_name="chat-list",
    )
