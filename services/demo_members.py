"""Demo members that make a fresh site feel alive; each one is deterministic from its index."""

import random
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from itertools import count as count_from
from itertools import islice

from sqlmodel import Session, select

from models.attributes import (
    BODY_TYPES,
    EYE_COLOURS,
    HAIR_COLOURS,
    INTERESTS,
    RELATIONSHIP_STATUSES,
    TATTOOS,
)
from models.member import Member, Photo, Profile, utcnow
from models.site_settings import TARGET_COUNTRIES
from services.avatars import draw_avatar, save_avatar_files
from services.demo_names import CITIES, COUNTRY_LANGUAGE, first_names
from services.demo_texts import compose_about_me
from services.photo_store import PhotoStore

BATCH_SIZE = 50
SIGNUP_SPREAD = timedelta(days=730)

# Relative weights; the bigger markets get more members.
_COUNTRY_WEIGHTS = {"NL": 10, "DE": 9, "GB": 8, "US": 8, "BE": 4, "FR": 4}
_HAIR_WEIGHTS = (20, 36, 24, 6, 8, 6)  # by HAIR_COLOURS
_EYE_WEIGHTS = (34, 30, 12, 8, 16)  # by EYE_COLOURS
_BODY_WEIGHTS = (22, 22, 34, 14, 8)  # by BODY_TYPES
_RELATIONSHIP_WEIGHTS = (58, 24, 6, 7, 5)  # by RELATIONSHIP_STATUSES
_TATTOO_WEIGHTS = (58, 26, 16)  # by TATTOOS


@dataclass
class _Demo:
    """A member about to be inserted; the profile gets its ids on insert."""

    index: int
    member: Member
    profile: Profile
    photo_count: int
    avatar_seed: int


def demo_email(index: int) -> str:
    return f"demo{index}@demo.invalid"


def _country(rng: random.Random, index: int) -> str:
    """The first members cover every country once, the rest follow the weights."""
    if index < len(TARGET_COUNTRIES):
        return TARGET_COUNTRIES[index]
    weights = [_COUNTRY_WEIGHTS.get(c, 2) for c in TARGET_COUNTRIES]
    return rng.choices(TARGET_COUNTRIES, weights)[0]


