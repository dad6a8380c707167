"""What a member's server-written pages share (docs/acquisition.md, "Member landings"): the
family of marks, the member read for this request, and the member's photo, place, about-me
text, details and the "Chat with {name}" link as HTML in the visitor's language.

Every value is escaped here; the pages' holders (`server_html(MEMBER, …)`) are hydrated with
the HTML the server wrote, so the member is on the first paint, before any JavaScript."""

import re
from html import escape

import reflex as rx

from actions.member_pages import LandingMember, member_found
from actions.runner import read
from components.server_parts import PageRequest, part_mark
from models.regions import region_name
from models.routes import member_signup_url
from translations.catalog import N_, gettext, pgettext
from translations.numbers import country_name

MEMBER = "member"  # the family of the member pages' marks: ⟦member-{name}⟧
CHAT_WITH = N_("Chat with {name}")
ABOUT_ME = N_("About me")
DETAILS = N_("Details")
# A member's page: /members/{id}, then its kind (landing, landing2, landing3, signup).
_MEMBER_PATH = re.compile(r"/members/([0-9]{1,18})(?:/([a-z0-9]+))?(?:/.*)?")
# lucide's map-pin, as the profile's rx.icon("map-pin") draws it
PIN = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="15" height="15" viewBox="0 0 24 24"'
    ' fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"'
    ' stroke-linejoin="round" aria-hidden="true" style="flex-shrink:0">'
    '<path d="M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993'
    ' 4 10a8 8 0 0 1 16 0"/><circle cx="12" cy="10" r="3"/></svg>'
)


def member_mark(name: str) -> str:
    return part_mark(MEMBER, name)


def member_page(path: str) -> tuple[int, str] | None:
    """(member id, page kind: "" for the profile) of a member's page address."""
    found = _MEMBER_PATH.fullmatch(path)
    return (int(found[1]), found[2] or "") if found else None


async def listed_member(request: PageRequest, member_id: int) -> LandingMember | None:
    """The member, if this viewer may see them on a landing (others are redirected before:
    app/member_redirects.py, whose read is reused; this check holds if the redirect did not
    run)."""
    found = request.member
    if found is None or found.member is None or found.member.id != member_id:
        found = await read(member_found, request.viewer_id, member_id, request.settings)
    return found.member if found.listed else None


def attributes(values: dict[str, str]) -> str:
    return " ".join(f'{key}="{escape(value)}"' for key, value in values.items())


def photo_html(member: LandingMember, sizes: str, class_name: str = "") -> str:
    """The member's main photo, the page's largest paint: at once, first in line."""
    if not member.photo:
        name = escape(member.name)
        return f'<div class="ml-no-photo {class_name}" role="img" aria-label="{name}"></div>'
    values = {
        "alt": member.name,
        "src": member.photo,
        "srcset": member.srcset,
        "sizes": sizes,
        "width": "400",
        "height": "500",
        "fetchpriority": "high",
        "class": class_name,
    }
    return f"<img {attributes(values)}>"


def place_text(city: str, region: str, country: str, locale: str) -> str:
    """ "City, Region, Country" as the profile says it: a region named as its city once."""
    region_text = region_name(country, region, locale) if country else ""
    if region_text.lower() == city.lower():
        region_text = ""
    return ", ".join(
        filter(None, (city, region_text, country_name(country, locale) if country else ""))
    )


def place_html(member: LandingMember, locale: str, class_name: str) -> str:
    place = place_text(member.city, member.region, member.country, locale)
    if not place:
        return ""
    return f'<p class="{class_name}">{PIN}<span>{escape(place)}</span></p>'


def name_html(member: LandingMember, tag: str, class_name: str) -> str:
    return (
        f'<{tag} class="{class_name}" data-testid="member-name">{escape(member.name)}'
        f"<span>, {member.age}</span></{tag}>"
    )


def fictional_html(member: LandingMember, request: PageRequest) -> str:
    """The settings' label of a fictional profile, as the landers' cards carry it."""
    if not member.fictional:
        return ""
    label = request.settings.fictional_singular.get(request.locale, "")
    return f'<span class="fictional-badge" data-testid="fictional-label">{escape(label)}</span>'


def label_text(key: str, locale: str) -> str:
    """A profile value's label key (models.attribute_labels.label_key) in `locale`."""
    context, _, msgid = key.rpartition("\x04")
    return pgettext(locale, context or None, msgid)


def about_html(member: LandingMember, locale: str, class_name: str = "ml-about") -> str:
    if not member.about_me:
        return ""
    return (
        f'<section class="{class_name}"><h2>{escape(gettext(locale, ABOUT_ME))}</h2>'
        f"<p>{escape(member.about_me)}</p></section>"
    )


def details_html(member: LandingMember, locale: str, class_name: str = "ml-details") -> str:
    """The profile details the settings show, as label and value."""
    if not member.details:
        return ""
    rows = "".join(
        f"<div><dt>{escape(gettext(locale, label))}</dt>"
        f"<dd>{escape(label_text(value, locale))}</dd></div>"
        for label, value in member.details
    )
    title = escape(gettext(locale, DETAILS))
    return f'<section class="{class_name}"><h2>{title}</h2><dl>{rows}</dl></section>'


def chat_link(member: LandingMember, locale: str, class_name: str = "ml-cta") -> str:
    """ "Chat with {name}": the signup aimed at the member (its step 0 offers a first message)."""
    text = escape(gettext(locale, CHAT_WITH, name=member.name))
    href = escape(member_signup_url(member.id))
    return f'<a class="{class_name}" href="{href}" data-testid="member-chat">{text}</a>'


def member_frame(kind: str, *children: rx.Component) -> rx.Component:
    """A member landing's page: what the server wrote, nothing else to load."""
    return rx.el.section(
        *children,
        class_name=f"container lander member-landing member-{kind}",
        data_testid=f"page-member-{kind}",
    )
