"""Small builders for test rows."""

from collections.abc import Callable
from datetime import date
from functools import cache
from typing import Concatenate, ParamSpec, TypeVar

from sqlmodel import Session, SQLModel, select

from models.blocks import add_block, remove_block
from models.member import Member, Photo, Profile
from models.passwords import hash_password

# A Web Push subscription as browsers post it to /api/user.php?push=1
SUBSCRIPTION = {
    "subscription": {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "keys": {"p256dh": "BPk3", "auth": "x1y2"},
    }
}


def make_member(db: Session, email: str = "anna@example.com", **fields) -> Member:
    member = Member(email=email, status=fields.pop("status", "active"), **fields)
    db.add(member)
    db.commit()
    db.add(
        Profile(
            member_id=member.id,
            name=email.split("@")[0].title(),
            gender="female",
            sexuality="hetero",
            date_of_birth=date(1990, 5, 17),
            country="NL",
        )
    )
    db.commit()
    return member


def add_photo(db: Session, member: Member, stem: str, main: bool = False) -> Photo:
    photo = Photo(member_id=member.id, filename=f"{stem}.jpg", thumb_filename=f"{stem}_t.jpg")
    db.add(photo)
    db.commit()
    if main:
        profile = db.get(Profile, member.id)
        profile.main_photo_id = photo.id
        db.add(profile)
        db.commit()
    return photo


def make_men(db: Session, count: int) -> list[Member]:
    """`count` men (of the factory's profile otherwise) with a main photo, newest last."""
    men = []
    for number in range(count):
        man = edit_profile(db, make_member(db, f"man{number}@example.com"), gender="male")
        add_photo(db, man, f"man{number}", main=True)
        men.append(man)
    return men


def edit_profile(db: Session, member: Member, **fields) -> Member:
    """Change some of the member's profile fields (gender, date_of_birth, country, ...)."""
    profile = db.get(Profile, member.id)
    for name, value in fields.items():
        setattr(profile, name, value)
    db.add(profile)
    db.commit()
    return member


PASSWORD = "correct horse battery"
BAN_SECRET = b"a test key for the banned identities' hashes"


@cache
def password_hash(password: str = PASSWORD) -> str:
    """The argon2id hash of `password`, computed once per test run (hashing is slow)."""
    return hash_password(password)


def make_member_with_password(
    db: Session, email: str = "anna@example.com", password: str = PASSWORD, **fields
) -> Member:
    """`make_member` with a password the log-in can check."""
    return make_member(db, email, password_hash=password_hash(password), **fields)


def row_count(db: Session, table: type[SQLModel]) -> int:
    return len(db.exec(select(table)).all())


def row_counts(db: Session, *tables: type[SQLModel]) -> dict[str, int]:
    return {table.__name__: row_count(db, table) for table in tables}


def block_member(db: Session, blocker_id: int, blocked_id: int) -> None:
    add_block(db, blocker_id, blocked_id)
    db.commit()


def unblock_member(db: Session, blocker_id: int, blocked_id: int) -> None:
    remove_block(db, blocker_id, blocked_id)
    db.commit()


P = ParamSpec("P")
T = TypeVar("T")


def committed(
    db: Session, write: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """`write(db, ...)` (a model function, which only flushes) committed at once, as an action's
    transaction would: for a test whose next step writes or reads through its own session."""
    result = write(db, *args, **kwargs)
    db.commit()
    return result
