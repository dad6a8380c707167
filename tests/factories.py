"""Small builders for test rows."""

from datetime import date

from sqlmodel import Session

from models.member import Member, Photo, Profile


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
