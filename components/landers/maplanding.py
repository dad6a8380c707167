"""The map lander (`/landers/maplanding/{slug?}`): the visitor's country (or the slug's place's)
drawn by us, each region a bubble sized by the niche's members counted there, the regions and
their counts as a list of links to the same lander for that region, then a few members of the
place asked for and the signup. A visitor whose country the site does not serve (or who gives
none away) sees the served countries and their counts instead."""

import asyncio
import math
from collections.abc import Mapping, Sequence
from html import escape

import reflex as rx

from actions.lander_reads import read_members_per_place
from actions.runner import read
from components.landers.common import (
    LANDER,
    NOBODY,
    LanderView,
    card_html,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    shown_place,
    signup_button,
)
from components.member_card import EAGER_CARDS
from components.server_parts import PageRequest, server_html
from models.lander_slug import NICHE_PREFIXES
from models.regions import regions_of
from models.site_settings import SiteSettings
from services.place_names import region_slug
from services.region_map import RegionMap, country_map
from translations.catalog import N_, N_plural, gettext
from translations.numbers import country_name

KIND = "maplanding"
SHOWN = 6  # one row on a wide screen, three of two on a phone
MIN_RADIUS, MAX_RADIUS, EMPTY_RADIUS = 10.0, 36.0, 4.5  # viewBox units
CROWDING = 0.45  # the largest bubble's radius per side of the square each region has
LABELLED_RADIUS = 15.0  # a bubble this big shows its count

PER_REGION = N_("Members per region")
PER_COUNTRY = N_("Members per country")
MEMBERS = N_plural("{count} member", "{count} members")
LEGEND = N_("The bigger the circle, the more members live in that region.")
NO_COUNTRY = N_("We do not know which country you are in, so here are all the countries we serve.")


def _lander_url(niche: str, words: str) -> str:
    return f"/landers/{KIND}/{NICHE_PREFIXES.get(niche, '')}{words}"


def _map_country(view: LanderView, settings: SiteSettings) -> str | None:
    """The country to draw: the slug's place's, else the visitor's; None unless served."""
    country = view.target.place.country if view.target.place else view.country
    return country if country in settings.countries else None


def _asked_region(view: LanderView) -> str | None:
    return view.target.place.region if view.target.place else None


def _ordered(
    places: Sequence[tuple[str, str]], counts: Mapping[str, int], first: str | None
) -> list[tuple[str, str]]:
    """(code, name): the asked place first, then the most members, then by name."""
    return sorted(places, key=lambda place: (place[0] != first, -counts.get(place[0], 0)))


def _radius(count: int, most: int, largest: float) -> float:
    """A bubble's area grows with its count."""
    if count <= 0:
        return EMPTY_RADIUS
    return MIN_RADIUS + (largest - MIN_RADIUS) * math.sqrt(count / max(most, 1))


def _bubble(x: int, y: int, radius: float, count: int, asked: bool) -> str:
    kind = "map-bubble is-asked" if asked else "map-bubble" if count else "map-bubble is-empty"
    html = f'<circle class="{kind}" cx="{x}" cy="{y}" r="{radius:.1f}"/>'
    if radius >= LABELLED_RADIUS:
        size = max(11, round(radius * 0.6))
        html += f'<text class="map-count" x="{x}" y="{y}" font-size="{size}">{count}</text>'
    return html


def _label(x: int, y: int, radius: float, name: str, width: int) -> str:
    """The asked region's name above its bubble, kept inside the frame."""
    x, y = min(max(x, 90), width - 90), max(round(y - radius - 9), 26)
    return f'<text class="map-label" x="{x}" y="{y}">{escape(name)}</text>'


def _svg_html(
    drawn: RegionMap,
    regions: Sequence[tuple[str, str]],
    counts: Mapping[str, int],
    links: Mapping[str, str],
    asked: str | None,
) -> str:
    """The country's dots and a bubble per region, the largest drawn first; decoration only (the
    list beside it says the same in words), so hidden from screen readers and tab order."""
    most = max(counts.values(), default=0)
    placed = [(code, name) for code, name in regions if code in drawn.positions]
    placed.sort(key=lambda region: -counts.get(region[0], 0))
    room = math.sqrt(drawn.width * drawn.height / max(len(placed), 1))  # many regions: smaller
    largest = min(max(CROWDING * room, 2 * MIN_RADIUS), MAX_RADIUS)
    bubbles, label = [], ""
    for code, name in placed:
        (x, y), count = drawn.positions[code], counts.get(code, 0)
        radius = _radius(count, most, largest)
        bubble = _bubble(x, y, radius, count, code == asked)
        if code in links:
            bubble = f'<a href="{escape(links[code])}" tabindex="-1">{bubble}</a>'
        bubbles.append(bubble)
        if code == asked:
            label = _label(x, y, radius, name, drawn.width)
    return (
        f'<svg class="map-svg" viewBox="0 0 {drawn.width} {drawn.height}"'
        f' width="{drawn.width}" height="{drawn.height}" aria-hidden="true" focusable="false">'
        f'<path class="map-dots" d="{drawn.dots}"/>{"".join(bubbles)}{label}</svg>'
    )


