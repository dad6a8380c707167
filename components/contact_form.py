"""The contact form of /pages/service (docs/customer-service.md): a topic, the message, an
e-mail address when not logged in, and the reference of an earlier request to follow it up."""

import reflex as rx

from components.forms import (
    choice_field,
    form_error,
    notice,
    post_form,
    submit_button,
    text_area_field,
    text_field,
)
from components.i18n import t
from models.report_rules import REFERENCE_LENGTH
from models.tickets import EMAIL_LIMIT, MESSAGE_LIMIT, TOPIC_LABELS
from state.service_contact import ServiceContactState as S
from translations.catalog import N_

FORM_TITLE = N_("Write to us")
FROM_ACCOUNT = N_("We answer at the e-mail address of your account.")
REFERENCE_HINT = N_("Only when you reply to an earlier message: its reference, e.g. K7M2PQ4X.")
SENT = N_("Thank you. Your message has the reference {reference}.")
RECEIPT_SENT = N_("We have sent a receipt to {email} and will answer you there.")
ANSWER_TO = N_("We will answer you at {email}.")  # no receipt: past the receipts' limits


def _topic() -> rx.Component:
    return choice_field(
        N_("What is your question about?"),
        TOPIC_LABELS,
        S.topic,
        S.choose_topic,
        S.errors,
        name="topic",
        testid="contact-topic",
    )


def _message() -> rx.Component:
    return text_area_field(
        N_("Your message"),
        "message",
        S.errors,
        rows=6,
        max_length=MESSAGE_LIMIT,
        required=True,
        testid="contact-message",
    )


def _sender() -> rx.Component:
    return rx.cond(
        S.member,
        rx.el.p(t(FROM_ACCOUNT), class_name="muted"),
        text_field(
            N_("Your e-mail address"),
            "email",
            S.errors,
            type="email",
            max_length=EMAIL_LIMIT,
            required=True,
        ),
    )


def _form() -> rx.Component:
    return post_form(
        rx.el.div(
            form_error(S.errors),
            _topic(),
            _message(),
            _sender(),
            text_field(
                N_("Reference (optional)"),
                "reference",
                S.errors,
                hint=t(REFERENCE_HINT),
                default_value=S.reference,
                key=S.reference,  # the reference of the mail's link arrives after the render
                max_length=REFERENCE_LENGTH,
            ),
            submit_button(N_("Send message"), S.busy, data_testid="contact-send"),
            class_name="form-stack",
        ),
        on_submit=S.send,
        data_testid="contact-form",
    )


def _sent() -> rx.Component:
    return rx.el.div(
        notice(t(SENT, reference=S.sent_reference), data_testid="contact-sent"),
        rx.el.p(
            rx.cond(S.receipt, t(RECEIPT_SENT, email=S.sent_to), t(ANSWER_TO, email=S.sent_to))
        ),
        class_name="form-stack",
    )


def contact_form() -> rx.Component:
    return rx.el.section(
        rx.el.h2(t(FORM_TITLE), class_name="section-title", margin_top="0"),
        rx.cond(S.sent_reference != "", _sent(), _form()),
        class_name="card form-stack",
        margin_top="16px",
        id="contact",
    )
