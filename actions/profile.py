"""The member's own profile: the settings form's facts, and each section saved on its own.

The rules (vocabularies, lengths, the age limit) live in models/profile_steps.py; every action
re-checks what the browser sent against them and the site settings."""

from dataclasses import dataclass
from datetime import date

from actions.runner import Done
from actions.viewer import Viewer
from models import profile_steps
from models.member import Member, Profile
from services.database import db_session, transaction
from services.site_settings import current_settings


@dataclass(frozen=True)
class ProfileForm:
    name: str
    gender: str
    sexuality: str
    date_of_birth: str
    looks: dict[str, str]
    about: str
    interests: list[str]
    country: str
    region: str
    city: str
    invisible: bool
    privacy_mode: bool


def profile_form(member_id: int) -> ProfileForm | None:
    """What the settings show of the member's profile, or None without one."""
    with db_session() as db:
        member, profile = db.get(Member, member_id), db.get(Profile, member_id)
        if member is None or profile is None:
            return None
        return ProfileForm(
            name=profile.name,
            gender=profile.gender,
            sexuality=profile.sexuality,
            date_of_birth=profile.date_of_birth.isoformat(),
            looks={field: getattr(profile, field) or "" for field in profile_steps.APPEARANCE},
            about=profile.about_me,
            interests=list(profile.interests),
            country=profile.country,
            region=profile.region or "",
            city=profile.city or "",
            invisible=member.invisible,
            privacy_mode=member.privacy_mode,
        )


def save_basics(viewer: Viewer, fields: dict[str, str], today: date) -> Done[None]:
    """Name, gender, sexuality and date of birth; AccountError names a refused field."""
    with transaction() as db:
        profile_steps.save_basics(db, viewer.member_id, current_settings(), fields, today)
    return Done(None)


def save_looks(viewer: Viewer, looks: dict[str, str]) -> Done[None]:
    with transaction() as db:
        profile_steps.save_appearance(db, viewer.member_id, looks)
    return Done(None)


def save_about(viewer: Viewer, about: str, interests: list[str]) -> Done[None]:
    with transaction() as db:
        profile_steps.save_about(db, viewer.member_id, current_settings(), about, interests)
    return Done(None)


def save_profile(
    viewer: Viewer,
    fields: dict[str, str],
    looks: dict[str, str],
    about: str,
    interests: list[str],
    today: date,
) -> Done[None]:
    """The settings' profile tab at once: basics, looks, text and interests, all or nothing
    (AccountError names a refused field)."""
    with transaction() as db:
        settings = current_settings()
        profile_steps.save_basics(db, viewer.member_id, settings, fields, today)
        profile_steps.save_appearance(db, viewer.member_id, looks)
        profile_steps.save_about(db, viewer.member_id, settings, about, interests)
    return Done(None)


def save_location(viewer: Viewer, country: str, region: str, city: str) -> Done[None]:
    with transaction() as db:
        settings = current_settings()
        profile_steps.save_location(db, viewer.member_id, settings, country, region, city)
    return Done(None)


def save_visibility(viewer: Viewer, invisible: bool, privacy_mode: bool) -> Done[None]:
    with transaction() as db:
        profile_steps.save_visibility(db, viewer.member_id, invisible, privacy_mode)
    return Done(None)
