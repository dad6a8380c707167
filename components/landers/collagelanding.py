"""The collage lander (`/landers/collagelanding/{slug?}`): the niche's members nearest the visitor
as a photo collage of small and large tiles, beside (on phones above) the headline, the counted
number and the signup; every tile leads to the signup aimed at its member."""

from collections.abc import Mapping
from html import escape

import reflex as rx

from actions.lander_reads import LanderMembers
from components.landers.common import (
    LANDER,
    NOBODY,
    card_html,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    signup_button,
)
from components.server_parts import PageRequest, server_html
from models.site_settings import SiteSettings
from services.photo_pipeline import THUMB_SIZE
from translations.catalog import gettext

KIND = "collagelanding"
SHOWN = 24  # with a large tile every sixth: 36 cells, whole rows of 3 (phones) and 6 columns
LARGE_EVERY = 6  # assets/site.css: .collage > :nth-child(6n+1) spans two columns and rows
# Three columns below 992 px; from 992 px six beside the headline (about 130 px, large 270 px).
SMALL_SIZES = "(min-width: 992px) 130px, 33vw"
LARGE_SIZES = "(min-width: 992px) 270px, 66vw"


def _tile(member: Mapping, index: int, label: str) -> str:
    """A member's tile; a large one offers the 400 px thumbnail only: with the full photo a
    phone would fetch 1600 px for the page's largest paint."""
    if index % LARGE_EVERY:
        return card_html(member, index, label, SMALL_SIZES)
    thumbnail = {**member, "srcset": f"{member['photo']} {THUMB_SIZE[0]}w"}
    return card_html(thumbnail, index, label, LARGE_SIZES)


def collage_html(found: LanderMembers, settings: SiteSettings, locale: str) -> str:
    """The members' tiles, the nearest first and large."""
    if not found.members:
        return f'<p class="muted">{escape(gettext(locale, NOBODY))}</p>'
    label = settings.fictional_singular.get(locale, "")
    tiles = "".join(_tile(member, i, label) for i, member in enumerate(found.members))
    return f'<div class="collage">{tiles}</div>'


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN)
    return {
        lander_mark("head"): head_html(view, request.locale),
        lander_mark("collage"): collage_html(view.found, request.settings, request.locale),
    }


def collage_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(
            rx.el.div(
                server_html(LANDER, "head"),
                signup_button(),
                class_name="lander-panel",
            ),
            server_html(LANDER, "collage"),
            class_name="collage-stage",
        ),
        rx.el.div(signup_button(), class_name="collage-sticky"),
    )