def _list_html(
    heading: str,
    places: Sequence[tuple[str, str]],
    counts: Mapping[str, int],
    links: Mapping[str, str],
    asked: str | None,
    locale: str,
) -> str:
    most = max(counts.values(), default=0) or 1
    items = []
    for code, name in places:
        count = counts.get(code, 0)
        text = escape(name)
        if code in links:
            current = ' aria-current="page"' if code == asked else ""
            text = f'<a href="{escape(links[code])}"{current}>{text}</a>'
        kind = "is-asked" if code == asked else "is-empty" if not count else ""
        items.append(
            f'<li class="{kind}"><span class="map-place">{text}</span>'
            f'<span class="map-number">{escape(gettext(locale, MEMBERS, count=count))}</span>'
            f'<span class="map-bar" style="width:{100 * count / most:.0f}%"></span></li>'
        )
    return (
        f'<section class="map-places"><h2 class="map-heading">{escape(heading)}</h2>'
        f'<ol class="map-list" data-testid="map-list">{"".join(items)}</ol></section>'
    )


def _drawing(country: str, locale: str) -> tuple[RegionMap | None, dict[str, str]]:
    """The country's map and the slug words of its regions (built once, then cached)."""
    words = {code: region_slug(code, locale) for code, _name in regions_of(country, locale)}
    return country_map(country), {code: found for code, found in words.items() if found}


async def _region_map_html(view: LanderView, request: PageRequest, country: str) -> str:
    locale, niche = request.locale, view.target.niche
    counts, (drawn, words) = await asyncio.gather(
        read(read_members_per_place, niche, country, (), request.viewer_id),
        asyncio.to_thread(_drawing, country, locale),
    )
    links = {code: _lander_url(niche, found) for code, found in words.items()}
    asked = _asked_region(view)
    regions = _ordered(regions_of(country, locale), counts, asked)
    svg = _svg_html(drawn, regions, counts, links, asked) if drawn else ""
    legend = f'<p class="map-legend muted">{escape(gettext(locale, LEGEND))}</p>' if svg else ""
    places = _list_html(gettext(locale, PER_REGION), regions, counts, links, asked, locale)
    figure = f'<figure class="map-figure">{svg}{legend}</figure>'
    return f'<div class="map-layout">{figure}{places}</div>'


async def _countries_html(view: LanderView, request: PageRequest) -> str:
    """The served countries and their counts: the honest answer when the country is unknown."""
    locale, countries = request.locale, tuple(request.settings.countries)
    counts = await read(
        read_members_per_place, view.target.niche, None, countries, request.viewer_id
    )
    named = _ordered([(code, country_name(code, locale)) for code in countries], counts, None)
    note = f'<p class="muted">{escape(gettext(locale, NO_COUNTRY))}</p>'
    places = _list_html(gettext(locale, PER_COUNTRY), named, counts, {}, None, locale)
    return f'<div class="map-layout map-countries">{note}{places}</div>'


def _cards_html(view: LanderView, settings: SiteSettings, locale: str) -> str:
    """The place's name and its members; below the map, never the first paint: all lazy."""
    if not view.found.members:
        return f'<p class="muted">{escape(gettext(locale, NOBODY))}</p>'
    label = settings.fictional_singular.get(locale, "")
    cards = "".join(
        card_html(member, EAGER_CARDS + i, label) for i, member in enumerate(view.found.members)
    )
    place = shown_place(view.target, view.found, view.country, locale)
    heading = f'<h2 class="map-heading">{escape(place)}</h2>' if place else ""
    return f'{heading}<div class="member-grid">{cards}</div>'


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN)
    country = _map_country(view, request.settings)
    drawn = (
        await _region_map_html(view, request, country)
        if country
        else await _countries_html(view, request)
    )
    return {
        lander_mark("head"): head_html(view, request.locale),
        lander_mark("map"): drawn,
        lander_mark("cards"): _cards_html(view, request.settings, request.locale),
    }


def maplanding_lander() -> rx.Component:
    return lander_frame(
        KIND,
        server_html(LANDER, "head"),
        signup_button(),
        server_html(LANDER, "map"),
        server_html(LANDER, "cards"),
        rx.el.div(signup_button(), class_name="lander-cta-row"),
    )
