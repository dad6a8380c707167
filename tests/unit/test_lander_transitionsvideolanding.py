"""The stories lander's server HTML (components/landers/transitionsvideolanding.py): the niche's
honest headline and counted number beside a card where its members slide in turn (six turns,
fewer members coming round again, repeats hidden from assistive technology and the tab order),
a progress bar per turn, each with "Chat with {name}" to the signup aimed at them, fictional
profiles labelled, nobody hidden; the CSS stands the cards still for reduced motion."""

from datetime import timedelta

from sqlmodel import Session

from components.landers import transitionsvideolanding as stories
from components.landers.common import lander_mark
from components.landers.reel import TURNS
from tests.unit.lander_pages import Parsed, lander_member, request
from tests.unit.test_lander_video import css_block

PATH = "/landers/transitionsvideolanding/gay-amsterdam"


async def _parts(locale: str) -> tuple[Parsed, str]:
    parts = await stories.write(request(PATH, locale))
    return Parsed(parts[lander_mark("head")]), parts[lander_mark("stories")]


def _man(db: Session, name: str, age: int, days: int, sexuality: str = "gay"):
    return lander_member(db, name, age, timedelta(days=days), gender="male", sexuality=sexuality)


async def test_the_niches_members_slide_in_turn_with_a_chat_each(db: Session) -> None:
    shown = [_man(db, "Joost", 33, 1), _man(db, "Kees", 62, 2, "bi")]
    _man(db, "Bram", 41, 3, "hetero")  # not looking for a man
    lander_member(db, "Greet", 45)  # a woman
    hidden = _man(db, "Hidden", 30, 4)
    hidden.invisible = True
    shown[1].fictional_icon = True
    db.add_all([hidden, shown[1]])
    db.commit()

    head, html = await _parts("en")
    card = Parsed(html)
    assert head.texts[:2] == ["Meet men who are looking for a man", "2 members with a photo"]
    ids = [member.id for member in shown]
    assert card.links == [f"/members/{ids[i % 2]}/signup" for i in range(TURNS)]
    assert card.texts[:4] == [
        "Joost, 33",
        "Amsterdam, Netherlands",
        "Chat with Joost",
        "fictional profile",
    ]
    assert "Chat with Kees" in card.texts
    assert not {"Bram", "Greet", "Hidden"} & {text.split(",")[0] for text in card.texts}
    assert card.classes.count("story-bar") == TURNS and f"--n:{TURNS}" in html
    assert html.count('aria-hidden="true" data-testid') == TURNS - 2  # the repeats
    assert html.count('tabindex="-1"') == TURNS - 2
    assert [image["loading"] for image in card.images] == ["eager"] + ["lazy"] * (TURNS - 1)
    assert card.images[0]["fetchpriority"] == "high" and card.images[0]["sizes"] == stories.SIZES
    assert all(image["width"] and image["height"] for image in card.images)

    head, html = await _parts("pl")
    assert head.texts[:2] == [
        "Poznaj mężczyzn, którzy szukają mężczyzny",
        "2 użytkowników ze zdjęciem",
    ]
    assert "Rozpocznij czat: Joost" in Parsed(html).texts


async def test_nobody_yet(db: Session) -> None:
    _head, html = await _parts("de")
    assert Parsed(html).texts == ["Noch niemand hier. Registriere dich und sei unter den Ersten."]


def test_the_css_is_timed_for_the_turns_and_stands_still_for_reduced_motion() -> None:
    block = css_block("transitionsvideolanding")
    assert f"{TURNS * 5}s" in block
    reduced = block[block.index("prefers-reduced-motion: reduce") :]
    assert "animation: none" in reduced and "grid-template-columns" in reduced
