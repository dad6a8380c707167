"""The icons lander (`/landers/iconslanding/{slug?}`): the site's promises, each an icon and a short
text, on a panel over the niche's members nearest the visitor, with the headline, the counted
number and the signup.

Each promise is what the site does (docs/acquisition.md, "The icons lander"): creating an account
is free; new photos are scored by the classifier and reviewed by moderators (docs/photos.md);
privacy mode hides a profile from visitors and a member may download or delete their data;
credits come in one-time bundles, no subscription (docs/payments.md); members can report and
block; the site speaks LOCALES. The icons are inline SVG: no icon font, no JavaScript."""

from dataclasses import dataclass
from html import escape

import reflex as rx

from actions.lander_reads import LanderMembers
from components.landers.common import (
    LANDER,
    card_html,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    signup_button,
)
from components.member_card import EAGER_CARDS
from components.server_parts import PageRequest, server_html
from models.site_settings import SiteSettings
from translations.catalog import N_, Counted, N_plural, gettext
from translations.locales import LOCALES

KIND = "iconslanding"
SHOWN = 18  # behind the panel: two rows of 3 on phones (the first 6), three of 6 from 768 px
SIZES = "(min-width: 1200px) 200px, (min-width: 768px) 17vw, 33vw"


@dataclass(frozen=True)
class Promise:
    icon: str  # the SVG's inner elements (24x24, stroked with the text's colour)
    title: str | Counted
    text: str


PROMISES = (
    Promise(
        '<circle cx="9" cy="8" r="4"/><path d="M2 21v-1a7 7 0 0 1 14 0v1"/>'
        '<path d="M19 8v6M16 11h6"/>',
        N_("Free to sign up"),
        N_("Creating your account costs nothing."),
    ),
    Promise(
        '<path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z"/><path d="m9 12 2 2 4-4"/>',
        N_("Photos checked"),
        N_("New photos are scanned automatically and reviewed by our moderators."),
    ),
    Promise(
        '<rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>',
        N_("Your privacy"),
        N_(
            "Privacy mode hides your profile from visitors. Download or delete your data"
            " whenever you like."
        ),
    ),
    Promise(
        '<circle cx="8" cy="8" r="6"/><path d="M18.09 10.37A6 6 0 1 1 10.34 18"/>'
        '<path d="M7 6h1v4"/>',
        N_("No subscription"),
        N_("Credits in one-time bundles: you pay only for what you use."),
    ),
    Promise(
        '<path d="M4 15s1-1 4-1 5 2 8 2 4-1 4-1V3s-1 1-4 1-5-2-8-2-4 1-4 1z"/><path d="M4 22v-7"/>',
        N_("Report and block"),
        N_("Report or block anyone who bothers you."),
    ),
    Promise(
        '<circle cx="12" cy="12" r="10"/><path d="M2 12h20"/>'
        '<path d="M12 2a15.3 15.3 0 0 1 4 10 15.3 15.3 0 0 1-4 10 15.3 15.3 0 0 1-4-10'
        ' 15.3 15.3 0 0 1 4-10z"/>',
        N_plural("{count} language", "{count} languages"),
        N_("Use the site in your own language."),
    ),
)


def _promise_html(promise: Promise, locale: str) -> str:
    svg = (
        '<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor"'
        ' stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">'
        f"{promise.icon}</svg>"
    )
    title = gettext(locale, promise.title, count=len(LOCALES))
    return (
        f'<li class="promise"><span class="promise-icon">{svg}</span>'
        f"<div><h2>{escape(title)}</h2><p>{escape(gettext(locale, promise.text))}</p></div></li>"
    )


def promises_html(locale: str) -> str:
    items = "".join(_promise_html(promise, locale) for promise in PROMISES)
    return f'<ul class="promises" data-testid="lander-promises">{items}</ul>'


def photos_html(found: LanderMembers, settings: SiteSettings, locale: str) -> str:
    """The members behind the panel, each leading to the signup aimed at them."""
    label = settings.fictional_singular.get(locale, "")
    members = enumerate(found.members, EAGER_CARDS)  # lazy: the headline is the largest paint
    cards = "".join(card_html(member, i, label, SIZES) for i, member in members)
    return f'<div class="icons-photos">{cards}</div>'


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN)
    return {
        lander_mark("photos"): photos_html(view.found, request.settings, request.locale),
        lander_mark("head"): head_html(view, request.locale),
        lander_mark("promises"): promises_html(request.locale),
    }


def icons_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(
            server_html(LANDER, "photos"),
            rx.el.div(
                server_html(LANDER, "head"),
                signup_button(),
                server_html(LANDER, "promises"),
                rx.el.div(signup_button(), class_name="lander-cta-row"),
                class_name="icons-panel",
            ),
            class_name="icons-stage",
        ),
    )
