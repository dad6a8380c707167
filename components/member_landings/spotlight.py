"""Member landing 2 (`/members/{id}/landing2/{slug?}`): the spotlight. The photo fills the
first screen with the niche's wording, name, age, place and "Chat with {name}" over its lower
part; about me and the details follow on a sheet, with the link again."""

from html import escape

from components.member_landings.common import (
    about_html,
    chat_link,
    details_html,
    fictional_html,
    name_html,
    photo_html,
    place_html,
)
from components.member_landings.landing import Landing

KIND = "landing2"
SIZES = "(min-width: 992px) 560px, 100vw"


def html(landing: Landing) -> str:
    member, locale = landing.member, landing.request.locale
    more = about_html(member, locale) + details_html(member, locale)
    sheet = (
        f'<div class="ml-sheet">{more}{chat_link(member, locale, "ml-cta ml-cta-soft")}</div>'
        if more
        else ""
    )
    return (
        '<div class="ml-spotlight"><div class="ml-hero">'
        f"{photo_html(member, SIZES, 'ml-hero-photo')}{fictional_html(member, landing.request)}"
        '<div class="ml-hero-text">'
        f'<p class="ml-eyebrow">{escape(landing.headline)}</p>'
        f"{name_html(member, 'h1', 'ml-name')}{place_html(member, locale, 'ml-place')}"
        f"{chat_link(member, locale)}</div></div>{sheet}</div>"
    )
