"""The swipe lander (`/landers/tinderswipe`, no slug: the plain niche, nearest the visitor): a deck
of member cards written by the server. Pass shows the next card, like leads to the signup aimed
at that member (`/members/{id}/signup`); after the last card, the signup.

The deck works before the app's JavaScript: a few lines of inline handlers on the deck (the
site's CSP allows them) move the cards' `data-depth` and `inert`, CSS draws the stack and the
card flying off; a horizontal swipe presses the top card's button. Every card is keyboard
reachable through its two real controls, a button and a link."""

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
from components.server_parts import PageRequest, server_html
from models.routes import member_signup_url, url
from models.site_settings import SiteSettings
from translations.catalog import N_, gettext

KIND = "tinderswipe"
SHOWN = 20
STACKED = 3  # cards drawn in the stack; deeper ones are not displayed (their photos wait)
SWIPE_PX = 70  # a horizontal swipe this long presses pass (left) or like (right)

PASS, LIKE = N_("Pass"), N_("Like")
HOW = N_("Pass or like. Like someone and create your free account to get in touch.")
END = N_("That is everyone we show here. Create your free account to see more members.")
CREATE = N_("Create my free account")

# On a pass: the top card flies off (data-gone), the rest move up a place and the new top card
# gets the focus, so a keyboard user stays in the deck.
_ON_CLICK = (
    "if(!event.target.closest('.deck-pass'))return;"
    "var cards=[].slice.call(this.querySelectorAll('.deck-card:not([data-gone])'));"
    "var top=cards.shift();top.dataset.gone='';top.inert=true;"
    f"cards.forEach(function(card,i){{card.dataset.depth=i<{STACKED}?i:'far'}});"
    "cards[0].inert=false;cards[0].querySelector('a,button').focus({preventScroll:true})"
)
_ON_POINTER_DOWN = "this.swipeX=event.clientX"
_ON_POINTER_UP = (
    "var dx=event.clientX-this.swipeX;this.swipeX=NaN;"
    f"if(!(Math.abs(dx)>={SWIPE_PX}))return;"  # NaN too: no press on this deck
    "var go=this.querySelector('[data-depth=\"0\"] '+(dx<0?'.deck-pass':'.deck-like'));"
    "if(go)go.click()"
)
_CROSS = '<path d="M6 6l12 12M18 6L6 18"/>'
_HEART = '<path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"/>'


def _icon(path: str) -> str:
    return (
        '<svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor"'
        f' stroke-width="2.4" stroke-linecap="round" aria-hidden="true">{path}</svg>'
    )


def _depth(index: int) -> str:
    return str(index) if index < STACKED else "far"


def _card_attributes(index: int, name: str) -> str:
    """The stack's place; only the top card can be reached until it is passed."""
    inert = " inert" if index else ""
    return f'class="deck-card" data-depth="{_depth(index)}" aria-label="{name}"{inert}'


def _photo(member: Mapping, index: int) -> str:
    """The 400 px square thumbnail (the full photo would be the page's heaviest paint); the top
    card's at once and first, the next ones when they come into the stack."""
    load = 'loading="eager" fetchpriority="high"' if index == 0 else 'loading="lazy"'
    return (
        f'<img src="{escape(member["photo"])}" alt="{escape(member["name"])}" width="400"'
        f' height="400" draggable="false" {load}>'
    )


def _member_card(member: Mapping, index: int, texts: Mapping[str, str]) -> str:
    name = escape(member["name"])
    label = f"{name}, {member['age']}"
    fictional = (
        f'<span class="fictional-badge">{escape(texts["fictional"])}</span>'
        if member["fictional"]
        else ""
    )
    return (
        f'<article {_card_attributes(index, label)} data-testid="swipe-card">'
        f'<div class="deck-photo">{_photo(member, index)}{fictional}<div class="deck-info">'
        f'<h2 class="deck-name">{label}</h2>'
        f'<p class="deck-place">{escape(member["place"])}</p></div></div>'
        '<div class="deck-actions">'
        f'<button type="button" class="deck-pass" data-testid="swipe-pass">{_icon(_CROSS)}'
        f"<span>{escape(texts['pass'])}</span></button>"
        f'<a class="deck-like" href="{escape(member_signup_url(member["id"]))}"'
        f' data-testid="swipe-like">{_icon(_HEART)}<span>{escape(texts["like"])}</span></a>'
        "</div></article>"
    )


def _end_card(index: int, texts: Mapping[str, str]) -> str:
    return (
        f'<article {_card_attributes(index, escape(texts["create"]))} data-testid="swipe-end">'
        f'<div class="deck-end"><p>{escape(texts["end"])}</p>'
        f'<a class="deck-create" href="{url("signup")}">{escape(texts["create"])}</a></div>'
        "</article>"
    )


def deck_html(found: LanderMembers, settings: SiteSettings, locale: str) -> str:
    """The members' cards, nearest first, on top of each other, and the end card under them."""
    if not found.members:
        return f'<p class="muted">{escape(gettext(locale, NOBODY))}</p>'
    texts = {
        "pass": gettext(locale, PASS),
        "like": gettext(locale, LIKE),
        "end": gettext(locale, END),
        "create": gettext(locale, CREATE),
        "fictional": settings.fictional_singular.get(locale, ""),
    }
    members = found.members
    cards = "".join(_member_card(member, i, texts) for i, member in enumerate(members))
    return (
        f'<div class="swipe-deck" data-testid="swipe-deck" onclick="{escape(_ON_CLICK)}"'
        f' onpointerdown="{escape(_ON_POINTER_DOWN)}" onpointerup="{escape(_ON_POINTER_UP)}">'
        f"{cards}{_end_card(len(members), texts)}</div>"
    )


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN)
    locale = request.locale
    how = f'<p class="deck-how">{escape(gettext(locale, HOW))}</p>'
    return {
        lander_mark("head"): head_html(view, locale) + how,
        lander_mark("deck"): deck_html(view.found, request.settings, locale),
    }


def tinderswipe_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(
            rx.el.div(server_html(LANDER, "head"), class_name="deck-head"),
            rx.el.div(server_html(LANDER, "deck"), class_name="deck-holder"),
            rx.el.div(signup_button(), class_name="deck-cta"),
            class_name="deck-layout",
        ),
    )
