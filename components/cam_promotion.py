"""The cam promotion card (spec: "Cam promotion cards"; docs/acquisition.md, "Cam promotion"):
an advertisement for a partner's live cam site, marked as one, its link carrying our partner
code and where it was shown. Shown only while the setting is on, and only to a logged-in member
or a visitor who confirmed the entry warning: never to someone who has not passed it."""

import reflex as rx

from components.i18n import t
from state.session import SessionState
from state.shell import ShellState
from translations.catalog import N_

AD = N_("Advertisement")
PITCH = N_("Live video chat with cam models at {partner}, a partner site with its own prices.")
VISIT = N_("Visit {partner}")
PLACEHOLDER = "{placement}"


def cam_card(placement: str) -> rx.Component:
    """The card, its link telling the partner it was shown at `placement` (a route name)."""
    passed_the_warning = SessionState.logged_in | (ShellState.entry_warning_dismissed_at != "")
    partner = ShellState.cam_partner
    return rx.cond(
        (ShellState.cam_link != "") & passed_the_warning,
        rx.el.aside(
            rx.el.span(t(AD), class_name="cam-card-label"),
            rx.el.div(
                rx.icon("video", size=28, aria_hidden="true"),
                rx.el.p(t(PITCH, partner=partner), class_name="cam-card-pitch"),
                class_name="cam-card-body",
            ),
            rx.link(
                t(VISIT, partner=partner),
                href=ShellState.cam_link.replace(PLACEHOLDER, placement),
                is_external=True,
                rel="sponsored noopener noreferrer",
                class_name="cam-card-link",
                data_testid="cam-card-link",
            ),
            class_name="cam-card",
            aria_label=t(AD),
            data_testid="cam-card",
        ),
    )
