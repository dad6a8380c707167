"""Member landing 1 (`/members/{id}/landing`): the portrait. The photo large beside (on a phone
above) the name, age and place, "Chat with {name}", then about me and the details."""

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

KIND = "landing"
SIZES = "(min-width: 768px) 520px, 100vw"


def html(landing: Landing) -> str:
    member, locale = landing.member, landing.request.locale
    return (
        '<div class="ml-portrait">'
        f'<div class="ml-photo-frame">{photo_html(member, SIZES, "ml-photo")}'
        f"{fictional_html(member, landing.request)}</div>"
        '<div class="ml-side">'
        f"{name_html(member, 'h1', 'ml-name')}{place_html(member, locale, 'ml-place')}"
        f"{chat_link(member, locale)}{about_html(member, locale)}{details_html(member, locale)}"
        "</div></div>"
    )
