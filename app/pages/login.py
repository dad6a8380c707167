"""/login, also the log-in-required prompt (with ?next=), and the reactivation offer for an
account that awaits deletion."""

import reflex as rx

from app.pages.registry import page
from components.forms import form_error, notice, post_form, submit_button, text_field
from components.i18n import t
from components.reactivation import reactivation_choice
from models.routes import url
from models.signup import ACCOUNT_AWAITS_DELETION
from state.login import BACK_REACTIVATED, LOGIN_REQUIRED, LoginState
from state.signup import SignupState
from translations.catalog import N_

REACTIVATED = N_("Welcome back! Your account is active again. Log in to continue.")


def _reactivation_offer() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("rotate-ccw")),
        rx.el.p(t(ACCOUNT_AWAITS_DELETION)),
        reactivation_choice(
            LoginState.reactivation_sent, LoginState.send_reactivation, LoginState.busy
        ),
        color_scheme="amber",
        data_testid="reactivation-offer",
    )


def _form() -> rx.Component:
    return post_form(
        rx.el.div(
            form_error(LoginState.errors),
            text_field(
                N_("E-mail address"),
                "email",
                LoginState.errors,
                type="email",
                auto_complete="username",
                required=True,
                default_value=LoginState.email,
            ),
            text_field(
                N_("Password"),
                "password",
                LoginState.errors,
                type="password",
                auto_complete="current-password",
                required=True,
            ),
            submit_button(N_("Log in"), LoginState.busy, data_testid="login-submit"),
            rx.link(t("Forgot your password?"), href=url("reset-password"), size="2"),
            class_name="form-stack",
        ),
        on_submit=LoginState.submit,
        reset_on_submit=False,
    )


@page("login", on_load=[LoginState.reset_form])
def login_page() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h1(
                rx.cond(LOGIN_REQUIRED, t("Log in to continue"), t("Log in")),
                class_name="page-title",
            ),
            rx.cond(
                LOGIN_REQUIRED,
                rx.el.p(
                    t("This page is for members. Log in, or sign up for free in a minute."),
                    class_name="muted",
                ),
            ),
            rx.cond(
                BACK_REACTIVATED,
                notice(t(REACTIVATED), icon="party-popper", margin_bottom="14px"),
            ),
            rx.cond(LoginState.awaiting_deletion, _reactivation_offer(), _form()),
            rx.el.hr(class_name="soft-rule"),
            rx.el.p(t("New here?"), class_name="muted"),
            rx.button(
                t("Sign up free"),
                variant="soft",
                size="3",
                width="100%",
                on_click=SignupState.open_signup,
                data_testid="open-signup",
            ),
            class_name="card auth-card",
        ),
        class_name="container",
        data_testid="page-login",
    )
