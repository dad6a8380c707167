"""The signup aimed at a member (`/members/{id}/signup`): under the signup modal, which opens
once the page runs (state/signup.open_for_member), the member's photo, name, age and place are
on the first paint, written by the server."""

from html import escape

import reflex as rx

from actions.member_pages import LandingMember
from components.member_landings.common import (
    MEMBER,
    fictional_html,
    name_html,
    photo_html,
    place_html,
)
from components.server_parts import PageRequest, server_html
from state.profile_view import LOGIN_TO_CHAT
from translations.catalog import gettext

PART = "signup"
SIZES = "(min-width: 576px) 360px, 100vw"


def signup_html(member: LandingMember, request: PageRequest) -> str:
    locale = request.locale
    invite = escape(gettext(locale, LOGIN_TO_CHAT, name=member.name))
    return (
        '<div class="ml-signup"><div class="ml-photo-frame">'
        f"{photo_html(member, SIZES, 'ml-photo')}{fictional_html(member, request)}</div>"
        f"{name_html(member, 'h1', 'ml-name')}{place_html(member, locale, 'ml-place')}"
        f'<p class="muted">{invite}</p></div>'
    )


def signup_teaser() -> rx.Component:
    return rx.el.div(
        server_html(MEMBER, PART), class_name="container", data_testid="page-member-signup"
    )
