"""The activation reminder (spec section 4): an alert in the page; on smartphones right after
signup the signup's last step is the modal that says it. Re-sending the mail shows its 4 steps."""

import reflex as rx

from components.i18n import t
from state.activation import SENT_STEP, ActivationState
from state.session import SessionState
from translations.catalog import N_

A = ActivationState
REMINDER = N_("Confirm your e-mail address: we sent a link to {email}.")
RESEND_STEPS = (
    N_("Checking your account"),
    N_("Creating a new link"),
    N_("Sending the e-mail"),
    N_("Sent! Check your inbox."),
)


def _step(number: int, label: str) -> rx.Component:
    state = rx.cond(
        A.resend_step > number,
        "done",
        rx.cond(A.resend_step == number, rx.cond(number == SENT_STEP, "done", "active"), "todo"),
    )
    return rx.el.li(
        rx.cond(state == "done", rx.icon("circle-check", size=16), rx.icon("circle", size=16)),
        t(label),
        data_state=state,
    )


def _resend() -> rx.Component:
    return rx.fragment(
        rx.cond(
            A.resend_step == 0,
            rx.button(
                t("Send the e-mail again"),
                size="2",
                variant="soft",
                on_click=A.resend,
                data_testid="resend-activation",
            ),
            rx.el.ol(
                *(_step(i, label) for i, label in enumerate(RESEND_STEPS, start=1)),
                class_name="progress-steps",
                data_testid="resend-progress",
            ),
        ),
        rx.cond(A.resend_failed, rx.el.p(t("Something went wrong, please try again later."))),
    )


def _body() -> rx.Component:
    return rx.el.div(
        rx.el.strong(t(REMINDER, email=SessionState.email)),
        rx.el.p(t("Until then, other members cannot write to you."), class_name="muted"),
        _resend(),
        flex="1",
        min_width="0",
    )


def activation_reminder(allowed_here: bool) -> rx.Component:
    """Not on the signup, settings and notifications pages (`allowed_here` False there). Right
    after signup the phone leaves it out: the signup's last step has just said the same."""
    if not allowed_here:
        return rx.fragment()
    dismiss = rx.icon_button(
        rx.icon("x", size=16), variant="ghost", aria_label=t("Close"), on_click=A.dismiss
    )
    return rx.cond(
        SessionState.needs_activation & (A.dismissed_at == ""),
        rx.callout.root(
            rx.flex(
                rx.callout.icon(rx.icon("mail-warning")),
                _body(),
                dismiss,
                spacing="3",
                align="start",
                width="100%",
            ),
            color_scheme="amber",
            class_name="activation-banner",
            data_just_signed_up=A.signup_just_completed,
            data_testid="activation-reminder",
        ),
    )