def _age(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.12:
        return rng.randint(18, 24)
    if roll < 0.84:
        return rng.randint(25, 50)
    return rng.randint(51, 70)


def _date_of_birth(rng: random.Random, age: int, today: date) -> date:
    """A birthday that makes the member exactly `age` today."""
    year = today.year - age
    anniversary = (
        date(year, 2, 28) if (today.month, today.day) == (2, 29) else today.replace(year=year)
    )
    return anniversary - timedelta(days=rng.randint(0, 364))


def _sexuality(rng: random.Random, gender: str) -> str:
    same_sex = "lesbian" if gender == "female" else "gay"
    return rng.choices(("hetero", same_sex, "bi"), (86, 7, 7))[0]


def _hair_colour(rng: random.Random, age: int) -> str:
    if age >= 55 and rng.random() < 0.5:
        return "grey"
    return rng.choices(HAIR_COLOURS, _HAIR_WEIGHTS)[0]


def _body_type(rng: random.Random, gender: str) -> str:
    body = rng.choices(BODY_TYPES, _BODY_WEIGHTS)[0]
    return "large" if body == "curvy" and gender == "male" else body


def _relationship_status(rng: random.Random, age: int) -> str:
    status = rng.choices(RELATIONSHIP_STATUSES, _RELATIONSHIP_WEIGHTS)[0]
    return "single" if status == "widowed" and age < 40 else status


def _member(rng: random.Random, index: int, language: str, now: datetime) -> Member:
    paid = rng.random() < 0.2
    credits = rng.choice((0, 5, 20, 45, 110)) if paid else rng.choice((0, 0, 0, 10))
    return Member(
        email=demo_email(index),
        password_hash=None,
        status="active",
        language=language,
        paid_user=paid,
        credits=credits,
        signup_date=now - SIGNUP_SPREAD * rng.random(),
        fictional_icon=False,
        is_demo=True,
    )


def _profile(rng: random.Random, country: str, today: date) -> Profile:
    gender = "female" if rng.random() < 0.6 else "male"
    age = _age(rng)
    city, region = rng.choice(CITIES[country])
    interests = rng.sample(INTERESTS, rng.randint(2, 5))
    return Profile(
        name=rng.choice(first_names(country, gender)),
        gender=gender,
        sexuality=_sexuality(rng, gender),
        date_of_birth=_date_of_birth(rng, age, today),
        country=country,
        region=region,
        city=city,
        hair_colour=_hair_colour(rng, age),
        eye_colour=rng.choices(EYE_COLOURS, _EYE_WEIGHTS)[0],
        body_type=_body_type(rng, gender),
        relationship_status=_relationship_status(rng, age),
        tattoos=rng.choices(TATTOOS, _TATTOO_WEIGHTS)[0],
        interests=interests,
        about_me=compose_about_me(rng, COUNTRY_LANGUAGE[country], interests),
        status="enabled",
    )


def _demo(index: int, today: date, now: datetime) -> _Demo:
    rng = random.Random(index)
    country = _country(rng, index)
    member = _member(rng, index, COUNTRY_LANGUAGE[country], now)
    profile = _profile(rng, country, today)
    photo_count = rng.choices((1, 2, 3, 4), (30, 30, 25, 15))[0]
    return _Demo(index, member, profile, photo_count, avatar_seed=rng.getrandbits(32))


def _missing_indices(db: Session, count: int) -> list[int]:
    """The lowest free indices, as many as the demo members missing up to `count`."""
    taken = set(db.exec(select(Member.email).where(Member.is_demo)))
    free = (index for index in count_from() if demo_email(index) not in taken)
    return list(islice(free, max(count - len(taken), 0)))


def _batches(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _render_photo(demo: _Demo, position: int, store: PhotoStore, size: int) -> tuple[str, str]:
    """One avatar of the member: the same person, another outfit and background."""
    profile = demo.profile
    image = draw_avatar(
        demo.avatar_seed + position,
        profile.gender,
        profile.hair_colour or "brown",
        profile.eye_colour or "brown",
        size=size,
        person_seed=demo.avatar_seed,
    )
    return save_avatar_files(image, store, f"demo{demo.index}-{position}")


def _render_photos(
    pool: ThreadPoolExecutor, demos: list[_Demo], store: PhotoStore, size: int
) -> list[list[tuple[str, str]]]:
    """Every demo's (filename, thumb_filename) pairs, drawn in parallel."""
    jobs = [(demo, position) for demo in demos for position in range(demo.photo_count)]
    rendered = iter(pool.map(lambda job: _render_photo(*job, store, size), jobs))
    return [list(islice(rendered, demo.photo_count)) for demo in demos]


def _insert(db: Session, demos: list[_Demo], files: list[list[tuple[str, str]]]) -> None:
    db.add_all(demo.member for demo in demos)
    db.flush()
    photos_by_demo = [
        [
            Photo(
                member_id=demo.member.id,
                filename=filename,
                thumb_filename=thumb_filename,
                position=position,
                status="approved",
                created_at=demo.member.signup_date,
            )
            for position, (filename, thumb_filename) in enumerate(demo_files)
        ]
        for demo, demo_files in zip(demos, files, strict=True)
    ]
    db.add_all(photo for photos in photos_by_demo for photo in photos)
    db.flush()
    for demo, photos in zip(demos, photos_by_demo, strict=True):
        demo.profile.member_id = demo.member.id
        demo.profile.main_photo_id = photos[0].id
        db.add(demo.profile)
    db.commit()


def seed_demo_members(db: Session, count: int, store: PhotoStore, avatar_size: int = 600) -> int:
    """Create the demo members missing up to `count`, their photos in `store`; return how many
    were created."""
    indices = _missing_indices(db, count)
    today, now = date.today(), utcnow()
    with ThreadPoolExecutor() as pool:
        for batch in _batches(indices, BATCH_SIZE):
            demos = [_demo(index, today, now) for index in batch]
            _insert(db, demos, _render_photos(pool, demos, store, avatar_size))
    return len(indices)
