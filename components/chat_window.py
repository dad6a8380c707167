"""One conversation: the other member at the top, the messages with gifts and the typing
indicator, and the composer with its character count, gifts and icebreakers."""

import reflex as rx

from components.chat_dialogs import delete_chat_button, gift_picker, icebreakers, premium_alert
from components.chat_live import shown_messages
from components.chat_time import message_time
from components.forms import post_form
from components.gift_labels import GIFT_LABELS
from components.i18n import t, t_choice, tn
from components.link_button import link_button
from components.message_veil import REMOVED, confirm_flagged, veiled
from components.report_dialog import report_button, report_dialog
from models.moderation import ContentType
from models.routes import member_url, url
from state.chats import CREDITS, ChatsState
from state.session import SessionState
from translations.catalog import N_
from translations.errors import MEMBER_UNAVAILABLE

S = ChatsState


def _header() -> rx.Component:
    partner = S.partner
    return rx.el.header(
        rx.link(
            rx.icon("chevron-left", size=22),
            href=url("chats"),
            class_name="chat-back",
            aria_label=t("All messages"),
        ),
        rx.link(
            rx.image(src=partner["thumb"].to(str), alt="", class_name="chat-avatar"),
            rx.el.span(
                rx.el.strong(partner["name"].to(str)),
                rx.el.small(
                    partner["age"].to_string(),
                    rx.cond(partner["city"].to(str) != "", ", " + partner["city"].to(str), ""),
                ),
                class_name="chat-partner-text",
            ),
            href=member_url(partner["id"]),
            class_name="chat-partner",
            underline="none",
            data_testid="chat-partner",
        ),
        rx.cond(S.conversation_id > 0, delete_chat_button()),
        class_name="chat-header",
    )


def _bubble(message: rx.Var[dict]) -> rx.Component:
    gift = message["gift"].to(str)
    content = rx.cond(
        gift != "",
        rx.el.span(
            rx.image(src=message["picture"].to(str), alt="", width="72px", height="72px"),
            rx.el.span(t_choice(GIFT_LABELS, gift)),
            class_name="gift-bubble",
        ),
        rx.cond(
            message["removed"].to(bool),
            rx.el.span(t(REMOVED), class_name="bubble-text bubble-removed"),
            rx.cond(
                message["flagged"].to(bool),
                veiled(message),
                rx.el.span(message["body"].to(str), class_name="bubble-text"),
            ),
        ),
    )
    return rx.el.div(
        content,
        rx.el.time(message_time(message["at"].to(str)), class_name="bubble-time"),
        rx.cond(
            ~message["mine"].to(bool)
            & (gift == "")
            & ~message["flagged"].to(bool)
            & ~message["removed"].to(bool),
            report_button(ContentType.MESSAGE, message["id"].to(int), compact=True),
        ),
        class_name=rx.cond(message["mine"], "bubble mine", "bubble theirs"),
        data_testid="message",
    )


def _typing() -> rx.Component:
    return rx.cond(
        S.partner_typing,
        rx.el.div(
            rx.el.span(rx.el.i(), rx.el.i(), rx.el.i(), class_name="typing-dots"),
            t("{name} is typing…", name=S.partner["name"].to(str)),
            class_name="typing-indicator",
            data_testid="typing-indicator",
        ),
    )


def _messages() -> rx.Component:
    messages = shown_messages()
    return rx.el.div(
        rx.el.div(
            rx.cond(
                S.more_before,
                rx.button(
                    t("Earlier messages"),
                    variant="soft",
                    size="1",
                    on_click=S.load_earlier,
                    class_name="load-earlier",
                ),
            ),
            rx.cond(
                messages.length() == 0,
                rx.el.p(
                    t("Say hello to {name}!", name=S.partner["name"].to(str)),
                    class_name="chat-hello",
                ),
            ),
            rx.foreach(messages, _bubble),
            _typing(),
            rx.cond(
                S.more_after,
                rx.button(
                    t("Newer messages"),
                    rx.icon("arrow-down", size=14),
                    variant="soft",
                    size="1",
                    on_click=S.load_latest,
                    class_name="load-earlier",
                    data_testid="load-latest",
                ),
            ),
            class_name="chat-messages-inner",
        ),
        class_name="chat-messages",  # column-reverse: stays scrolled to the newest message
        data_testid="chat-messages",
    )


