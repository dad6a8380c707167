"""Landers: the slug's niche and place, each niche's members, nearest first, widening, and who is
never shown."""

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session

from actions.lander_reads import (
    ANYWHERE,
    COUNTRY,
    PLACE,
    LanderAsk,
    lander_members,
    lander_target,
)
from models.attributes import BODY_TYPES, GENDERS, SEXUALITIES
from models.lander_slug import MAX_SLUG_LENGTH, NICHES, LanderPlace, LanderTarget, parse_slug
from models.member import Member
from models.site_settings import NICHE_SLUG_PREFIXES, SiteSettings
from tests.factories import add_photo, block_member, edit_profile, make_member

TODAY = date(2025, 6, 15)
NOON = datetime(2025, 6, 15, 12, tzinfo=UTC)  # TODAY, in any timezone the server has
START = datetime(2025, 1, 1, tzinfo=UTC)
SETTINGS = SiteSettings()
AMSTERDAM = LanderPlace("NL", "NL-NH", "Amsterdam")
NOORD_HOLLAND = LanderPlace("NL", "NL-NH", "")


def born_aged(age: int) -> date:
    """Born so as to be `age` on TODAY (a day past the birthday)."""
    return date(TODAY.year - age, TODAY.month, TODAY.day - 1)


# --- the slug --------------------------------------------------------------------------------


def _places(words: str) -> LanderPlace | None:
    return {"amsterdam": AMSTERDAM, "noord-holland": NOORD_HOLLAND}.get(words)


@pytest.mark.parametrize(
    ("slug", "niche", "place"),
    [
        ("milf-amsterdam", "milf", AMSTERDAM),
        ("gay", "gay", None),
        ("gay-", "gay", None),
        ("amsterdam", "none", AMSTERDAM),
        ("Milf-Amsterdam", "milf", AMSTERDAM),
        ("bbw-noord-holland", "bbw", NOORD_HOLLAND),
        ("she-atlantis", "she", None),  # unknown place: ignored
        ("gayville", "none", None),  # a prefix needs its dash
        ("gilf", "gilf", None),
        ("bdsm-amsterdam", "bdsm", AMSTERDAM),
        ("", "none", None),
        (None, "none", None),
        (["milf-amsterdam"], "none", None),
        ("milf amsterdam", "none", None),
        ("milf-amsterdam/../x", "none", None),
        ("milf-ämsterdam", "none", None),
        ("milf-" + "a" * MAX_SLUG_LENGTH, "none", None),
    ],
)
def test_slug_names_niche_and_place(slug: object, niche: str, place: LanderPlace | None) -> None:
    assert parse_slug(slug, _places) == LanderTarget(niche, place)


def test_every_setting_prefix_is_a_niche() -> None:
    assert len(NICHES) == 7
    for prefix in NICHE_SLUG_PREFIXES.values():
        name = prefix.removesuffix("-") or "none"
        assert parse_slug(prefix + "amsterdam", _places) == LanderTarget(name, AMSTERDAM)


def test_slug_places_resolve_against_the_site_city_and_region_data() -> None:
    assert lander_target("milf-amsterdam") == LanderTarget("milf", AMSTERDAM)
    assert lander_target("berlin") == LanderTarget("none", LanderPlace("DE", "DE-BE", "Berlin"))
    assert lander_target("gay-den-haag").place == LanderPlace("NL", "NL-ZH", "The Hague")
    assert lander_target("munchen").place == LanderPlace("DE", "DE-BY", "Munich")
    assert lander_target("bayern").place == LanderPlace("DE", "DE-BY", "")
    assert lander_target("she-nowhereville-xyz") == LanderTarget("she", None)


# --- members ---------------------------------------------------------------------------------

_made = iter(range(10_000))


