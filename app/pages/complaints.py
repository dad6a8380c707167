"""/complaints: the notice form of the EU Digital Services Act (Art. 16) for content a visitor
or member believes illegal (docs/reports.md)."""

import reflex as rx

from app.pages.registry import page
from components.forms import (
    choice_field,
    field_error,
    form_error,
    notice,
    post_form,
    submit_button,
    text_area_field,
    text_field,
)
from components.i18n import t
from models.moderation import ReportCategory
from models.report_rules import (
    CATEGORY_LABELS,
    NOTICE_EMAIL_LIMIT,
    NOTICE_NAME_LIMIT,
    NOTICE_TEXT_LIMIT,
    NOTICE_URL_LIMIT,
)
from state.complaints import ComplaintsState as S
from translations.catalog import N_

INTRO = N_(
    "Use this form to tell us about content on our site that you believe is illegal "
    "(Article 16 of the EU Digital Services Act). We review every notice and let you know "
    "what we decided."
)
MEMBERS_HINT = N_(
    "A problem with a member, such as a fake profile or harassment? Members can also use "
    "Report on the profile, the photo or the message."
)
ANONYMOUS_HINT = N_(
    "For child sexual abuse material you may leave your name and e-mail address empty."
)
GOOD_FAITH = N_(
    "I declare in good faith that the information and allegations in this notice are "
    "accurate and complete."
)
SENT = N_("Thank you. Your notice has the reference {reference}.")
RECEIPT_SENT = N_("We have sent a receipt to {email}.")
PRECISE_HINT = N_("Please be as precise as you can, for example which law it breaks.")


def _category() -> rx.Component:
    return choice_field(
        N_("What kind of content is it?"),
        CATEGORY_LABELS,
        S.category,
        S.choose_category,
        S.errors,
        name="category",
        testid="notice-category",
    )


def _explanation() -> rx.Component:
    return text_area_field(
        N_("Why is this content illegal?"),
        "text",
        S.errors,
        rows=5,
        max_length=NOTICE_TEXT_LIMIT,
        required=True,
        hint=t(PRECISE_HINT),
    )


def _good_faith() -> rx.Component:
    return rx.el.label(
        rx.el.input(type="checkbox", name="good_faith", value="yes", required=True),
        rx.el.span(t(GOOD_FAITH)),
        field_error(S.errors, "good_faith"),
        display="flex",
        gap="8px",
        align_items="flex-start",
        data_testid="notice-good-faith",
    )


def _form() -> rx.Component:
    anonymous = S.category == ReportCategory.CHILD_ABUSE.value
    return post_form(
        rx.el.div(
            form_error(S.errors),
            text_field(
                N_("Exact web address (URL) of the content"),
                "url",
                S.errors,
                default_value=S.url,
                key=S.url,  # the prefilled address arrives after the first render
                max_length=NOTICE_URL_LIMIT,
                required=True,
                data_testid="notice-url",
            ),
            _category(),
            _explanation(),
            text_field(
                N_("Your name"),
                "name",
                S.errors,
                max_length=NOTICE_NAME_LIMIT,
                required=~anonymous,
            ),
            text_field(
                N_("Your e-mail address"),
                "email",
                S.errors,
                hint=rx.cond(anonymous, t(ANONYMOUS_HINT), ""),
                type="email",
                max_length=NOTICE_EMAIL_LIMIT,
                required=~anonymous,
            ),
            _good_faith(),
            submit_button(N_("Send notice"), S.busy, data_testid="notice-send"),
            class_name="form-stack",
        ),
        on_submit=S.send_notice,
    )


def _sent() -> rx.Component:
    return rx.el.div(
        notice(t(SENT, reference=S.reference), data_testid="notice-sent"),
        rx.cond(S.sent_to != "", rx.el.p(t(RECEIPT_SENT, email=S.sent_to))),
        class_name="form-stack",
    )


@page("complaints", on_load=[S.load_notice])
def complaints_page() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h1(t("Report illegal content"), class_name="page-title"),
            rx.el.p(t(INTRO)),
            rx.el.p(t(MEMBERS_HINT), class_name="muted"),
            rx.cond(S.reference != "", _sent(), _form()),
            class_name="card form-stack",
        ),
        class_name="container",
        data_testid="page-complaints",
    )
