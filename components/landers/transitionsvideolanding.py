"""The stories lander (`/landers/transitionsvideolanding/{slug?}`): beside the headline, the
counted number and the signup, a card where the niche's members nearest the visitor slide in
one after the other like stories, a progress bar per member, each with name, age, place and
"Chat with {name}" to the signup aimed at them. Made in the browser from CSS keyframes
(assets/site.css, `.lander-transitionsvideolanding`); with reduced motion the cards stand
still in a grid."""

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

KIND = "transitionsvideolanding"
CHAT_WITH = N_("Chat with {name}")
# The card: the column's width on a phone, at most 440 px (beside the text from 992 px).
SIZES = "(min-width: 472px) 440px, calc(100vw - 32px)"


def _story(member: Mapping, turn: int, repeat: bool, label: str, locale: str) -> str:
    chat = escape(gettext(locale, CHAT_WITH, name=member["name"]))
    return (
        f'<div class="story" style="--turn:{turn}"{hidden_if(repeat)} data-testid="lander-member">'
        f"{turn_photo(member, turn, SIZES)}{fictional_badge(member, label)}"
        '<div class="story-info">'
        f'<p class="story-name">{name_and_age(member)}</p>'
        f'<p class="story-place">{escape(member["place"])}</p>'
        f'<a class="story-chat" href="{signup_href(member)}"{untabbed_if(repeat)}>{chat}</a>'
        "</div></div>"
    )


def _bars(count: int) -> str:
    bars = "".join(f'<span class="story-bar" style="--i:{i}"><i></i></span>' for i in range(count))
    return f'<div class="story-bars" aria-hidden="true">{bars}</div>'


def stories_html(found: LanderMembers, label: str, locale: str) -> str:
    if not found.members:
        nobody = escape(gettext(locale, NOBODY))
        return f'<div class="story-card story-card-empty"><p>{nobody}</p></div>'
    shown = turns(found.members)
    stories = "".join(
        _story(member, turn, repeat, label, locale) for turn, (member, repeat) in enumerate(shown)
    )
    return (
        f'<div class="story-card" style="--n:{len(shown)}">{_bars(len(shown))}'
        f'<div class="story-stack">{stories}</div></div>'
    )


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, TURNS)
    locale = request.locale
    label = request.settings.fictional_singular.get(locale, "")
    return {
        lander_mark("head"): head_html(view, locale),
        lander_mark("stories"): stories_html(view.found, label, locale),
    }


def transitions_video_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(
            rx.el.div(server_html(LANDER, "head"), class_name="story-head"),
            rx.el.div(server_html(LANDER, "stories"), class_name="story-screen"),
            rx.el.div(signup_button(), class_name="story-cta"),
            class_name="story-split",
        ),
    )
