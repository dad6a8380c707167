"""Settings → photos: the member's photo grid with main photo, order and delete, and the upload
zone with the photo limit (state/photo_manager.py)."""

import reflex as rx

from components.confirm_dialog import confirm_content
from components.forms import field_error
from components.i18n import t, tn
from components.link_button import link_button
from components.photo_picker import photo_picker
from models.profile_steps import PREMIUM_PHOTOS
from models.routes import url
from state.photo_manager import AT_LIMIT, UPLOAD_ID
from state.photo_manager import PhotoManagerState as S
from translations.catalog import N_, N_plural
from translations.errors import PHOTO_LIMIT_REACHED

PREMIUM_HINT = N_plural(
    "Premium members can show up to {count} photo.",
    "Premium members can show up to {count} photos.",
)


MAIN_FIRST = S.photos[0]["is_main"].to(bool)  # the gallery starts with a main photo


def _icon_action(icon: str, label: str, **props) -> rx.Component:
    """A labelled icon button, disabled while photos are being processed (or as `disabled`)."""
    return rx.icon_button(
        rx.icon(icon, size=18),
        variant="soft",
        size="2",
        aria_label=t(label),
        title=t(label),
        **({"disabled": S.busy} | props),
    )


def _delete_button(photo_id: rx.Var[int]) -> rx.Component:
    """Delete after a confirmation."""
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(
            _icon_action(
                "trash-2", N_("Delete photo"), color_scheme="red", data_testid="photo-delete"
            )
        ),
        confirm_content(
            t("Delete this photo?"),
            t("The photo disappears from your profile for good."),
            N_("Delete"),
            S.delete(photo_id),
            "photo-delete-confirm",
            max_width="400px",
        ),
    )


def _make_main_button(photo_id: rx.Var[int]) -> rx.Component:
    return rx.button(
        t("Make main photo"),
        size="1",
        variant="soft",
        on_click=S.make_main(photo_id),
        disabled=S.busy,
        class_name="photo-make-main",
        data_testid="photo-make-main",
    )


def _status_badge(status: rx.Var[str]) -> rx.Component:
    """A photo others cannot see: waiting for a moderator, or removed by one."""
    return rx.match(
        status,
        (
            "pending",
            rx.el.span(
                t("Waiting for approval"),
                title=t("Only you can see this photo until a moderator approves it."),
                class_name="photo-main-badge photo-status-badge",
                data_testid="photo-pending",
            ),
        ),
        (
            "rejected",
            rx.el.span(
                t("Removed by a moderator"),
                class_name="photo-main-badge photo-status-badge",
                data_testid="photo-rejected",
            ),
        ),
        rx.fragment(),
    )


def _tile(photo: rx.Var[dict], index: rx.Var[int]) -> rx.Component:
    photo_id, is_main = photo["id"].to(int), photo["is_main"].to(bool)
    status = photo["status"].to(str)
    approved = status == "approved"
    return rx.el.div(
        rx.cond(
            status == "rejected",
            rx.el.div(rx.icon("image-off", size=32), class_name="photo-tile-image photo-gone"),
            rx.image(
                src=photo["url"].to(str), alt="", loading="lazy", class_name="photo-tile-image"
            ),
        ),
        rx.cond(
            is_main,
            rx.el.span(t("Main photo"), class_name="photo-main-badge", data_testid="photo-main"),
            _status_badge(status),
        ),
        rx.el.div(
            _icon_action(
                "chevron-left",
                N_("Move left"),
                on_click=S.move(photo_id, -1),
                # Only an approved photo can take the main photo's first place.
                disabled=S.busy | (index == 0) | ((index == 1) & ~approved & MAIN_FIRST),
                data_testid="photo-left",
            ),
            _icon_action(
                "chevron-right",
                N_("Move right"),
                on_click=S.move(photo_id, 1),
                disabled=S.busy | (index == S.photos.length() - 1),
                data_testid="photo-right",
            ),
            _delete_button(photo_id),
            class_name="photo-tile-actions",
        ),
        rx.cond(is_main | ~approved, rx.fragment(), _make_main_button(photo_id)),
        class_name="photo-tile",
        data_main=is_main,
        data_status=status,
        data_testid="photo-tile",
    )


def _upload_zone() -> rx.Component:
    return photo_picker(
        rx.cond(S.busy, rx.spinner(size="3"), rx.icon("image-plus", size=28)),
        rx.el.span(
            rx.cond(
                S.busy,
                t("Your photos are being processed…"),
                t("Choose photos or drop them here"),
            )
        ),
        rx.el.span(t("JPEG, PNG or WebP, at most 10 MB each."), class_name="field-hint"),
        on_files=S.upload,
        upload_id=UPLOAD_ID,
        multiple=True,
        disabled=S.busy,
        class_name="photo-drop",
        data_busy=S.busy,
        data_testid="photo-upload",
    )


def _limit_reached() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("images")),
        rx.el.div(
            rx.callout.text(t(PHOTO_LIMIT_REACHED)),
            rx.cond(
                S.premium,
                rx.fragment(),
                rx.el.div(
                    rx.callout.text(t(PREMIUM_HINT, count=PREMIUM_PHOTOS)),
                    link_button(
                        rx.icon("crown", size=16),
                        t("Get Premium"),
                        href=url("premium"),
                        color_scheme="amber",
                        data_testid="photo-get-premium",
                    ),
                    class_name="photo-limit-premium",
                ),
            ),
            class_name="form-stack",
        ),
        color_scheme="amber",
        data_testid="photo-limit",
    )


def _upload_errors() -> rx.Component:
    return rx.fragment(
        field_error(S.errors, "photo"),
        rx.foreach(
            S.file_errors,
            lambda text: rx.el.div(
                text, class_name="field-error", role="alert", data_testid="photo-file-error"
            ),
        ),
    )


def photo_manager() -> rx.Component:
    return rx.el.section(
        rx.flex(
            rx.heading(t("My photos"), size="4"),
            rx.badge(
                tn(
                    "{count} of {limit} photo",
                    "{count} of {limit} photos",
                    S.limit,
                    count=S.photos.length(),
                    limit=S.limit,
                ),
                size="2",
                variant="soft",
                data_testid="photo-count",
            ),
            justify="between",
            align="center",
            spacing="3",
            wrap="wrap",
        ),
        rx.el.p(
            t("Your main photo is the one other members see first."),
            class_name="muted",
        ),
        rx.cond(
            S.photos.length() > 0,
            rx.el.div(rx.foreach(S.photos, _tile), class_name="photo-manager-grid"),
        ),
        rx.cond(AT_LIMIT, _limit_reached(), _upload_zone()),
        _upload_errors(),
        class_name="card form-stack",
        data_testid="photo-manager",
    )
