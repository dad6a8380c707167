"""The first page of the /members search in the HTML the server sends.

The search's cards arrive over the websocket, after the app's JavaScript, so a visitor used to
look at "0 members found" and the largest paint (a member's photo) came seconds after the first.
Now the server runs the search the page will run (`state.search.default_filters`,
`first_results`) for whoever asks, and writes its count and cards, as the page's own cards look,
into the holder the prerender left (its mark, `⟦first-results⟧`; app/document_head.py). React
hydrates the holder with the HTML it already has (`dangerouslySetInnerHTML`, read back from the
document once), so nothing differs, and replaces it with the live grid once the search's state
has arrived."""

import json
from collections.abc import Mapping
from html import escape

import reflex as rx

from components.member_card import EAGER_CARDS
from models.routes import member_url
from models.search import COUNT_CAP, SearchPage
from models.site_settings import SiteSettings
from state.document_values import document_value, read_once
from state.members import tile_to_card
from state.search import default_filters, first_results, visitor_may_search
from state.shell import country_of_request
from translations.catalog import N_, N_plural, gettext
from translations.numbers import country_name
from translations.prerender_marks import CLOSE, OPEN

FOUND = N_plural("{count} member found", "{count} members found")
MORE_THAN_FOUND = N_plural("More than {count} member found", "More than {count} members found")
NOBODY_FOUND = N_("Nobody matches this search yet. Try a wider age range or another country.")
ELEMENT_ID = "first-results"
MARK = f"{OPEN}first-results{CLOSE}"
# What rx.link renders for a card link (Radix's classes): the cards look the same either way.
_LINK_CLASSES = "rt-Text rt-reset rt-Link rt-underline-none member-card"

_READ = read_once(
    "firstResults",
    json.dumps(MARK),
    f"document.getElementById({json.dumps(ELEMENT_ID)})?.innerHTML ?? ''",
)
_FIRST_RESULTS = document_value("firstResults", _READ).to(str)


def first_results_holder() -> rx.Component:
    """Where the server's first page shows until the live grid replaces it."""
    return rx.html(_FIRST_RESULTS, id=ELEMENT_ID, data_testid=ELEMENT_ID)


def _card(card: Mapping, index: int, locale: str) -> str:
    """One card as `components.member_card.member_card` renders it."""
    name = escape(card["name"])
    place = ", ".join(filter(None, (card["city"], country_name(card["country"], locale))))
    badge = gettext(locale, "Premium")
    return (
        f'<a class="{_LINK_CLASSES}" href="{escape(member_url(card["id"]))}">'
        f'<img alt="{name}" loading="{"eager" if index < EAGER_CARDS else "lazy"}"'
        f' src="{escape(card["thumb"])}">'
        + (f'<span class="premium-badge">{escape(badge)}</span>' if card["premium"] else "")
        + '<div class="member-card-info">'
        f'<div class="member-card-name">{name}, {card["age"]}</div>'
        f'<div class="member-card-place">{escape(place)}</div></div></a>'
    )


def results_html(page: SearchPage, settings: SiteSettings, locale: str) -> str:
    """The count and the cards of `page`, as the page shows them, in `locale`."""
    count = (
        gettext(locale, MORE_THAN_FOUND, count=COUNT_CAP)
        if page.capped
        else gettext(locale, FOUND, count=page.total)
    )
    html = f'<p class="search-count">{escape(count)}</p>'
    if not page.tiles:
        return html + f'<p class="muted">{escape(gettext(locale, NOBODY_FOUND))}</p>'
    cards = (_card(tile_to_card(tile, settings), i, locale) for i, tile in enumerate(page.tiles))
    return html + f'<div class="member-grid">{"".join(cards)}</div>'


async def first_results_html(
    viewer_id: int | None, headers: Mapping[str, str], settings: SiteSettings, locale: str
) -> str:
    """The search /members starts with for this viewer (None: a visitor, whose country the
    request's headers tell); empty where the settings do not let this visitor search."""
    if viewer_id is None and not await visitor_may_search(settings, headers.get("cookie")):
        return ""
    country = country_of_request(headers, headers.get("accept-language"))
    filters = await default_filters(viewer_id, True, country, settings)
    found = await first_results(viewer_id, filters, settings)
    return results_html(found.page, settings, locale)
