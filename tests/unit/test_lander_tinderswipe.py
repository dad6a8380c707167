"""The swipe lander's server HTML: a deck of the nearest members (only listed ones with a photo),
the top card reachable and its photo first, pass buttons and like links to the signup aimed at
each member, the end card, fictional profiles labelled, every text in the visitor's language."""

from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from sqlmodel import Session

from components.landers.common import lander_mark
from components.landers.tinderswipe import LIKE, SHOWN, STACKED
from components.landers.writers import write_lander
from components.server_parts import PageRequest
from models.member import Member
from models.site_settings import SiteSettings
from tests.factories import add_photo, edit_profile, make_member
from translations.catalog import gettext
from translations.locales import LOCALES

PATH = "/landers/tinderswipe"
START = datetime(2025, 1, 1, tzinfo=UTC)
SETTINGS = SiteSettings()


class Deck(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.cards: list[dict] = []
        self.images: list[dict] = []
        self.buttons: list[dict] = []
        self.links: list[str] = []
        self.texts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "article":
            self.cards.append(found)
        elif tag == "img":
            self.images.append(found)
        elif tag == "button":
            self.buttons.append(found)
        elif tag == "a":
            self.links.append(found["href"] or "")

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def _member(db: Session, number: int, country: str = "DE", **profile) -> Member:
    member = make_member(db, f"s{number}@example.com", signup_date=START + timedelta(days=number))
    edit_profile(db, member, name=f"Mia{number}", country=country, **profile)
    add_photo(db, member, f"s{number}", main=True)
    return member


async def _page(locale: str, **headers: str) -> tuple[Deck, Deck]:
    parts = await write_lander(PageRequest(PATH, headers, SETTINGS, locale, None))
    return Deck(parts[lander_mark("head")]), Deck(parts[lander_mark("deck")])


async def test_the_deck_of_the_nearest_members(db: Session) -> None:
    germans = [_member(db, i, city="Berlin", region="DE-BE") for i in range(SHOWN)]
    _member(db, 100, country="NL")  # further away: a full deck of Germans first
    banned = _member(db, 101)
    banned.status = "banned"
    hidden = _member(db, 102)
    hidden.invisible = True
    fictional = germans[-1]
    fictional.fictional_icon = True
    db.add_all([banned, hidden, fictional])
    db.commit()

    head, deck = await _page("en", **{"accept-language": "de-DE,de"})
    assert head.texts == [
        "Meet new people and start chatting",
        f"Germany: {SHOWN} members",
        "Pass or like. Like someone and create your free account to get in touch.",
    ]
    newest_first = germans[::-1]
    names = [card["aria-label"].split(",")[0] for card in deck.cards[:-1]]
    assert names == [f"Mia{number}" for number in reversed(range(SHOWN))]
    assert deck.links[:-1] == [f"/members/{m.id}/signup" for m in newest_first]
    assert deck.links[-1] == "/signup"
    assert len(deck.buttons) == SHOWN
    assert {button["type"] for button in deck.buttons} == {"button"}
    depths = [card["data-depth"] for card in deck.cards]
    assert depths == [str(i) for i in range(STACKED)] + ["far"] * (SHOWN + 1 - STACKED)
    assert ["inert" in card for card in deck.cards] == [False] + [True] * SHOWN
    assert deck.cards[-1]["data-testid"] == "swipe-end"
    assert deck.images[0]["fetchpriority"] == "high" and deck.images[0]["loading"] == "eager"
    assert {image["loading"] for image in deck.images[1:]} == {"lazy"}
    assert all(image["width"] == image["height"] == "400" for image in deck.images)
    assert "fictional profile" in deck.texts
    for left_out in (banned, hidden):
        assert f"/members/{left_out.id}/signup" not in deck.links


async def test_nobody_yet_is_said(db: Session) -> None:
    _head, deck = await _page("en")
    assert deck.texts == ["Nobody here yet. Sign up and be one of the first."]


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
async def test_every_language_has_its_own_words(db: Session, locale: str) -> None:
    _member(db, 1)
    english = await _page("en")
    translated = await _page(locale)
    for mine, theirs in zip(translated, english, strict=True):
        words = {text for text in theirs.texts if not text.startswith("Mia")}
        same = {gettext(locale, LIKE)} & {LIKE}  # "Like" is Dutch and Danish too
        assert words - same
        assert not (words - same) & set(mine.texts), locale
