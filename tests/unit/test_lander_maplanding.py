"""The map lander: one grouped count per region (or served country) of the niche's listed members
with a photo, nobody hidden counted; the server's map (sized, each region at its cities' mean
point) and its list in words, the asked region first, linking to the same lander for a region;
the members of the asked place below; the countries served when the visitor's is unknown; every
text in the visitor's language."""

from datetime import UTC, date, datetime, timedelta
from html.parser import HTMLParser

import pytest
from sqlmodel import Session

from actions.lander_reads import members_per_place
from components.landers.common import lander_mark
from components.landers.maplanding import LEGEND, MEMBERS, NO_COUNTRY, PER_COUNTRY, PER_REGION
from components.landers.writers import write_lander
from components.server_parts import PageRequest
from models.member import Member
from models.regions import regions_of
from models.site_settings import TARGET_COUNTRIES, SiteSettings
from services.place_names import place_named, region_slug
from services.region_map import MARGIN, country_map
from tests.factories import add_photo, block_member, edit_profile, make_member
from translations.catalog import gettext
from translations.locales import LOCALES

TODAY = date(2025, 6, 15)
START = datetime(2025, 1, 1, tzinfo=UTC)
SETTINGS = SiteSettings()
HEAD, MAP, CARDS = lander_mark("head"), lander_mark("map"), lander_mark("cards")
_made = iter(range(10_000))