def _member(db: Session, day: int = 0, photo: bool = True, **profile) -> Member:
    """A listed member (a woman of 35 in Amsterdam unless told), newer for a later `day`."""
    number = next(_made)
    member = make_member(db, f"m{number}@example.com", signup_date=START + timedelta(days=day))
    fields = {"date_of_birth": born_aged(35), "city": "Amsterdam", "region": "NL-NH"}
    edit_profile(db, member, **{**fields, **profile})
    if photo:
        add_photo(db, member, f"p{number}", main=True)
    return member


def _read(db: Session, slug_target: LanderTarget, country: str | None = None, limit: int = 50):
    return lander_members(db, LanderAsk(slug_target, country, "en", limit, None, SETTINGS, NOON))


def _ids(found) -> list[int]:
    return [member["id"] for member in found.members]


EVERYONE = [
    {"gender": gender, "sexuality": sexuality, "date_of_birth": born_aged(age), "body_type": body}
    for gender in GENDERS
    for sexuality in SEXUALITIES
    for age in (18, 39, 40, 59, 60, 75)
    for body in (None, *BODY_TYPES)
]


def _age(born: date) -> int:
    return TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))


# The niche definitions of docs/acquisition.md, written out again.
FITS = {
    "none": lambda p: True,
    "bdsm": lambda p: True,
    "she": lambda p: p["gender"] == "female" and p["sexuality"] in ("hetero", "bi"),
    "milf": lambda p: FITS["she"](p) and _age(p["date_of_birth"]) >= 40,
    "gilf": lambda p: FITS["she"](p) and _age(p["date_of_birth"]) >= 60,
    "bbw": lambda p: FITS["she"](p) and p["body_type"] == "large",
    "gay": lambda p: p["gender"] == "male" and p["sexuality"] in ("gay", "bi"),
}


def test_each_niche_holds_exactly_the_members_that_fit_it(db: Session) -> None:
    made = {_member(db, **profile).id: profile for profile in EVERYONE}
    for niche in NICHES:
        found = _read(db, LanderTarget(niche), limit=len(made))
        expected = {member_id for member_id, profile in made.items() if FITS[niche](profile)}
        assert set(_ids(found)) == expected, niche
        assert found.counted == len(expected), niche
        assert expected, niche  # every niche has members among everyone
    assert len(_ids(_read(db, LanderTarget("gilf"), limit=1000))) == 2 * 2 * 6  # ages 60, 75


def test_a_member_card_carries_what_a_lander_shows(db: Session) -> None:
    member = _member(db, name="Eva", date_of_birth=born_aged(41))
    member.fictional_icon = True
    db.add(member)
    db.commit()
    (card,) = _read(db, LanderTarget("milf")).members
    number = card["photo"].removesuffix("_t.jpg").rsplit("/p", 1)[1]
    assert card == {
        "id": member.id,
        "name": "Eva",
        "age": 41,
        "place": "Amsterdam, Netherlands",
        "photo": SETTINGS.photo_url(f"p{number}_t.jpg"),
        "srcset": f"{SETTINGS.photo_url(f'p{number}_t.jpg')} 400w, "
        f"{SETTINGS.photo_url(f'p{number}.jpg')} 1600w",
        "fictional": True,
    }


def test_nearest_first_then_newest(db: Session) -> None:
    abroad = _member(db, day=9, country="DE", region="DE-BE", city="Berlin")
    elsewhere_nl = _member(db, day=8, region="NL-UT", city="Utrecht")
    same_region = _member(db, day=7, city="Haarlem")
    same_city_old = _member(db, day=1)
    same_city_new = _member(db, day=2, city="amsterdam")
    expected = [same_city_new, same_city_old, same_region, elsewhere_nl, abroad]
    found = _read(db, LanderTarget("none", AMSTERDAM), limit=5)
    assert _ids(found) == [m.id for m in expected]
    assert (found.area, found.widened, found.counted) == (ANYWHERE, True, 5)
    by_country = _read(db, LanderTarget(), country="DE", limit=5)
    assert _ids(by_country)[0] == abroad.id
    assert _ids(by_country)[1:] == [elsewhere_nl.id, same_region.id, same_city_new.id,
                                     same_city_old.id]  # fmt: skip


