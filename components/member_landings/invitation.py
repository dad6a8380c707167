"""Member landing 3 (`/members/{id}/landing3/{slug?}`): the invitation. The niche's wording, the
photo as a print with the name and place written under it, the member's own about-me text as a
speech bubble, the details as tags, and a message box that opens the signup aimed at them."""

from html import escape

from components.member_landings.common import (
    PIN,
    chat_link,
    fictional_html,
    label_text,
    name_html,
    photo_html,
    place_text,
)
from components.member_landings.landing import Landing
from models.routes import member_signup_url
from translations.catalog import N_, gettext

KIND = "landing3"
SIZES = "(min-width: 576px) 440px, 92vw"
WRITE_TO = N_("Write a message to {name}")


def _caption(landing: Landing) -> str:
    member = landing.member
    place = place_text(member.city, member.region, member.country, landing.request.locale)
    where = f'<p class="ml-place">{PIN}<span>{escape(place)}</span></p>' if place else ""
    return f'<div class="ml-caption">{name_html(member, "h1", "ml-name")}{where}</div>'


def _bubble(landing: Landing) -> str:
    about = landing.member.about_me
    return f'<blockquote class="ml-bubble">{escape(about)}</blockquote>' if about else ""


def _tags(landing: Landing) -> str:
    locale = landing.request.locale
    tags = "".join(
        f"<li>{escape(label_text(value, locale))}</li>"
        for _label_id, value in landing.member.details
    )
    return f'<ul class="ml-tags">{tags}</ul>' if tags else ""


def _composer(landing: Landing) -> str:
    member, locale = landing.member, landing.request.locale
    hello = escape(gettext(locale, WRITE_TO, name=member.name))
    href = escape(member_signup_url(member.id))
    return (
        f'<div class="ml-composer"><a class="ml-composer-box" href="{href}">{hello}</a>'
        f"{chat_link(member, locale)}</div>"
    )


def html(landing: Landing) -> str:
    member = landing.member
    return (
        '<div class="ml-invitation">'
        f'<p class="ml-eyebrow">{escape(landing.headline)}</p>'
        f'<figure class="ml-print">{photo_html(member, SIZES, "ml-print-photo")}'
        f"{fictional_html(member, landing.request)}{_caption(landing)}</figure>"
        f"{_bubble(landing)}{_tags(landing)}{_composer(landing)}</div>"
    )