class Parsed(HTMLParser):
    """The tags, and the texts outside the map's drawing (in `drawn`)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.texts: list[str] = []
        self.drawn: list[str] = []
        self.in_svg = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.in_svg = self.in_svg or tag == "svg"

    def handle_endtag(self, tag: str) -> None:
        self.in_svg = self.in_svg and tag != "svg"

    def handle_data(self, data: str) -> None:
        (self.drawn if self.in_svg else self.texts).append(data)

    def all(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]


def _member(db: Session, age: int = 45, photo: bool = True, **profile) -> Member:
    """A listed woman looking for men (`age`) in Amsterdam unless told."""
    number = next(_made)
    member = make_member(db, f"m{number}@example.com", signup_date=START + timedelta(days=number))
    born = date(TODAY.year - age, 1, 1)
    fields = {"date_of_birth": born, "city": "Amsterdam", "region": "NL-NH", "country": "NL"}
    edit_profile(db, member, name=f"Anna{number}", **{**fields, **profile})
    if photo:
        add_photo(db, member, f"p{number}", main=True)
    return member


def _hidden_ones(db: Session) -> None:
    """Members of NL-NH no lander may count: hidden, without a photo, banned, invisible."""
    edit_profile(db, _member(db), status="disabled")
    _member(db, photo=False)
    for name, value in (("invisible", True), ("status", "banned"), ("status", "suspended")):
        member = _member(db)
        setattr(member, name, value)
        db.add(member)
        db.commit()


# --- the counts ------------------------------------------------------------------------------


def test_one_count_per_region_of_the_niche_and_nobody_hidden(db: Session) -> None:
    for _ in range(3):
        _member(db)
    _member(db, city="Utrecht", region="NL-UT")
    _member(db, age=30)  # not a milf
    _member(db, gender="male", sexuality="gay")
    _member(db, city="Berlin", region="DE-BE", country="DE")
    _member(db, region=None)  # no region: in no region's count
    _hidden_ones(db)

    def per_region(niche: str, country: str, viewer_id: int | None = None) -> dict[str, int]:
        return members_per_place(db, niche=niche, country=country, viewer_id=viewer_id, today=TODAY)

    assert per_region("milf", "NL") == {"NL-NH": 3, "NL-UT": 1}
    assert per_region("none", "NL") == {"NL-NH": 5, "NL-UT": 1}
    assert per_region("gay", "NL") == {"NL-NH": 1}
    assert per_region("milf", "DE") == {"DE-BE": 1}
    assert per_region("milf", "BE") == {}
    per_country = members_per_place(
        db, niche="milf", country=None, countries=("NL", "DE", "BE"), today=TODAY
    )
    assert per_country == {"NL": 5, "DE": 1}


def test_a_logged_in_viewer_counts_nobody_blocked_either_way(db: Session) -> None:
    viewer, blocker, blocked = _member(db), _member(db), _member(db)
    _member(db)
    block_member(db, blocker.id, viewer.id)
    block_member(db, viewer.id, blocked.id)
    seen = members_per_place(db, niche="none", country="NL", viewer_id=viewer.id, today=TODAY)
    assert seen == {"NL-NH": 1}  # the fourth: neither the viewer nor those blocked


# --- the map ---------------------------------------------------------------------------------


@pytest.mark.parametrize("country", TARGET_COUNTRIES)
def test_every_served_country_has_a_fitted_map(country: str) -> None:
    drawn = country_map(country)
    assert drawn is not None and drawn.dots.startswith("M")
    assert 300 <= drawn.height <= 860 and drawn.width == 600
    for x, y in drawn.positions.values():
        assert 0 < x < drawn.width and 0 < y < drawn.height
    with_cities = set(drawn.positions)
    assert with_cities <= {code for code, _name in regions_of(country)}


def test_regions_lie_where_their_cities_are() -> None:
    nl = country_map("NL").positions
    assert nl["NL-GR"][1] < nl["NL-LI"][1]  # Groningen north of Limburg
    assert nl["NL-NH"][0] < nl["NL-OV"][0]  # Noord-Holland west of Overijssel
    us = country_map("US")
    insets = [us.positions["US-AK"], us.positions["US-HI"]]  # off the mainland: lower left
    assert [y for _x, y in insets] == [us.height - MARGIN] * 2 and insets[0][0] < insets[1][0]
    assert us.positions["US-CA"][1] < us.height - MARGIN
    assert country_map("JP") is None and country_map("xx") is None
    assert country_map.cache_info().maxsize == len(TARGET_COUNTRIES)


def test_a_region_links_by_a_name_that_leads_back_to_it() -> None:
    assert region_slug("NL-NH", "nl") == "noord-holland"
    assert region_slug("DE-BY", "en") == "bavaria"
    assert region_slug("US-WA", "en") is None  # "washington" is the city
    for code, _name in regions_of("DE"):
        words = region_slug(code, "de")
        assert words is None or place_named(words).region == code


# --- the page --------------------------------------------------------------------------------


async def _parts(path: str, locale: str = "en", **headers: str) -> dict[str, Parsed]:
    parts = await write_lander(PageRequest(path, headers, SETTINGS, locale, None))
    return {
        name: Parsed(parts[mark]) for name, mark in (("head", HEAD), ("map", MAP), ("cards", CARDS))
    }


async def test_a_region_asked_for_comes_first_with_its_members(db: Session) -> None:
    shown = [_member(db) for _ in range(6)]
    _member(db, city="Utrecht", region="NL-UT")
    _member(db, city="Rotterdam", region="NL-ZH", age=30)  # not a milf: not counted
    _hidden_ones(db)

    parts = await _parts("/landers/maplanding/milf-noord-holland")
    svg = parts["map"].all("svg")[0]
    assert (svg["width"], svg["viewbox"]) == ("600", f"0 0 600 {svg['height']}")
    assert svg["aria-hidden"] == "true"
    legend, *items = parts["map"].texts
    assert legend == "The bigger the circle, the more members live in that region."
    assert items[:3] == ["Members per region", "North Holland", "6 members"]
    assert items[3:5] == ["Utrecht", "1 member"]
    assert "South Holland" in items and items[items.index("South Holland") + 1] == "0 members"
    links = [a["href"] for a in parts["map"].all("a")]
    assert "/landers/maplanding/milf-north-holland" in links  # in the visitor's language
    assert "/landers/maplanding/milf-utrecht" in links
    current = [a for a in parts["map"].all("a") if a.get("aria-current")]
    assert [a["href"] for a in current] == ["/landers/maplanding/milf-north-holland"]
    assert len(parts["map"].all("circle")) == len(country_map("NL").positions)
    assert parts["map"].drawn[-1] == "North Holland"  # the asked region's label
    assert parts["map"].drawn[:2] == ["6", "1"]  # the counts in the largest bubbles

    cards = parts["cards"]
    assert cards.texts[0] == "North Holland"
    hrefs = {a["href"] for a in cards.all("a")}
    assert hrefs == {f"/members/{member.id}/signup" for member in shown}
    assert {image["loading"] for image in cards.all("img")} == {"lazy"}
    assert parts["head"].texts[1] == "North Holland: 6 members"


async def test_the_visitors_country_without_a_slug(db: Session) -> None:
    _member(db, city="Berlin", region="DE-BE", country="DE")
    parts = await _parts("/landers/maplanding", "de", **{"accept-language": "de-DE,de"})
    assert parts["map"].texts[1:4] == ["Mitglieder pro Region", "Berlin", "1 Mitglied"]
    assert parts["map"].all("svg")
    assert "/landers/maplanding/berlin" in {a["href"] for a in parts["map"].all("a")}


async def test_an_unknown_country_shows_the_countries_served(db: Session) -> None:
    _member(db)
    _member(db, city="Berlin", region="DE-BE", country="DE")
    _member(db, city="Berlin", region="DE-BE", country="DE")
    parts = await _parts("/landers/maplanding/gay", "en")
    assert not parts["map"].all("svg")
    texts = parts["map"].texts
    assert texts[1] == "Members per country"
    assert texts[-1] == "0 members" and "Germany" in texts
    parts = await _parts("/landers/maplanding", "en")
    texts = parts["map"].texts
    assert texts[2:6] == ["Germany", "2 members", "Netherlands", "1 member"]
    assert len(parts["map"].all("li")) == len(SETTINGS.countries)


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
def test_every_text_is_translated(locale: str) -> None:
    for text in (PER_REGION, PER_COUNTRY, LEGEND, NO_COUNTRY):
        assert gettext(locale, text) != gettext("en", text)
    assert gettext(locale, MEMBERS, count=3) != gettext("en", MEMBERS, count=3)


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
async def test_no_english_on_the_page(db: Session, locale: str) -> None:
    _member(db)
    english = [gettext("en", text) for text in (PER_REGION, PER_COUNTRY, LEGEND, NO_COUNTRY)]
    english += [gettext("en", MEMBERS, count=count) for count in (0, 1)]
    for path in ("/landers/maplanding/noord-holland", "/landers/maplanding"):
        parts = await _parts(path, locale)
        words = " | ".join(parts["map"].texts + parts["head"].texts)
        assert not [text for text in english if text in words]
