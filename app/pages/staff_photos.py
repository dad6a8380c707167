"""/staff/photos: the photo review queue (docs/photos.md). Pending photos first, those a report,
the classifier or a rejected picture's hash flagged at the top; under post-moderation then the
recent photos nobody reviewed yet. Each: approve, or reject with a ground and the facts (a
moderation decision, whose statement of reasons the member receives)."""

import reflex as rx

from app.pages.registry import page
from app.pages.staff_console import staff_load
from components.decision_fields import ground_fields
from components.forms import form_error, post_form, submit_button
from components.i18n import percent, t, t_choice
from components.staff_shell import staff_shell
from components.staff_tables import age, pager, when
from models.moderation_labels import CATEGORY_LABELS
from models.photo_review import PRE
from models.routes import route_named
from state.staff_photos import StaffPhotosState as S
from translations.catalog import N_

PRE_MODERATION = N_("Pre-moderation: new photos are visible only to their owner until approved.")
POST_MODERATION = N_(
    "Post-moderation: new photos show at once; recent ones nobody has reviewed yet are listed "
    "after the photos waiting for approval."
)
NOTHING_TO_REVIEW = N_("No photos to review.")
WAITING = N_("Waiting for approval")
UNREVIEWED = N_("Shown, not reviewed yet")
CLASSIFIER = N_("Explicit (classifier): {percent}")
APPROVE = N_("Approve")
REJECT = N_("Reject")
REJECT_PHOTO = N_("Reject photo")
CANCEL = N_("Cancel")
SEE_REPORT = N_("See the report")


def _member(row: rx.Var[dict]) -> rx.Component:
    path = route_named("staff-members-id").path.replace("[id]", "")
    return rx.link(row["name"], href=path + row["member_id"].to(str))


def _flag(row: rx.Var[dict]) -> rx.Component:
    report_path = route_named("staff-reports-id").path.replace("[id]", "")
    return rx.cond(
        row["category"] != "",
        rx.el.div(
            rx.el.span(t_choice(CATEGORY_LABELS, row["category"].to(str)), class_name="staff-mark"),
            " ",
            rx.link(t(SEE_REPORT), href=report_path + row["report_id"].to(str)),
            data_testid="photo-flag",
        ),
    )


def _reject_form() -> rx.Component:
    return post_form(
        rx.el.div(
            ground_fields(S.errors),
            form_error(S.errors),
            rx.el.div(
                submit_button(REJECT_PHOTO, S.busy, color_scheme="red", data_testid="reject"),
                rx.button(t(CANCEL), type="button", variant="soft", on_click=S.close_reject),
                class_name="staff-filters",
            ),
            class_name="staff-form",
        ),
        on_submit=S.reject,
        data_testid="reject-form",
    )


def _actions(row: rx.Var[dict]) -> rx.Component:
    photo_id = row["id"].to(int)
    return rx.cond(
        S.rejecting == photo_id,
        _reject_form(),
        rx.el.div(
            rx.button(t(APPROVE), size="1", on_click=S.approve(photo_id), data_testid="approve"),
            rx.button(
                t(REJECT),
                size="1",
                variant="soft",
                color_scheme="red",
                on_click=S.open_reject(photo_id),
                data_testid="open-reject",
            ),
            class_name="staff-filters",
        ),
    )


def _photo(row: rx.Var[dict]) -> rx.Component:
    return rx.el.article(
        rx.el.a(rx.el.img(src=row["url"], alt="", loading="lazy"), href=row["url"]),
        rx.el.div(
            _member(row),
            rx.el.div(
                rx.cond(row["status"] == "pending", t(WAITING), t(UNREVIEWED)),
                " · ",
                rx.el.span(age(row["created_at"]), title=when(row["created_at"])),
                class_name="muted",
            ),
            rx.cond(
                row["score"].to(int) >= 0,
                rx.el.div(t(CLASSIFIER, percent=percent(row["score"])), class_name="muted"),
            ),
            _flag(row),
            _actions(row),
            class_name="form-stack",
        ),
        class_name="card staff-review-photo",
        data_status=row["status"],
        data_testid="review-photo",
    )


@page("staff-photos", on_load=staff_load(S.load))
def staff_photos_page() -> rx.Component:
    return staff_shell(
        "staff-photos",
        rx.el.div(
            rx.el.p(
                rx.cond(S.moderation == PRE, t(PRE_MODERATION), t(POST_MODERATION)),
                class_name="muted",
            ),
            rx.el.div(rx.foreach(S.rows, _photo), class_name="staff-review-grid"),
            rx.cond(
                S.loaded & (S.rows.length() == 0),
                rx.el.p(t(NOTHING_TO_REVIEW), class_name="muted", data_testid="review-empty"),
            ),
            pager(S.page, S.has_next, S.go),
        ),
    )
