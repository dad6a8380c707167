"""Reporting: `report_button(content_type, content_id)` opens the report dialog for a profile, a
photo or a received message; `report_dialog()` is that dialog, placed once on a page that has
report buttons. The member reported is never told (docs/reports.md)."""

from collections.abc import Iterable

import reflex as rx
from reflex_base.vars.base import VarData

from actions.reports import Reported
from components.forms import field_error, post_form, submit_button
from components.i18n import t, t_choice, tp
from models.moderation import MEMBER_REPORT_CATEGORIES, ContentType
from models.report_rules import CATEGORY_LABELS, REPORT_TEXT_LIMIT
from models.routes import url
from state.report import ReportState as S
from translations.catalog import N_

_TITLES = {
    ContentType.PROFILE: N_("Report this profile"),
    ContentType.PHOTO: N_("Report this photo"),
    ContentType.MESSAGE: N_("Report this message"),
}
_OUTCOMES = {
    Reported.FILED: N_("Thank you. Our moderators will look at it soon."),
    Reported.ALREADY_OPEN: N_(
        "You have already reported this. Our moderators will look at it soon."
    ),
    Reported.LIMIT: N_("You have sent many reports today. Please try again tomorrow."),
    Reported.UNAVAILABLE: N_("This can no longer be reported."),
}


def report_button(
    content_type: str, content_id: rx.Var[int] | int, compact: bool = False, **props
) -> rx.Component:
    """A "Report" button (an icon only when `compact`) for the content; the page must hold
    `report_dialog()` once."""
    label = tp("report button", "Report")
    return rx.button(
        rx.icon("flag", size=14 if compact else 16),
        *(() if compact else (label,)),
        type="button",
        variant="ghost",
        color_scheme="gray",
        size="1" if compact else "2",
        aria_label=label,
        title=label,
        on_click=S.open_report(content_type, content_id),
        data_testid=f"report-{content_type}",
        **props,
    )


def category_choices(categories: Iterable[str], errors: rx.Var[dict[str, str]]) -> rx.Component:
    """One radio per category, with its translated label; the form key is "category"."""
    return rx.el.fieldset(
        rx.el.legend(t("What is the problem?"), class_name="field-label"),
        *(
            rx.el.label(
                rx.el.input(type="radio", name="category", value=category, required=True),
                rx.el.span(t(CATEGORY_LABELS[category])),
                display="flex",
                gap="8px",
                align_items="center",
                data_testid=f"category-{category}",
            )
            for category in categories
        ),
        field_error(errors, "category"),
        display="grid",
        gap="6px",
        border="none",
        padding="0",
        margin="0",
    )


def _form() -> rx.Component:
    return post_form(
        category_choices(MEMBER_REPORT_CATEGORIES, S.errors),
        rx.el.label(
            rx.el.span(t("Anything else we should know? (optional)"), class_name="field-label"),
            rx.text_area(name="text", max_length=REPORT_TEXT_LIMIT, rows="3"),
            class_name="field",
        ),
        rx.el.label(
            rx.el.input(type="checkbox", name="block", value="yes"),
            rx.el.span(t("Also block this member")),
            display="flex",
            gap="8px",
            align_items="center",
            data_testid="report-block",
        ),
        rx.flex(
            rx.dialog.close(
                rx.button(t("Cancel"), type="button", variant="soft", color_scheme="gray")
            ),
            submit_button(N_("Send report"), S.busy, data_testid="report-send"),
            spacing="3",
            justify="end",
        ),
        on_submit=S.send_report,
        class_name="form-stack",
    )


def _sent() -> rx.Component:
    return rx.el.div(
        rx.callout(t_choice(_OUTCOMES, S.outcome), icon="check", data_testid="report-outcome"),
        rx.cond(S.blocked, rx.el.p(t("You blocked this member."), data_testid="report-blocked")),
        rx.flex(rx.dialog.close(rx.button(t("Close"), type="button")), justify="end"),
        class_name="form-stack",
    )


def report_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(t_choice(_TITLES, S.content_type)),
            rx.dialog.description(
                t("The member will not find out who reported them."), size="2", margin_bottom="12px"
            ),
            rx.cond(S.outcome == "", _form(), _sent()),
            data_testid="report-dialog",
        ),
        open=S.content_type != "",
        on_open_change=S.close_report,
    )


def complaint_link(path: rx.Var[str]) -> rx.Component:
    """ "Report illegal content": the notice form (/complaints) with the content's address."""
    prefix = rx.Var.create(url("complaints") + "?url=")
    href = rx.Var(
        f"{prefix} + encodeURIComponent({path})", _var_data=VarData.merge(path._get_all_var_data())
    )
    return rx.link(
        rx.icon("shield-alert", size=14),
        t("Report illegal content"),
        href=href.to(str),
        size="1",
        color_scheme="gray",
        display="inline-flex",
        align_items="center",
        gap="4px",
        data_testid="complaint-link",
    )
