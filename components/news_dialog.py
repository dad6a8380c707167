"""The frame of the modals that tell news (a like, a match): an icon in a round badge, the
title, the news, open only on the page it opened on (state/page_modal.py)."""

import reflex as rx

from components.i18n import t
from state.page_modal import PageModal


def news_dialog(
    modal: type[PageModal], icon: str, title: str, *children: rx.Component, testid: str
) -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.el.div(rx.icon(icon, size=30), class_name="like-modal-icon"),
            rx.dialog.title(t(title), class_name="like-modal-title"),
            *children,
            class_name="like-dialog",
            data_testid=testid,
        ),
        open=modal.open & (modal.shown_at == rx.State.router.url.path),
        on_open_change=modal.open_changed,
    )
