"""The profile gallery: the chosen photo large, thumbnails below; locked photos arrive blurred
from the server and carry a lock with the way to see them."""

import reflex as rx

from components.i18n import t
from components.link_button import link_button
from components.report_dialog import complaint_link, report_button
from models.moderation import ContentType
from models.routes import url
from state.profile_view import ProfileViewState as S


def _lock_overlay(lock: rx.Var[str]) -> rx.Component:
    return rx.el.div(
        rx.icon("lock", size=28),
        rx.match(
            lock,
            ("login", rx.el.p(t("Log in to see more photos"))),
            (
                "privacy",
                rx.el.p(t("{name} shows this photo only to members she or he liked.", name=S.name)),
            ),
            rx.el.p(t("Get Premium to see all photos")),
        ),
        rx.match(
            lock,
            (
                "login",
                rx.button(t("Log in"), on_click=S.ask_login("photos"), size="2"),
            ),
            ("privacy", rx.fragment()),
            link_button(t("Get Premium"), href=url("premium"), color_scheme="amber", size="2"),
        ),
        class_name="photo-lock",
        data_testid="photo-lock",
    )


def _thumb(photo: rx.Var[dict], index: rx.Var[int]) -> rx.Component:
    return rx.el.button(
        rx.image(src=photo["thumb"], alt="", loading="lazy"),
        rx.cond(photo["lock"] != "", rx.el.span(rx.icon("lock", size=14), class_name="thumb-lock")),
        type="button",
        class_name="gallery-thumb",
        data_selected=index == S.photo_index,
        on_click=S.show_photo(index),
        aria_label=t("Photo {number}", number=index + 1),
    )


def _arrow(icon: str, step: int, label: str) -> rx.Component:
    return rx.el.button(
        rx.icon(icon, size=22),
        type="button",
        class_name=f"gallery-arrow gallery-arrow-{'prev' if step < 0 else 'next'}",
        on_click=S.step_photo(step),
        aria_label=label,
    )


def _photo_reports() -> rx.Component:
    """Report the photo shown (a member) or send a notice about it (anybody)."""
    current = S.current_photo
    return rx.cond(
        (S.status == "visible") & (S.photos.length() > 0) & (current["lock"] == ""),
        rx.flex(
            report_button(ContentType.PHOTO, current["id"].to(int)),
            complaint_link(current["src"]),
            spacing="3",
            align="center",
            justify="end",
            wrap="wrap",
        ),
    )


def photo_gallery() -> rx.Component:
    current = S.current_photo
    return rx.el.div(
        rx.el.div(
            rx.cond(
                S.photos.length() > 0,
                rx.image(src=current["src"], alt=S.name, class_name="gallery-main-image"),
                rx.el.div(rx.icon("user-round", size=72), class_name="gallery-empty"),
            ),
            rx.cond(current["lock"] != "", _lock_overlay(current["lock"])),
            rx.cond(
                S.premium,
                rx.el.span(rx.icon("crown", size=14), t("Premium"), class_name="gold-badge"),
            ),
            rx.cond(
                S.photos.length() > 1,
                rx.fragment(
                    _arrow("chevron-left", -1, t("Previous photo")),
                    _arrow("chevron-right", 1, t("Next photo")),
                ),
            ),
            class_name="gallery-main",
            data_testid="gallery-main",
        ),
        rx.cond(
            S.photos.length() > 1,
            rx.el.div(rx.foreach(S.photos, _thumb), class_name="gallery-thumbs"),
        ),
        _photo_reports(),
        class_name="gallery",
        data_testid="gallery",
    )
