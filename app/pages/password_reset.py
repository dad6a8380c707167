"""/reset-password (ask for a link) and /reset-password/do (choose the new password)."""

import reflex as rx

from app.pages.registry import page
from components.forms import (
    auth_card,
    form_error,
    new_password_fields,
    notice,
    post_form,
    submit_button,
    text_field,
)
from components.i18n import t
from components.link_button import link_button
from models.routes import url
from state.password_reset import ResetPasswordState, ResetRequestState
from translations.catalog import N_
from translations.errors import RESET_LINK_INVALID

REQUEST_INTRO = N_(
    "Enter the e-mail address of your account. We will send you a link to choose a new password."
)
SENT = N_(
    "If {email} belongs to an account, we have sent a link to it. "
    "Check your inbox and your spam folder."
)


@page("reset-password", on_load=[ResetRequestState.reset_form])
def reset_request_page() -> rx.Component:
    state = ResetRequestState
    form = post_form(
        rx.el.div(
            rx.el.p(t(REQUEST_INTRO), class_name="muted"),
            form_error(state.errors),
            text_field(N_("E-mail address"), "email", state.errors, type="email", required=True),
            submit_button(N_("Send link"), state.busy, data_testid="reset-submit"),
            class_name="form-stack",
        ),
        on_submit=state.submit,
    )
    sent = notice(t(SENT, email=state.sent_to), data_testid="reset-sent")
    return auth_card(
        t("Reset password"),
        rx.cond(state.sent_to != "", sent, form),
        testid="page-reset-password",
    )


@page("reset-password-do", on_load=[ResetPasswordState.check_link])
def reset_do_page() -> rx.Component:
    state = ResetPasswordState
    form = post_form(
        rx.el.div(
            form_error(state.errors),
            new_password_fields(state.errors),
            submit_button(N_("Save password"), state.busy, data_testid="reset-do-submit"),
            class_name="form-stack",
        ),
        on_submit=state.submit,
    )
    invalid = rx.el.div(
        rx.callout(
            t(RESET_LINK_INVALID), icon="link-2-off", color_scheme="red",
            data_testid="reset-link-invalid",
        ),
        link_button(
            t("Request a new link"), href=url("reset-password"), size="3", margin_top="14px"
        ),
    )  # fmt: skip
    return auth_card(
        t("Choose a new password"),
        rx.cond(state.checked, rx.cond(state.link_ok, form, invalid), rx.spinner()),
        testid="page-reset-password-do",
    )
