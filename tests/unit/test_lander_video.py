"""The video lander's server HTML (components/landers/video.py): the niche's honest headline and
counted number over a sequence of its members (six turns, fewer members coming round again,
later slides hidden from assistive technology), the first photo the eager largest paint, each slide
leading to the signup aimed at its member, fictional profiles labelled, nobody hidden; the
members once each in the list below; the sequence's CSS stops for reduced motion."""

import re
from datetime import timedelta
from pathlib import Path

from sqlmodel import Session

from components.landers import video
from components.landers.common import lander_mark
from components.landers.reel import TURNS
from tests.unit.lander_pages import Parsed, lander_member, request

PATH = "/landers/video/milf-amsterdam"
CSS = Path(__file__).resolve().parents[2] / "assets" / "site.css"


async def _parts(locale: str, path: str = PATH) -> dict[str, str]:
    parts = await video.write(request(path, locale))
    return {name: parts[lander_mark(name)] for name in ("head", "reel", "cast")}


async def test_the_niches_members_come_round_in_six_turns(db: Session) -> None:
    shown = [lander_member(db, f"Anna{i}", 45 + i, timedelta(days=i + 1)) for i in range(3)]
    lander_member(db, "Young", 30)  # under 40: not milf
    banned = lander_member(db, "Banned", 50)
    banned.status = "banned"
    shown[1].fictional_icon = True
    db.add_all([banned, shown[1]])
    db.commit()

    parts = await _parts("en")
    head, reel, cast = (Parsed(parts[name]) for name in ("head", "reel", "cast"))
    assert head.texts[:2] == [
        "Meet women aged 40 and over who are looking for a man",
        "3 members with a photo",
    ]
    ids = [member.id for member in shown]
    assert reel.links == [f"/members/{ids[i % 3]}/signup" for i in range(TURNS)]
    assert [text for text in reel.texts if text.startswith("Anna")][:3] == [
        "Anna0, 45",
        "Anna1, 46",
        "Anna2, 47",
    ]
    assert "Amsterdam, Netherlands" in reel.texts and "fictional profile" in reel.texts
    # The later slides wait off the screen: the list below is what the keyboard reaches.
    assert parts["reel"].count('aria-hidden="true" tabindex="-1"') == TURNS - 1
    assert [image["loading"] for image in reel.images] == ["eager"] + ["lazy"] * (TURNS - 1)
    assert [image["fetchpriority"] for image in reel.images] == ["high"] + ["low"] * (TURNS - 1)
    assert all(image["sizes"] == video.SIZES for image in reel.images)
    assert all(image["width"] and image["height"] for image in reel.images)
    assert [f"--turn:{turn}" in parts["reel"] for turn in range(TURNS)] == [True] * TURNS
    assert cast.texts[0] == "In this video"
    assert cast.links == [f"/members/{i}/signup" for i in ids]  # each once
    assert "Young" not in parts["reel"] + parts["cast"]
    assert "Banned" not in parts["reel"] + parts["cast"]

    parts = await _parts("de")
    assert Parsed(parts["head"]).texts[:2] == [
        "Triff Frauen ab 40, die einen Mann suchen",
        "3 Mitglieder mit Foto",
    ]
    assert Parsed(parts["cast"]).texts[0] == "In diesem Video"
    assert "fiktives Profil" in Parsed(parts["reel"]).texts


async def test_one_member_alone_and_nobody_yet(db: Session) -> None:
    parts = await _parts("fr")
    assert Parsed(parts["reel"]).texts == [
        "Personne pour l’instant. Inscrivez-vous et soyez parmi les premiers."
    ]
    assert parts["cast"] == ""
    lander_member(db, "Greet", 50)
    parts = await _parts("en")
    assert len(Parsed(parts["reel"]).links) == 1 and "aria-hidden" not in parts["reel"]


def css_block(kind: str) -> str:
    css = CSS.read_text()
    start = css.index(f"/* lander: {kind} ")
    end = css.find("/* lander: ", start + 1)
    return css[start : end if end > 0 else None]


def test_the_css_is_timed_for_the_turns_and_stops_for_reduced_motion() -> None:
    block = css_block("video")
    assert f"{TURNS * 6}s" in block
    reduced = block[block.index("prefers-reduced-motion: reduce") :]
    assert "animation: none" in reduced
    # The first photo (the largest paint) never starts invisible: only later slides do.
    assert re.search(r"\.lander-video-slide \+ \.lander-video-slide \{[^}]*opacity: 0", block)
    assert not re.search(r"^\.lander-video \.lander-video-slide \{[^}]*opacity", block, re.M)
