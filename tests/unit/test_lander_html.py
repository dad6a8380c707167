"""A lander's server HTML: the niche's honest headline, the counted number, the widening note,
the cards (to the signup aimed at each member, photos sized and lazy below the first rows),
fictional profiles labelled, in the visitor's language."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session

from app import document_head
from components.landers.common import lander_mark
from components.landers.writers import LANDER_PARTS, write_lander
from components.server_parts import PageRequest, ServerParts
from models.lander_slug import slug_of
from models.member import Member
from models.site_settings import SiteSettings
from tests.factories import add_photo, edit_profile, make_member
from tests.unit.lander_pages import Parsed

START = datetime(2025, 1, 1, tzinfo=UTC)
SETTINGS = SiteSettings()
HEAD_MARK, GRID_MARK = lander_mark("head"), lander_mark("grid")


def _woman(db: Session, number: int, age: int, **profile) -> Member:
    member = make_member(db, f"w{number}@example.com", signup_date=START + timedelta(days=number))
    born = datetime.now(UTC).date().replace(year=datetime.now(UTC).year - age, day=1)
    edit_profile(db, member, name=f"Anna{number}", date_of_birth=born, **profile)
    add_photo(db, member, f"w{number}", main=True)
    return member


async def _parts(path: str, locale: str, **headers: str) -> tuple[Parsed, Parsed]:
    parts = await write_lander(PageRequest(path, headers, SETTINGS, locale, None))
    return Parsed(parts[HEAD_MARK]), Parsed(parts[GRID_MARK])


def test_the_slug_is_the_path_after_the_design() -> None:
    assert slug_of("/landers/gallery/milf-amsterdam") == "milf-amsterdam"
    assert slug_of("/landers/gallery/milf-amsterdam/") == "milf-amsterdam"
    assert slug_of("/landers/gallery") == ""
    assert slug_of("/members/7/landing2/bbw-koeln") == "bbw-koeln"
    assert slug_of("/members/3") is None


async def test_milf_amsterdam_in_english_and_german(db: Session) -> None:
    in_amsterdam = [
        _woman(db, i, 45, city="Amsterdam", region="NL-NH", country="NL") for i in range(3)
    ]
    in_utrecht = _woman(db, 10, 52, city="Utrecht", region="NL-UT", country="NL")
    _woman(db, 11, 30, city="Amsterdam", region="NL-NH", country="NL")  # under 40
    fictional = in_amsterdam[0]
    fictional.fictional_icon = True
    db.add(fictional)
    db.commit()

    head, grid = await _parts("/landers/gallery/milf-amsterdam", "en")
    assert head.texts[:2] == [
        "Meet women aged 40 and over who are looking for a man",
        "4 members with a photo",  # fewer than a page anywhere nearer: all of them
    ]
    assert head.texts[2] == (
        "Amsterdam: only a few of them so far, so we also show members further away."
    )
    names = [text for text in grid.texts if text.startswith("Anna")]
    assert names == ["Anna2, 45", "Anna1, 45", "Anna0, 45", "Anna10, 52"]
    assert grid.links[0] == "/members/" + str(in_amsterdam[2].id) + "/signup"
    assert "fictional profile" in grid.texts
    assert [image["loading"] for image in grid.images] == ["eager"] * 4
    assert grid.images[0]["fetchpriority"] == "high"
    assert grid.images[0]["srcset"].endswith(" 1600w") and grid.images[0]["sizes"]
    assert in_utrecht.id != in_amsterdam[0].id

    head, grid = await _parts("/landers/gallery/milf-amsterdam", "de")
    assert head.texts[:2] == [
        "Triff Frauen ab 40, die einen Mann suchen",
        "4 Mitglieder mit Foto",
    ]
    assert "fiktives Profil" in grid.texts
    assert "Amsterdam, Niederlande" in grid.texts


async def test_the_visitors_country_and_nobody_yet(db: Session) -> None:
    for i in range(25):
        _woman(db, i, 25, country="DE", region="DE-BE", city="Berlin")
    head, grid = await _parts("/landers/gallery", "en", **{"accept-language": "de-DE,de"})
    assert head.texts[:2] == ["Meet new people and start chatting", "Germany: 25 members"]
    assert len(grid.images) == 24
    assert [image["loading"] for image in grid.images] == ["eager"] * 6 + ["lazy"] * 18
    head, grid = await _parts("/landers/gallery/gay", "en")
    assert head.texts[:2] == ["Meet men who are looking for a man", "0 members with a photo"]
    assert grid.texts == ["Nobody here yet. Sign up and be one of the first."]


async def test_a_lander_whose_members_fail_is_served_with_empty_holders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def failing(*_args: object) -> dict[str, str]:
        raise RuntimeError("a bug, not the database")

    failing_parts = ServerParts(LANDER_PARTS.family, failing)
    monkeypatch.setattr(document_head, "SERVER_PARTS", (failing_parts,))
    page = f"<head>{HEAD_MARK}</head><body>{GRID_MARK}</body>"
    scope = {"type": "http", "path": "/landers/gallery/milf-amsterdam", "headers": []}
    served = await document_head._with_server_parts(page, scope, SiteSettings(), "en")
    assert served == "<head></head><body></body>"


def test_marks_no_writer_wrote_are_emptied_and_others_kept() -> None:
    page = f"<h1>{HEAD_MARK}</h1><div>{GRID_MARK}</div>⟦abcdefgh⟧"
    filled = LANDER_PARTS.fill(page, {HEAD_MARK: "<b>Hi</b>"})
    assert filled == "<h1><b>Hi</b></h1><div></div>⟦abcdefgh⟧"
