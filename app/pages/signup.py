"""/signup behind the modal: what members get, and a way back into the form once closed."""

import reflex as rx

from app.pages.registry import page
from components.i18n import t
from components.member_landings.signup_page import signup_teaser
from components.signup_modal import complete_signup_page
from models.routes import url
from state.signup import SignupState
from translations.catalog import N_

BENEFITS = (
    ("search", N_("Search members near you by age and place")),
    ("message-circle", N_("Chat with the members you like")),
    ("heart", N_("See who likes you and like them back")),
)


@page("signup", on_load=[SignupState.open_signup])
def signup_page() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h1(t("Sign up free"), class_name="page-title"),
            *(
                rx.el.div(
                    rx.el.div(rx.icon(icon), class_name="step-icon"),
                    rx.el.p(t(text)),
                    class_name="step",
                )
                for icon, text in BENEFITS
            ),
            rx.button(
                t("Create my free account"),
                size="3",
                width="100%",
                on_click=SignupState.open_signup,
                data_testid="open-signup",
            ),
            rx.el.p(
                t("Already a member?"),
                " ",
                rx.link(t("Log in"), href=url("login")),
                class_name="muted",
                margin_top="12px",
            ),
            class_name="card auth-card form-stack",
        ),
        class_name="container",
        data_testid="page-signup",
    )


page("complete-signup", on_load=[SignupState.resume])(complete_signup_page)
# The signup modal of the empty layout opens over the member the server wrote in.
page("members-id-signup", on_load=[SignupState.open_for_member])(signup_teaser)