def test_too_few_in_the_place_widens_to_the_country_then_anywhere(db: Session) -> None:
    in_place = [_member(db, day=day) for day in range(3)]
    in_country = [_member(db, day=5 + day, region="NL-UT", city="Utrecht") for day in range(2)]
    abroad = _member(db, country="DE", region="DE-BE", city="Berlin")
    amsterdam = LanderTarget("none", AMSTERDAM)

    enough = _read(db, amsterdam, limit=3)
    assert (enough.area, enough.widened, enough.counted) == (PLACE, False, 3)
    assert set(_ids(enough)) == {m.id for m in in_place}

    country = _read(db, amsterdam, limit=5)
    assert (country.area, country.widened, country.counted) == (COUNTRY, True, 5)
    assert _ids(country)[:3] == [m.id for m in reversed(in_place)]
    assert abroad.id not in _ids(country)

    anywhere = _read(db, amsterdam, limit=10)
    assert (anywhere.area, anywhere.widened, anywhere.counted) == (ANYWHERE, True, 6)
    assert _ids(anywhere)[-1] == abroad.id
    assert set(_ids(anywhere)) == {m.id for m in (*in_place, *in_country, abroad)}


def test_the_visitors_country_without_a_place(db: Session) -> None:
    dutch = [_member(db) for _ in range(2)]
    german = _member(db, country="DE", region="DE-BE", city="Berlin")
    found = _read(db, LanderTarget(), country="NL", limit=2)
    assert (found.area, found.widened, found.counted) == (COUNTRY, False, 2)
    assert set(_ids(found)) == {m.id for m in dutch}
    unknown = _read(db, LanderTarget(), country=None, limit=2)
    assert (unknown.area, unknown.widened, unknown.counted) == (ANYWHERE, False, 3)
    assert german.id in _ids(_read(db, LanderTarget(), country="NL", limit=3))


def test_nobody_hidden_invisible_banned_blocked_or_without_a_photo(db: Session) -> None:
    shown = _member(db)
    hidden = _member(db)
    edit_profile(db, hidden, status="disabled")
    left_out = [hidden, _member(db, photo=False)]
    private = _member(db)
    private.privacy_mode = True  # hidden from visitors, not from members
    db.add(private)
    db.commit()
    for fields in (
        {"invisible": True},
        {"status": "banned"},
        {"status": "suspended"},
        {"status": "not_confirmed"},
        {"status": "deleted_pending"},
    ):
        member = _member(db)
        for name, value in fields.items():
            setattr(member, name, value)
        db.add(member)
        db.commit()
        left_out.append(member)
    blocker, blocked = _member(db), _member(db)
    viewer = _member(db)
    block_member(db, blocker.id, viewer.id)
    block_member(db, viewer.id, blocked.id)

    visitor = _read(db, LanderTarget("she", AMSTERDAM), country="NL")
    assert set(_ids(visitor)) == {shown.id, blocker.id, blocked.id, viewer.id}
    assert visitor.counted == 4
    ask = LanderAsk(LanderTarget("she", AMSTERDAM), "NL", "en", 50, viewer.id, SETTINGS, NOON)
    as_member = lander_members(db, ask)
    assert set(_ids(as_member)) == {shown.id, private.id}
    assert not {m.id for m in left_out} & {*_ids(visitor), *_ids(as_member)}
    assert as_member.counted == 2


def test_counted_is_never_more_than_fit(db: Session) -> None:
    _member(db, gender="male", sexuality="gay")
    found = _read(db, LanderTarget("gay", AMSTERDAM), country="NL", limit=24)
    assert (found.counted, len(found.members), found.widened, found.capped) == (1, 1, True, False)
    assert _read(db, LanderTarget("milf"), limit=24).counted == 0
