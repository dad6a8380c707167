"""The video lander (`/landers/video/{slug?}`): a full-screen sequence of the niche's members
nearest the visitor, their photos crossfading with a slow pan and zoom, each with name, age and
place; the headline, the counted number and the signup over it; below, the same members as a
list ("In this video"), which is also what a visitor who asks for reduced motion gets beside the
first photo. Made in the browser from CSS keyframes (assets/site.css, `.lander-video`)."""

from collections.abc import Mapping
from html import escape

import reflex as rx

from actions.lander_reads import LanderMembers
from components.landers.common import (
    LANDER,
    NOBODY,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    signup_button,
)
from components.landers.reel import (
    TURNS,
    fictional_badge,
    hidden_if,
    name_and_age,
    signup_href,
    turn_photo,
    turns,
    untabbed_if,
)
from components.server_parts import PageRequest, server_html
from translations.catalog import N_, gettext

KIND = "video"
IN_THIS_VIDEO = N_("In this video")
CAST_SIZE = 64  # px, the list's round photos
SIZES = "(min-width: 900px) 64vw, 100vw"  # the photo's part of the screen


def _slide(member: Mapping, turn: int, label: str) -> str:
    """The later slides wait off the screen between their turns: assistive technology and the
    keyboard reach the members through the list below instead."""
    later = turn > 0
    return (
        f'<a class="lander-video-slide" href="{signup_href(member)}" style="--turn:{turn}"'
        f'{hidden_if(later)}{untabbed_if(later)} data-testid="lander-member">'
        f"{turn_photo(member, turn, SIZES)}"
        f'<span class="lander-video-caption">{fictional_badge(member, label)}'
        f'<span class="lander-video-name">{name_and_age(member)}</span>'
        f'<span class="lander-video-place">{escape(member["place"])}</span></span></a>'
    )


def reel_html(found: LanderMembers, label: str, locale: str) -> str:
    if not found.members:
        return f'<div class="lander-video-reel"><p>{escape(gettext(locale, NOBODY))}</p></div>'
    slides = "".join(
        _slide(member, turn, label) for turn, (member, _repeat) in enumerate(turns(found.members))
    )
    return f'<div class="lander-video-reel">{slides}</div>'


def _cast_member(member: Mapping, label: str) -> str:
    return (
        f'<li><a href="{signup_href(member)}">'
        f'<span class="lander-video-cast-photo"><img alt="" src="{escape(member["photo"])}"'
        f' width="{CAST_SIZE}" height="{CAST_SIZE}" loading="lazy" decoding="async"></span>'
        f'<span class="lander-video-cast-text"><b>{name_and_age(member)}</b>'
        f"{fictional_badge(member, label)}"
        f'<span class="lander-video-cast-place">{escape(member["place"])}</span></span>'
        "</a></li>"
    )


def cast_html(found: LanderMembers, label: str, locale: str) -> str:
    """The members of the sequence, each once, each leading to the signup aimed at them."""
    if not found.members:
        return ""
    items = "".join(_cast_member(member, label) for member in found.members)
    heading = escape(gettext(locale, IN_THIS_VIDEO))
    return (
        f'<h2 class="lander-video-cast-title">{heading}</h2>'
        f'<ul class="lander-video-cast">{items}</ul>'
    )


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, TURNS)
    locale = request.locale
    label = request.settings.fictional_singular.get(locale, "")
    return {
        lander_mark("head"): head_html(view, locale),
        lander_mark("reel"): reel_html(view.found, label, locale),
        lander_mark("cast"): cast_html(view.found, label, locale),
    }


def video_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(
            server_html(LANDER, "reel"),
            rx.el.div(
                server_html(LANDER, "head"),
                signup_button(),
                class_name="lander-video-over",
            ),
            class_name="lander-video-screen",
        ),
        rx.el.div(
            server_html(LANDER, "cast"),
            rx.el.div(signup_button(), class_name="lander-cta-row"),
            class_name="lander-video-below",
        ),
    )
