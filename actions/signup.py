"""Becoming a member: the new account (a visitor's action), the signup funnel's events, and what
the steps after the account show. The steps themselves save through actions.profile and
actions.photos."""

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session

from actions.conversions import note_conversion
from actions.mail import mailed
from actions.runner import Done
from actions.viewer import Viewer
from models.activation import issue_activation
from models.auth_session import start_handoff
from models.banned_identities import BAN_KEY
from models.member import Member, MemberStatus, Photo, Profile
from models.photos import gallery_order, shown_photos
from models.postback import ConversionEvent
from models.signup import NewAccount, SignupForm, clean_signup, record_signup_event, register_member
from models.site_settings import SiteSettings
from services.account_mail import ACTIVATE_PATH, ACTIVATION, account_mail
from services.database import db_session, transaction
from services.server_keys import derived_key
from services.site_settings import current_settings


@dataclass(frozen=True)
class Arrival:
    """Where the visitor signs up from: the tab's language and country, the recorded click they
    arrived with (its verified cookie) and the member they want to write to."""

    locale: str
    country: str
    click_id: int | None
    to_member_id: int | None
    address: str = ""  # where the terms were accepted (models/consent.py)


@dataclass(frozen=True)
class NewMember:
    member_id: int
    handoff: str  # traded for the HttpOnly cookie by the browser
    session_id: int  # the tab that signed up checks this session on each later step


@dataclass(frozen=True)
class StepFacts:
    photo_url: str
    country: str
    region: str
    interests: list[str]


def sign_up(form: SignupForm, arrival: Arrival) -> Done[NewMember]:
    """Check the form against the settings, create the account and its session; the
    activation mail goes out after the commit. Raises AccountError for the first problem."""
    settings = current_settings()
    clean = clean_signup(form, settings, date.today())
    account = NewAccount(
        settings,
        arrival.locale,
        arrival.country,
        arrival.click_id,
        derived_key(BAN_KEY),
        arrival.to_member_id,
        arrival.address,
    )
    with transaction() as db:
        member = register_member(db, clean, account)
        token = issue_activation(db, member)
        handoff, session_id = start_handoff(db, member.id)
        out = mailed(db, account_mail(db, member, ACTIVATION, ACTIVATE_PATH, token))
        note_conversion(db, member.id, ConversionEvent.LEAD)
    return Done(NewMember(member.id, handoff, session_id), (out,))


def record_event(kind: str, visitor: str, member_id: int | None) -> Done[None]:
    with transaction() as db:
        record_signup_event(db, kind, visitor, member_id)
    return Done(None)


def _main_thumb(db: Session, profile: Profile, settings: SiteSettings) -> str:
    """The address of the profile's main photo thumbnail, or "" without one."""
    photo = db.get(Photo, profile.main_photo_id) if profile.main_photo_id else None
    return settings.photo_url(photo.thumb_filename) if photo else ""


def _own_thumb(db: Session, member_id: int, settings: SiteSettings) -> str:
    """The member's own first photo's thumbnail (pending review too: its owner sees it)."""
    own = shown_photos(gallery_order(db, member_id), own=True)
    return settings.photo_url(own[0].thumb_filename) if own else ""


def step_facts(viewer: Viewer) -> StepFacts | None:
    """What the steps after the account start from: the main photo, place and interests."""
    with db_session() as db:
        profile = db.get(Profile, viewer.member_id)
        if profile is None:
            return None
        thumb = _own_thumb(db, viewer.member_id, current_settings())
        return StepFacts(thumb, profile.country, profile.region or "", list(profile.interests))


def member_teaser(member_id: int) -> dict[str, str]:
    """Name and photo of the member a visitor wants to write to, if that member is visible."""
    with db_session() as db:
        member, profile = db.get(Member, member_id), db.get(Profile, member_id)
        if member is None or member.status != MemberStatus.ACTIVE:
            return {}
        if profile is None or profile.status != "enabled":
            return {}
        thumb = _main_thumb(db, profile, current_settings())
        return {"id": str(member_id), "name": profile.name, "thumb": thumb}
