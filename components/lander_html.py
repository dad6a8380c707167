"""A lander's members and texts in the HTML the server sends (docs/acquisition.md, "Niches and
landers"), as /members writes its first results (components/first_results.py).

The click is paid, so the page paints with its members before any JavaScript: the server reads
the niche's members nearest the visitor (actions/lander_reads.py) and writes the headline, the
counted number and the cards, in the visitor's language, in place of the marks the prerender
left in the lander's holders (app/document_head.py). React hydrates the holders with the HTML
they already have."""

from collections.abc import Mapping
from html import escape

from actions.lander_reads import ANYWHERE, COUNTRY, LanderMembers, read_lander
from actions.runner import read
from components.member_card import EAGER_CARDS
from models.lander_slug import LanderPlace, LanderTarget, slug_of
from models.regions import region_name
from models.routes import member_signup_url
from models.site_settings import SiteSettings
from state.shell import country_of_request
from translations.catalog import N_, N_plural, gettext
from translations.numbers import country_name
from translations.prerender_marks import CLOSE, OPEN

HEAD_MARK = f"{OPEN}lander-head{CLOSE}"
GRID_MARK = f"{OPEN}lander-grid{CLOSE}"
LANDER_MARKS = (HEAD_MARK, GRID_MARK)
SHOWN = 24  # four rows of six on a wide screen, twelve of two on a phone
# The grid's columns (assets/site.css .member-grid): 2, 3 from 576 px, 4 from 768, 6 from 1200.
SIZES = "(min-width: 1200px) 190px, (min-width: 768px) 25vw, (min-width: 576px) 33vw, 50vw"

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


def _shown_place(
    target: LanderTarget, found: LanderMembers, country: str | None, locale: str
) -> str:
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


def head_html(target: LanderTarget, found: LanderMembers, country: str | None, locale: str) -> str:
    """The headline, the counted number and, when the search widened, why."""
    headline = gettext(locale, HEADLINES.get(target.niche, HEADLINES["none"]))
    place = _shown_place(target, found, country, locale)
    html = f'<h1 class="lander-title">{escape(headline)}</h1>'
    html += '<p class="lander-count" data-testid="lander-count">'
    html += f"{escape(_count_text(found, place, locale))}</p>"
    asked = _asked_place(target, country, locale)
    if found.widened and asked:
        html += f'<p class="muted">{escape(gettext(locale, WIDENED, place=asked))}</p>'
    return html


def _photo(member: Mapping, index: int) -> str:
    """Sized for the grid's column; the first rows at once (the largest paint), the rest when
    scrolled near."""
    attributes = {
        "alt": member["name"],
        "src": member["photo"],
        "srcset": member["srcset"],
        "sizes": SIZES,
        "width": "400",
        "height": "500",
        "loading": "eager" if index < EAGER_CARDS else "lazy",
        **({"fetchpriority": "high"} if index == 0 else {}),
    }
    return "<img " + " ".join(f'{key}="{escape(value)}"' for key, value in attributes.items()) + ">"


def _card(member: Mapping, index: int, label: str) -> str:
    name = escape(member["name"])
    fictional = (
        f'<span class="fictional-badge">{escape(label)}</span>' if member["fictional"] else ""
    )
    return (
        f'<a class="member-card" href="{escape(member_signup_url(member["id"]))}"'
        ' data-testid="lander-member">'
        f"{_photo(member, index)}{fictional}"
        '<div class="member-card-info">'
        f'<div class="member-card-name">{name}, {member["age"]}</div>'
        f'<div class="member-card-place">{escape(member["place"])}</div></div></a>'
    )


def grid_html(found: LanderMembers, settings: SiteSettings, locale: str) -> str:
    """The members' cards, each leading to the signup aimed at that member."""
    if not found.members:
        return f'<p class="muted">{escape(gettext(locale, NOBODY))}</p>'
    label = settings.fictional_singular.get(locale, "")
    cards = "".join(_card(member, i, label) for i, member in enumerate(found.members))
    return f'<div class="member-grid">{cards}</div>'


async def lander_parts(
    path: str,
    headers: Mapping[str, str],
    settings: SiteSettings,
    locale: str,
    viewer_id: int | None,
) -> dict[str, str]:
    """Each mark's HTML for the lander at `path`, for this visitor."""
    country = country_of_request(headers, headers.get("accept-language")) or None
    target, found = await read(
        read_lander, slug_of(path) or "", country, locale, SHOWN, viewer_id, settings
    )
    return {
        HEAD_MARK: head_html(target, found, country, locale),
        GRID_MARK: grid_html(found, settings, locale),
    }
