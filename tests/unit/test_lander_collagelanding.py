"""The collage lander's server HTML (components/landers/collagelanding.py): the niche's honest
headline and counted number, its members as tiles (a large one every sixth, sized for it), each
leading to the signup aimed at that member, fictional profiles labelled, nobody hidden."""

from sqlmodel import Session

from components.landers import collagelanding
from components.landers.common import lander_mark
from tests.unit.lander_pages import Parsed, lander_member, request

PATH = "/landers/collagelanding/milf-amsterdam"


async def _parts(locale: str) -> tuple[Parsed, Parsed]:
    parts = await collagelanding.write(request(PATH, locale))
    return Parsed(parts[lander_mark("head")]), Parsed(parts[lander_mark("collage")])


async def test_the_niches_members_as_tiles_nearest_first(db: Session) -> None:
    shown = [lander_member(db, f"Anna{i}", 45 + i) for i in range(8)]
    lander_member(db, "Young", 30)  # under 40: not milf
    lander_member(db, "Far", 50, city="Utrecht", region="NL-UT")
    banned = lander_member(db, "Banned", 50)
    banned.status = "banned"
    shown[3].fictional_icon = True
    db.add_all([banned, shown[3]])
    db.commit()

    head, collage = await _parts("en")
    assert head.texts[:2] == [
        "Meet women aged 40 and over who are looking for a man",
        "9 members with a photo",  # fewer than a page anywhere nearer: all that fit
    ]
    names = [text.split(",")[0] for text in collage.texts if text[-1].isdigit()]
    assert names[:8] == [f"Anna{i}" for i in reversed(range(8))]  # Amsterdam, the newest first
    assert names[8] == "Far" and "Young" not in names and "Banned" not in names
    assert collage.links[0] == f"/members/{shown[7].id}/signup"
    assert "fictional profile" in collage.texts
    sizes = [image["sizes"] for image in collage.images]
    assert sizes[0] == sizes[6] == collagelanding.LARGE_SIZES
    assert set(sizes[1:6]) == {collagelanding.SMALL_SIZES}
    assert collage.images[0]["srcset"] == collage.images[0]["src"] + " 400w"  # thumbnail only
    assert collage.images[1]["srcset"].endswith(" 1600w")
    assert collage.images[0]["fetchpriority"] == "high"
    assert [image["loading"] for image in collage.images][5:7] == ["eager", "lazy"]
    assert all(image["width"] and image["height"] for image in collage.images)

    head, collage = await _parts("de")
    assert head.texts[:2] == ["Triff Frauen ab 40, die einen Mann suchen", "9 Mitglieder mit Foto"]
    assert "fiktives Profil" in collage.texts


async def test_nobody_yet(db: Session) -> None:
    head, collage = await _parts("nl")
    assert head.texts[1] == "0 leden met een foto"
    assert collage.texts == ["Nog niemand hier. Meld je aan en wees een van de eersten."]
