"""Account outcome screens: activation done or failed, account deleted, e-mail change confirmed."""

import reflex as rx

from app.pages.registry import page
from components.forms import auth_card
from components.i18n import t
from components.link_button import link_button
from components.member_card import member_card
from models.routes import url
from state.activation import ActivationState
from state.members import MembersState
from state.session import SessionState
from translations.catalog import N_
from translations.errors import ACTIVATION_FAILED, RESET_LINK_INVALID

DELETED_TEXT = N_(
    "Your profile is no longer visible. We keep your account for 14 more days: the e-mail we "
    "sent you has a link to reactivate it. After that we erase your data for good."
)
ACTIVATION_FAILED_TEXT = N_(
    "This link has already been used, has expired or is incomplete. Log in and we can send you "
    "a new one."
)
UPSELL_TEXT = N_(
    "Premium members see every photo, chat without limits and get noticed first. One purchase, "
    "no subscription."
)


def _upsell() -> rx.Component:
    return rx.el.div(
        rx.heading(t("Make the most of it with Premium"), size="5"),
        rx.el.p(t(UPSELL_TEXT)),
        link_button(t("Get Premium"), href=url("premium"), size="3", color_scheme="amber"),
        class_name="upsell",
    )


@page("activate-done", on_load=[MembersState.load_newest])
def activate_done_page() -> rx.Component:
    return rx.el.div(
        rx.callout(
            t("Your e-mail address is confirmed. Your profile is now visible to other members."),
            icon="badge-check",
            color_scheme="green",
            size="3",
            data_testid="activation-done",
        ),
        rx.el.div(_upsell(), margin_y="20px"),
        rx.el.h2(t("Members you may like"), class_name="section-title"),
        rx.el.div(rx.foreach(MembersState.members, member_card), class_name="member-grid"),
        rx.center(
            rx.cond(
                SessionState.logged_in,
                link_button(t("Search members"), href=url("members"), size="3"),
                link_button(t("Log in"), href=url("login"), size="3"),
            ),
            margin_top="20px",
        ),
        class_name="container",
    )


@page("activate-error")
def activate_error_page() -> rx.Component:
    return auth_card(
        t(ACTIVATION_FAILED),
        rx.cond(
            SessionState.needs_activation,
            rx.fragment(
                rx.el.p(t(RESET_LINK_INVALID)),
                rx.button(t("Send the e-mail again"), on_click=ActivationState.resend),
            ),
            rx.fragment(
                rx.el.p(t(ACTIVATION_FAILED_TEXT)),
                link_button(t("Log in"), href=url("login"), size="3"),
            ),
        ),
        rx.cond(ActivationState.resend_step == 4, rx.el.p(t("Sent! Check your inbox."))),
        testid="activation-error",
    )


@page("account-deleted")
def account_deleted_page() -> rx.Component:
    return auth_card(
        t("Your account has been deleted"),
        rx.el.p(t(DELETED_TEXT)),
        rx.link(t("Back to the home page"), href=url("index")),
        testid="page-account-deleted",
    )


@page("mail-change-do", on_load=[ActivationState.confirm_mail_change])
def mail_change_page() -> rx.Component:
    done = rx.callout(
        t("Your new e-mail address is confirmed."), icon="check", color_scheme="green"
    )
    failed = rx.callout(
        t(RESET_LINK_INVALID),
        icon="link-2-off",
        color_scheme="red",
    )
    return auth_card(
        t("Confirm e-mail address"),
        rx.cond(
            ActivationState.mail_change_checked,
            rx.cond(ActivationState.mail_change_ok, done, failed),
            rx.spinner(),
        ),
        testid="page-mail-change",
    )
