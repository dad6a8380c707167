"""/unsubscribe: stop the notification e-mails from the link in their footer."""

import reflex as rx

from app.pages.registry import page
from components.forms import auth_card, notice
from components.i18n import t
from components.link_button import link_button
from models.routes import login_url, url
from state.unsubscribe import UnsubscribeState
from translations.catalog import N_

QUESTION = N_(
    "Stop the e-mails about new messages, likes and matches? You can switch them on again at "
    "any time under Notifications."
)
DONE = N_("Done: we no longer send you e-mails about new messages, likes and matches.")
INVALID = N_(
    "This unsubscribe link is not valid. Log in and choose which e-mails you get under "
    "Notifications."
)


def _question() -> rx.Component:
    return rx.el.div(
        rx.el.p(t(QUESTION)),
        rx.button(
            t("Stop these e-mails"),
            size="3",
            on_click=UnsubscribeState.confirm,
            data_testid="unsubscribe-confirm",
        ),
        class_name="form-stack",
    )


def _done() -> rx.Component:
    return rx.el.div(
        notice(t(DONE), icon="mail-x", data_testid="unsubscribe-done"),
        rx.link(t("Notification settings"), href=url("notifications")),
        class_name="form-stack",
    )


def _invalid() -> rx.Component:
    return rx.el.div(
        rx.callout(t(INVALID), icon="link-2-off", color_scheme="red"),
        link_button(t("Log in"), href=login_url(url("notifications")), size="3"),
        class_name="form-stack",
        data_testid="unsubscribe-invalid",
    )


@page("unsubscribe", on_load=[UnsubscribeState.check_link])
def unsubscribe_page() -> rx.Component:
    state = UnsubscribeState
    body = rx.cond(state.done, _done(), rx.cond(state.key_ok, _question(), _invalid()))
    return auth_card(
        t("Unsubscribe"),
        rx.cond(state.checked, body, rx.spinner()),
        testid="page-unsubscribe",
    )
