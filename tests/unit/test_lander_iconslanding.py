"""The icons lander's server HTML (components/landers/iconslanding.py): the site's six promises,
each an inline SVG icon with a short text in the visitor's language (the languages counted, not
written), over the niche's members, each leading to the signup aimed at them."""

from sqlmodel import Session

from components.landers import iconslanding
from components.landers.common import lander_mark
from tests.unit.lander_pages import Parsed, lander_member, request
from translations.locales import LOCALES

PATH = "/landers/iconslanding/gay"
PROMISES = [
    "Free to sign up",
    "Creating your account costs nothing.",
    "Photos checked",
    "New photos are scanned automatically and reviewed by our moderators.",
    "Your privacy",
    "Privacy mode hides your profile from visitors. Download or delete your data whenever you"
    " like.",
    "No subscription",
    "Credits in one-time bundles: you pay only for what you use.",
    "Report and block",
    "Report or block anyone who bothers you.",
    "11 languages",
    "Use the site in your own language.",
]


async def _parts(locale: str) -> dict[str, Parsed]:
    parts = await iconslanding.write(request(PATH, locale))
    return {name: Parsed(parts[lander_mark(name)]) for name in ("head", "photos", "promises")}


async def test_the_promises_over_the_niches_members(db: Session) -> None:
    men = [lander_member(db, f"Bram{i}", 30, gender="male", sexuality="gay") for i in range(3)]
    lander_member(db, "Mira", 30)  # a woman: not in the gay niche
    hidden = lander_member(db, "Hidden", 30, gender="male", sexuality="gay")
    hidden.invisible = True
    db.add(hidden)
    db.commit()

    parts = await _parts("en")
    assert parts["head"].texts[:2] == [
        "Meet men who are looking for a man",
        "3 members with a photo",
    ]
    assert parts["promises"].texts == PROMISES
    assert parts["promises"].classes.count("promise-icon") == len(PROMISES) // 2
    photos = parts["photos"]
    assert sorted(photos.links) == sorted(f"/members/{man.id}/signup" for man in men)
    assert {image["loading"] for image in photos.images} == {"lazy"}  # the headline paints first
    assert all(image["sizes"] == iconslanding.SIZES for image in photos.images)


async def test_the_promises_in_every_language(db: Session) -> None:
    written = {}
    for locale in LOCALES:
        written[locale] = (await _parts(locale))["promises"].texts
        assert len(written[locale]) == len(PROMISES)
    assert written["pl"][10] == "11 języków" and written["de"][10] == "11 Sprachen"
    for locale in set(LOCALES) - {"en"}:
        assert not set(written[locale]) & set(PROMISES[:10] + PROMISES[11:]), locale
