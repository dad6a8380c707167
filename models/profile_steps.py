"""The profile details a member fills in at signup and edits later: photos, basics, place,
looks, about-me, visibility."""

from datetime import date

from sqlmodel import Session, func, select

from models.account_errors import AccountError
from models.account_rules import clean_date_of_birth, clean_profile_name, storable
from models.attributes import (
    BODY_TYPES,
    EYE_COLOURS,
    GENDERS,
    HAIR_COLOURS,
    RELATIONSHIP_STATUSES,
    SEXUALITIES,
    TATTOOS,
)
from models.member import Member, Photo, Profile
from models.regions import is_region_of
from models.site_settings import SiteSettings
from translations.catalog import N_, N_plural
from translations.errors import PHOTO_LIMIT_REACHED

FREE_PHOTOS, PREMIUM_PHOTOS = 3, 25
ABOUT_MAX, CITY_MAX = 2000, 80
APPEARANCE = {
    "hair_colour": HAIR_COLOURS,
    "eye_colour": EYE_COLOURS,
    "body_type": BODY_TYPES,
    "relationship_status": RELATIONSHIP_STATUSES,
    "tattoos": TATTOOS,
}
CHOOSE_COUNTRY = N_("Choose your country.")
CITY_TOO_LONG = N_plural(
    "The name of your town can have at most {max} character.",
    "The name of your town can have at most {max} characters.",
    "max",
)
ABOUT_TOO_LONG = N_plural(
    "Your text can have at most {max} character.",
    "Your text can have at most {max} characters.",
    "max",
)
CHOOSE_GENDER = N_("Choose your gender.")
CHOOSE_SEXUALITY = N_("Choose who you are looking for.")


def photo_limit(member: Member) -> int:
    return PREMIUM_PHOTOS if member.paid_user else FREE_PHOTOS


def _profile(db: Session, member_id: int) -> Profile:
    profile = db.get(Profile, member_id)
    if profile is None:
        raise LookupError(member_id)
    return profile


def add_photo(db: Session, member_id: int, filename: str, thumb_filename: str) -> Photo:
    """Store the photo's row; the first one becomes the main photo. Checks the photo limit."""
    member = db.get(Member, member_id, with_for_update=True)  # two uploads at once: one waits
    count = db.exec(select(func.count()).where(Photo.member_id == member_id)).one()
    if member is None or count >= photo_limit(member):
        raise AccountError(PHOTO_LIMIT_REACHED, "photo")
    photo = Photo(
        member_id=member_id, filename=filename, thumb_filename=thumb_filename, position=count
    )
    db.add(photo)
    db.flush()
    profile = _profile(db, member_id)
    if profile.main_photo_id is None:
        profile.main_photo_id = photo.id
        db.add(profile)
    db.flush()
    return photo


def save_location(
    db: Session, member_id: int, settings: SiteSettings, country: str, region: str, city: str
) -> None:
    if country not in settings.countries:
        raise AccountError(CHOOSE_COUNTRY, "country")
    city = " ".join(storable(city or "").split())
    if len(city) > CITY_MAX:
        raise AccountError(CITY_TOO_LONG, "city", max=CITY_MAX)
    profile = _profile(db, member_id)
    profile.country = country
    profile.region = region if region and is_region_of(country, region) else None
    profile.city = city or None
    db.add(profile)
    db.flush()


def save_appearance(db: Session, member_id: int, values: dict[str, str]) -> None:
    """Known values are kept, anything else is left empty (every field is optional)."""
    profile = _profile(db, member_id)
    for field, allowed in APPEARANCE.items():
        value = values.get(field)
        setattr(profile, field, value if value in allowed else None)
    db.add(profile)
    db.flush()


def save_about(
    db: Session, member_id: int, settings: SiteSettings, about: str, interests: list[str]
) -> None:
    text = storable(about or "").strip()
    if len(text) > ABOUT_MAX:
        raise AccountError(ABOUT_TOO_LONG, "about", max=ABOUT_MAX)
    profile = _profile(db, member_id)
    profile.about_me = text
    profile.interests = [i for i in dict.fromkeys(interests) if i in settings.interests]
    db.add(profile)
    db.flush()


def save_basics(
    db: Session, member_id: int, settings: SiteSettings, fields: dict[str, str], today: date
) -> None:
    """Name, gender, sexuality and date of birth, each checked like at signup."""
    member = db.get(Member, member_id)
    if fields.get("gender") not in GENDERS:
        raise AccountError(CHOOSE_GENDER, "gender")
    if fields.get("sexuality") not in SEXUALITIES:
        raise AccountError(CHOOSE_SEXUALITY, "sexuality")
    name = clean_profile_name(fields.get("name", ""), member.email)
    born = clean_date_of_birth(fields.get("date_of_birth", ""), settings.min_age, today)
    profile = _profile(db, member_id)
    profile.name, profile.date_of_birth = name, born
    profile.gender, profile.sexuality = fields["gender"], fields["sexuality"]
    db.add(profile)
    db.flush()


def save_visibility(db: Session, member_id: int, invisible: bool, privacy_mode: bool) -> None:
    member = db.get(Member, member_id)
    member.invisible, member.privacy_mode = bool(invisible), bool(privacy_mode)
    db.add(member)
    db.flush()
