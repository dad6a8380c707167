"""What every lander shares (docs/acquisition.md, "Niches and landers"): the niche's members
nearest the visitor, the honest headline and counted number, member cards, the signup button
and the page's frame.

The click is paid, so a lander paints with its members before any JavaScript: its writer reads
the members (actions/lander_reads.py) and writes its parts in the visitor's language in place
of the marks the prerender left in its holders (components/server_parts.py)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from html import escape

import reflex as rx

from actions.lander_reads import (
    ANYWHERE,
    COUNTRY,
    LanderAsk,
    LanderMembers,
    MemberChooser,
    lander_members,
    read_lander,
)
from actions.runner import read
from components.cam_promotion import cam_card
from components.i18n import t
from components.member_card import EAGER_CARDS
from components.server_parts import PageRequest, part_mark
from components.signup_modal import signup_modal
from models.lander_slug import LanderPlace, LanderTarget, slug_of
from models.lander_variants import HEADLINE_TEXTS, PLAIN, Variant, variant_named
from models.regions import region_name
from models.routes import member_signup_url
from models.site_settings import SiteSettings
from state.shell import country_of_request
from state.signup import SignupState
from translations.catalog import N_, N_plural, gettext
from translations.numbers import country_name

LANDER = "lander"  # the family of the landers' marks: ⟦lander-{name}⟧
# The grid's columns (assets/site.css .member-grid): 2, 3 from 576 px, 4 from 768, 6 from 1200.
SIZES = "(min-width: 1200px) 190px, (min-width: 768px) 25vw, (min-width: 576px) 33vw, 50vw"


def lander_mark(name: str) -> str:
    return part_mark(LANDER, name)


def lander_kind(path: str) -> str:
    """`gallery` for `/landers/gallery/milf-amsterdam`; "" for an address outside /landers."""
    segments = path.strip("/").split("/")
    return segments[1] if len(segments) > 1 and segments[0] == "landers" else ""


@dataclass(frozen=True)
class LanderView:
    """A lander's slug read, the members it shows, the visitor's country (None: unknown) and
    the variant the visitor was given (models/lander_variants.py)."""

    target: LanderTarget
    found: LanderMembers
    country: str | None
    variant: Variant = PLAIN


# Each niche's headline says what its selection holds (models/niches.py) and no more: bdsm has
# no attribute to select on, so it reads as the plain lander.
HEADLINES = {
    "none": N_("Meet new people and start chatting"),
    "bdsm": N_("Meet new people and start chatting"),
    "she": N_("Meet women who are looking for a man"),
    "milf": N_("Meet women aged 40 and over who are looking for a man"),
    "gilf": N_("Meet women aged 60 and over who are looking for a man"),
    "bbw": N_("Meet full-figured women who are looking for a man"),
    "gay": N_("Meet men who are looking for a man"),
}
# "{place}:" first: Polish and Finnish would decline a place after "in".
COUNTED_IN = N_plural("{place}: {count} member", "{place}: {count} members")
COUNTED = N_plural("{count} member with a photo", "{count} members with a photo")
MORE_THAN_IN = N_plural("{place}: more than {count} member", "{place}: more than {count} members")
MORE_THAN = N_plural(
    "More than {count} member with a photo", "More than {count} members with a photo"
)
WIDENED = N_("{place}: only a few of them so far, so we also show members further away.")
NOBODY = N_("Nobody here yet. Sign up and be one of the first.")


def _place_name(place: LanderPlace, locale: str) -> str:
    return place.city or region_name(place.country, place.region, locale)


def _asked_place(target: LanderTarget, country: str | None, locale: str) -> str:
    """The place the visitor asked for (the slug's), or their country; "" for neither."""
    if target.place is not None:
        return _place_name(target.place, locale)
    return country_name(country, locale) if country else ""


def shown_place(
    target: LanderTarget, found: LanderMembers, country: str | None, locale: str
) -> str:
    """The name of the area the members shown come from ("" for anywhere)."""
    if found.area == ANYWHERE:
        return ""
    if found.area == COUNTRY:
        return country_name(target.place.country if target.place else country or "", locale)
    return _place_name(target.place, locale)


def _count_text(found: LanderMembers, place: str, locale: str) -> str:
    if found.capped:
        text = MORE_THAN_IN if place else MORE_THAN
    else:
        text = COUNTED_IN if place else COUNTED
    return gettext(locale, text, count=found.counted, place=place)


def _headline(target: LanderTarget, variant: Variant) -> str:
    """The variant's headline, else the niche's own."""
    return HEADLINE_TEXTS.get(variant.headline) or HEADLINES.get(target.niche, HEADLINES["none"])


CountText = Callable[[LanderMembers, str, str], str]  # (found, place shown, locale) -> text


def head_html(view: LanderView, locale: str, count: CountText = _count_text) -> str:
    """The headline, the counted number (as `count` words it) and, when the search widened,
    why."""
    target, found, country = view.target, view.found, view.country
    headline = gettext(locale, _headline(target, view.variant))
    place = shown_place(target, found, country, locale)
    html = f'<span class="lander-accent-{view.variant.accent}" hidden></span>'
    html += f'<h1 class="lander-title">{escape(headline)}</h1>'
    html += '<p class="lander-count" data-testid="lander-count">'
    html += f"{escape(count(found, place, locale))}</p>"
    asked = _asked_place(target, country, locale)
    if found.widened and asked:
        html += f'<p class="muted">{escape(gettext(locale, WIDENED, place=asked))}</p>'
    return html


def _photo(member: Mapping, index: int, sizes: str) -> str:
    """Sized for the grid's column; the first rows at once (the largest paint), the rest when
    scrolled near."""
    attributes = {
        "alt": member["name"],
        "src": member["photo"],
        "srcset": member["srcset"],
        "sizes": sizes,
        "width": "400",
        "height": "500",
        "loading": "eager" if index < EAGER_CARDS else "lazy",
        **({"fetchpriority": "high"} if index == 0 else {}),
    }
    return "<img " + " ".join(f'{key}="{escape(value)}"' for key, value in attributes.items()) + ">"


def card_html(member: Mapping, index: int, label: str, sizes: str = SIZES) -> str:
    """A member's card leading to the signup aimed at them, labelled if fictional."""
    name = escape(member["name"])
    fictional = (
        f'<span class="fictional-badge">{escape(label)}</span>' if member["fictional"] else ""
    )
    return (
        f'<a class="member-card" href="{escape(member_signup_url(member["id"]))}"'
        ' data-testid="lander-member">'
        f"{_photo(member, index, sizes)}{fictional}"
        '<div class="member-card-info">'
        f'<div class="member-card-name">{name}, {member["age"]}</div>'
        f'<div class="member-card-place">{escape(member["place"])}</div></div></a>'
    )


def grid_html(found: LanderMembers, settings: SiteSettings, locale: str) -> str:
    """The members' cards, each leading to the signup aimed at that member."""
    if not found.members:
        return f'<p class="muted">{escape(gettext(locale, NOBODY))}</p>'
    label = settings.fictional_singular.get(locale, "")
    cards = "".join(card_html(member, i, label) for i, member in enumerate(found.members))
    return f'<div class="member-grid">{cards}</div>'


async def lander_view(
    request: PageRequest, limit: int, choose: MemberChooser = lander_members
) -> LanderView:
    """Up to `limit` of the niche's members nearest this visitor (or as `choose` picks them)."""
    headers = request.headers
    country = country_of_request(headers, headers.get("accept-language")) or None
    ask = partial(
        LanderAsk,
        country=country,
        locale=request.locale,
        limit=limit,
        viewer_id=request.viewer_id,
        settings=request.settings,
    )
    target, found = await read(read_lander, slug_of(request.path) or "", ask, choose)
    kind = lander_kind(request.path)
    return LanderView(
        target, found, country, variant_named(request.settings, kind, request.variant)
    )


def signup_button() -> rx.Component:
    """Opens the signup on the page; its later steps load only then."""
    return rx.button(
        t("Create my free account"),
        size="4",
        on_click=SignupState.open_signup,
        class_name="lander-cta",
        data_testid="lander-signup",
    )


def lander_frame(kind: str, *children: rx.Component) -> rx.Component:
    """A lander's page: its parts and the signup modal (the entry warning in nl and de only)."""
    return rx.fragment(
        rx.el.section(
            *children,
            cam_card(f"landers-{kind}"),
            class_name=f"container lander lander-{kind}",
            data_testid=f"page-landers-{kind}",
        ),
        signup_modal(only_nl_de_warning=True),
    )