def _error() -> rx.Component:
    return rx.cond(
        S.error != "",
        rx.callout.root(
            rx.callout.icon(rx.icon("circle-alert")),
            rx.callout.text(
                S.error,
                rx.cond(
                    S.error_kind == CREDITS,
                    rx.link(t("Buy credits"), href=url("credits"), class_name="chat-error-link"),
                ),
            ),
            color_scheme="red",
            size="1",
            class_name="chat-error",
            data_testid="chat-error",
        ),
    )


def _counter() -> rx.Component:
    """Counted in the browser as the member types (shell.js): no round trip per keystroke."""
    return rx.el.span(
        rx.el.span("0", data_chat_count=""),
        " / ",
        S.message_length,
        data_chat_counter="",
        data_max=S.message_length,
        class_name="chat-counter",
        data_testid="chat-counter",
    )


def _opens(
    icon: str, label: str, on_click: rx.event.EventSpec, testid: str, **props
) -> rx.Component:
    """A composer button that opens a dialog; `label` is its msgid."""
    return rx.icon_button(
        rx.icon(icon, size=18),
        type="button",
        variant="soft",
        on_click=on_click,
        aria_label=t(label),
        data_testid=testid,
        **props,
    )


def _composer() -> rx.Component:
    return post_form(
        rx.el.input(type="hidden", name="client_id"),  # minted in the browser (shell.js)
        rx.el.button(hidden=True, id="chat-typing", type="button", on_click=S.typing),
        rx.el.button(hidden=True, id="chat-take-arrivals", type="button", on_click=S.take_arrivals),
        rx.el.div(
            _opens("gift", N_("Send a gift"), S.toggle_gifts(True), "open-gifts"),
            _opens(
                "sparkles",
                N_("Icebreakers"),
                S.toggle_icebreakers(True),
                "open-icebreakers",
                color_scheme="purple",
            ),
            rx.text_area(
                name="text",
                placeholder=t("Write a message…"),
                rows="2",
                resize="none",
                class_name="chat-input",
                data_enter_sends="true",
                data_testid="chat-input",
            ),
            rx.icon_button(
                rx.icon("send-horizontal", size=18),
                type="submit",
                aria_label=t("Send"),
                data_testid="chat-send",
            ),
            class_name="composer-row",
        ),
        rx.el.div(
            rx.el.span(
                rx.cond(
                    S.message_price != "",
                    tn(
                        "A message costs {count} credit (from {price})",
                        "A message costs {count} credits (from {price})",
                        S.message_credits,
                        price=S.message_price,
                    ),
                    tn(
                        "A message costs {count} credit",
                        "A message costs {count} credits",
                        S.message_credits,
                    ),
                ),
                " · ",
                rx.link(
                    t("Your credits: {count}", count=SessionState.credits),
                    href=url("credits"),
                    data_testid="chat-balance",
                ),
            ),
            _counter(),
            class_name="composer-meta",
        ),
        on_submit=S.send_text,
        reset_on_submit=False,
        class_name="composer",
        data_chat_composer="",
        # a text for the chat shown at its newest end goes without the tab's state (shell.js)
        data_send_chat=rx.cond(S.chat_open & ~S.more_after, S.conversation_id, 0),
        data_send_to=rx.cond(S.chat_open, S.partner["id"], 0),
    )


def _unavailable() -> rx.Component:
    return rx.el.div(
        rx.icon("user-x", size=40),
        rx.el.p(t(MEMBER_UNAVAILABLE)),
        link_button(t("All messages"), href=url("chats")),
        class_name="chat-placeholder",
        data_testid="chat-unavailable",
    )


def _choose() -> rx.Component:
    return rx.el.div(
        rx.icon("messages-square", size=44),
        rx.el.p(t("Choose a conversation")),
        class_name="chat-placeholder",
    )


def chat_window() -> rx.Component:
    return rx.el.section(
        rx.cond(
            S.chat_open,
            rx.fragment(
                _header(), _messages(), _error(), _composer(), gift_picker(), icebreakers()
            ),
            rx.cond(S.not_found, _unavailable(), _choose()),
        ),
        premium_alert(),
        confirm_flagged(),
        report_dialog(),
        class_name="chat-window",
    )
