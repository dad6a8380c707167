"""Member landings (docs/acquisition.md, "Member landings"): one member's page for an ad, in
three designs, written by the server (components/member_landings/)."""

import reflex as rx

from app.pages.registry import page
from components.member_landings import invitation, portrait, spotlight
from components.member_landings.landing import landing_screen


@page("members-id-landing")
def portrait_page() -> rx.Component:
    return landing_screen(portrait.KIND)


@page("members-id-landing2")
def spotlight_page() -> rx.Component:
    return landing_screen(spotlight.KIND)


@page("members-id-landing3")
def invitation_page() -> rx.Component:
    return landing_screen(invitation.KIND)
