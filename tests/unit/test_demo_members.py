"""Demo members: idempotent seeding, valid photos, plausible profiles in every target country."""

import random
from datetime import date
from pathlib import Path

import pycountry
import pytest
from PIL import Image
from sqlmodel import Session, select

from models.attributes import INTERESTS
from models.member import Member, Photo, Profile
from models.site_settings import TARGET_COUNTRIES
from services.avatars import THUMB_WIDTH, draw_avatar
from services.demo_members import seed_demo_members
from services.demo_names import CITIES, COUNTRY_LANGUAGE, FEMALE_NAMES, MALE_NAMES
from services.demo_texts import ABOUT_ME, compose_about_me
from services.photo_store_local import LocalFolder

AVATAR_SIZE = 64
LANGUAGES = {"nl", "en", "de", "it", "fr", "es", "pl", "da", "fi", "nb", "sv"}


def _age(born: date, today: date) -> int:
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def _seed(db: Session, count: int, media: Path) -> int:
    return seed_demo_members(db, count, LocalFolder(media / "photos"), avatar_size=AVATAR_SIZE)


def _assert_clean_jpeg(path: Path, width: int) -> None:
    with Image.open(path) as image:
        assert image.format == "JPEG"
        assert image.width == width
        assert "exif" not in image.info
        assert not image.getexif()


def test_seeding_creates_members_with_profiles_and_main_photos(db: Session, tmp_path: Path):
    assert _seed(db, 6, tmp_path) == 6

    members = db.exec(select(Member)).all()
    assert len(members) == 6
    for member in members:
        assert member.is_demo and member.status == "active" and member.password_hash is None
        assert member.email.endswith("@demo.invalid")
        profile = db.get(Profile, member.id)
        assert profile is not None and profile.status == "enabled"
        photos = db.exec(
            select(Photo).where(Photo.member_id == member.id).order_by(Photo.position)
        ).all()
        assert 1 <= len(photos) <= 4
        assert [p.position for p in photos] == list(range(len(photos)))
        assert profile.main_photo_id == photos[0].id
        for photo in photos:
            _assert_clean_jpeg(tmp_path / "photos" / photo.filename, AVATAR_SIZE)
            _assert_clean_jpeg(tmp_path / "photos" / photo.thumb_filename, THUMB_WIDTH)


def test_seeding_again_creates_nothing_and_tops_up(db: Session, tmp_path: Path):
    assert _seed(db, 4, tmp_path) == 4
    assert _seed(db, 4, tmp_path) == 0
    assert _seed(db, 2, tmp_path) == 0
    assert _seed(db, 6, tmp_path) == 2
    emails = db.exec(select(Member.email)).all()
    assert sorted(emails) == sorted(f"demo{i}@demo.invalid" for i in range(6))


def test_seeding_is_deterministic(db: Session, tmp_path: Path):
    def snapshot() -> list[tuple[str, str, str, str]]:
        rows = db.exec(
            select(Member.email, Profile.name, Profile.city, Profile.about_me).join(Profile)
        )
        return sorted(tuple(row) for row in rows)

    _seed(db, 3, tmp_path)
    first = snapshot()
    for member in db.exec(select(Member)).all():
        db.delete(member)
    db.commit()
    _seed(db, 3, tmp_path)
    assert snapshot() == first


def test_two_hundred_members_are_plausible_in_every_country(db: Session, tmp_path: Path):
    assert _seed(db, 200, tmp_path) == 200
    rows = db.exec(select(Member, Profile).join(Profile, Profile.member_id == Member.id)).all()
    today = date.today()

    assert {profile.country for _, profile in rows} == set(TARGET_COUNTRIES)
    assert 0.45 < sum(p.gender == "female" for _, p in rows) / len(rows) < 0.75
    assert sum(m.paid_user for m, _ in rows) > 10
    for member, profile in rows:
        subdivision = pycountry.subdivisions.get(code=profile.region)
        assert subdivision is not None and subdivision.country_code == profile.country
        assert (profile.city, profile.region) in CITIES[profile.country]
        assert 18 <= _age(profile.date_of_birth, today) <= 70
        language = COUNTRY_LANGUAGE[profile.country]
        assert member.language == language
        assert profile.about_me.startswith(ABOUT_ME[language].openers)
        names = FEMALE_NAMES if profile.gender == "female" else MALE_NAMES
        assert profile.name in names[profile.country]
        assert profile.sexuality in {
            "hetero",
            "bi",
            "lesbian" if profile.gender == "female" else "gay",
        }
        assert 2 <= len(profile.interests) <= 5 and set(profile.interests) <= set(INTERESTS)


def test_every_target_country_has_names_cities_and_a_language():
    for country in TARGET_COUNTRIES:
        assert len(FEMALE_NAMES[country]) >= 25 and len(MALE_NAMES[country]) >= 25
        assert 4 <= len(CITIES[country]) <= 8
        assert COUNTRY_LANGUAGE[country] in LANGUAGES
        for _city, code in CITIES[country]:
            subdivision = pycountry.subdivisions.get(code=code)
            assert subdivision is not None and subdivision.country_code == country, code


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_about_me_texts_vary_in_every_language(language: str):
    texts = ABOUT_ME[language]
    assert len(texts.openers) >= 6 and len(texts.closers) >= 6 and len(texts.middles) >= 6
    rng = random.Random(language)
    composed = {compose_about_me(rng, language, rng.sample(INTERESTS, 3)) for _ in range(100)}
    assert len(composed) >= 95


def test_avatars_are_deterministic_and_varied():
    first = draw_avatar(7, "female", "red", "green", size=80)
    assert first.size == (80, 80)
    assert first.tobytes() == draw_avatar(7, "female", "red", "green", size=80).tobytes()
    assert first.tobytes() != draw_avatar(8, "female", "red", "green", size=80).tobytes()
