"""The chat's dialogs: the gift catalogue, icebreakers for an empty conversation, deleting a
chat, and the premium-only alert."""

import reflex as rx

from components.confirm_dialog import confirm_content
from components.forms import post_form
from components.gift_labels import GIFT_LABELS
from components.i18n import t, tn
from components.link_button import link_button
from models.gifts import GIFTS, gift_picture
from models.routes import url
from state.chats import ChatsState
from state.session import SessionState
from translations.catalog import N_
from translations.errors import PREMIUM_ONLY

S = ChatsState

OPENERS = (
    N_("Hi {name}! Your profile made me smile. How is your week going?"),
    N_("Hello {name}, what does a perfect weekend look like for you?"),
    N_("Hi {name}! If you could travel anywhere tomorrow, where would you go?"),
    N_("Hey {name}, coffee or tea? I think it says a lot about a person."),
    N_("Hi {name}, what is the best thing that happened to you this month?"),
    N_("Hello {name}! Which song always puts you in a good mood?"),
)


def _gift(key: str) -> rx.Component:
    """A gift is sent as a form: its key and the client id the browser keeps for the page's
    next gift (shell.js), so a retry is stored and charged once."""
    return post_form(
        rx.el.input(type="hidden", name="gift", value=key),
        rx.el.input(type="hidden", name="client_id"),
        rx.el.button(
            rx.image(src=gift_picture(key), alt="", width="64px", height="64px"),
            rx.el.span(t(GIFT_LABELS[key])),
            type="submit",
            class_name="gift-choice",
            data_testid=f"gift-{key}",
        ),
        on_submit=S.send_gift,
        display="contents",
        data_chat_gift="",
    )


def gift_picker() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(t("Send {name} a gift", name=S.partner["name"].to(str))),
            rx.dialog.description(
                tn("A gift costs {count} credit", "A gift costs {count} credits", S.gift_credits),
                " · ",
                t("Your credits: {count}", count=SessionState.credits),
                size="2",
            ),
            rx.el.div(*(_gift(key) for key in GIFTS), class_name="gift-grid"),
            rx.dialog.close(rx.button(t("Cancel"), variant="soft", color_scheme="gray")),
            class_name="gift-dialog",
            data_testid="gift-picker",
        ),
        open=S.gifts_open,
        on_open_change=S.toggle_gifts,
    )


def _opener(msgid: str) -> rx.Component:
    text = t(msgid, name=S.partner["name"].to(str))
    return rx.el.button(
        text,
        type="button",
        class_name="opener",
        on_click=S.use_opener(text),
        data_testid="opener",
    )


def icebreakers() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(t("Break the ice")),
            rx.dialog.description(
                t("Pick an opener; you can change it before you send it."), size="2"
            ),
            rx.el.div(*(_opener(msgid) for msgid in OPENERS), class_name="openers"),
            rx.dialog.close(rx.button(t("Write my own"), variant="soft", color_scheme="gray")),
            data_testid="icebreakers",
        ),
        open=S.icebreakers_open,
        on_open_change=S.toggle_icebreakers,
    )


def delete_chat_button() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(
            rx.icon_button(
                rx.icon("trash-2", size=18),
                variant="ghost",
                color_scheme="gray",
                aria_label=t("Delete chat"),
                data_testid="delete-chat",
            )
        ),
        confirm_content(
            t("Delete chat"),
            t("Delete your conversation with {name}?", name=S.partner["name"].to(str)),
            N_("Delete"),
            S.remove(S.conversation_id),
            "confirm-delete-chat",
        ),
    )


def premium_alert() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(
                rx.icon("crown", size=22, flex="none"),
                t(PREMIUM_ONLY),
                class_name="premium-alert-title",
            ),
            rx.alert_dialog.description(S.premium_alert),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(
                        t("Not now"),
                        variant="soft",
                        color_scheme="gray",
                        on_click=S.close_premium_alert,
                    )
                ),
                link_button(t("Get Premium"), href=url("premium"), color_scheme="amber"),
                spacing="3",
                justify="end",
                margin_top="16px",
            ),
            data_testid="premium-alert",
        ),
        open=S.premium_alert != "",
    )
