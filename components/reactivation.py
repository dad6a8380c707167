"""The choice offered for an account that awaits deletion: a reactivation e-mail or customer
service (on the log-in page and in the signup form)."""

import reflex as rx

from components.i18n import t
from models.routes import static_page_url


def reactivation_choice(
    sent: rx.Var[bool], on_send: rx.EventHandler, busy: rx.Var[bool] | bool = False
) -> rx.Component:
    return rx.cond(
        sent,
        rx.el.p(t("Check your inbox: we sent you a link to reactivate your account.")),
        rx.flex(
            rx.button(
                t("Send reactivation e-mail"),
                type="button",
                on_click=on_send,
                loading=busy,
                data_testid="send-reactivation",
            ),
            rx.link(t("Customer service"), href=static_page_url("service")),
            spacing="3",
            align="center",
            wrap="wrap",
        ),
    )
