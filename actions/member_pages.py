"""One member as their landing pages and signup page show them (docs/acquisition.md, "Member
landings"): only a member listed to the viewer (`listed_profiles_to`: active, profile enabled,
not invisible, for visitors not in privacy mode, for a logged-in viewer no block either way).
For anybody else the page leads to a lander of the member's niche (`unlisted_lander`)."""

from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import select

from actions.discovery import shown_details
from models.directory import age_on
from models.lander_slug import PLAIN, slug_parts
from models.member import Member, Photo, Profile
from models.niches import NicheFacts, member_niche
from models.routes import lander_url
from models.site_settings import SiteSettings
from models.visibility import listed_profiles_to
from services.database import db_session
from services.photo_pipeline import MAX_SIDE, THUMB_SIZE
from services.site_settings import current_settings

MAX_MEMBER_ID = 2**31 - 1  # the column's range: a larger number names nobody


@dataclass(frozen=True)
class LandingMember:
    """What a member landing shows; the place only where the settings show living areas, the
    about-me text and details only those the settings show (as the profile does)."""

    id: int
    name: str
    age: int
    city: str
    region: str
    country: str
    about_me: str
    details: list[list[str]] = field(default_factory=list)  # [label msgid, value label key]
    photo: str = ""  # the main photo (always an approved one), "" without one
    srcset: str = ""
    fictional: bool = False
    niche_facts: NicheFacts | None = None


@dataclass(frozen=True)
class MemberFound:
    listed: bool  # listed to this viewer: the page shows them
    member: LandingMember | None  # None: no profile at all


def _landing_member(
    profile: Profile, fictional: bool, photo: Photo | None, settings: SiteSettings
) -> LandingMember:
    visible = settings.visible_profile_fields
    small = settings.photo_url(photo.thumb_filename) if photo else ""
    large = settings.photo_url(photo.filename) if photo else ""
    place = "living_area" in visible
    return LandingMember(
        id=profile.member_id,
        name=profile.name,
        age=age_on(profile.date_of_birth, date.today()),
        city=(profile.city or "") if place else "",
        region=(profile.region or "") if place else "",
        country=profile.country if place else "",
        about_me=profile.about_me if settings.visible_profile_notes else "",
        details=shown_details(profile, visible),
        photo=large,
        srcset=f"{small} {THUMB_SIZE[0]}w, {large} {MAX_SIDE}w" if photo else "",
        fictional=fictional,
        niche_facts=NicheFacts(
            profile.gender, profile.sexuality, profile.date_of_birth, profile.body_type
        ),
    )


def member_found(
    viewer_id: int | None, member_id: int, settings: SiteSettings | None = None
) -> MemberFound:
    """The member and whether this viewer may see them on a landing, in one statement (run it
    through `actions.runner.read`)."""
    if not 0 < member_id <= MAX_MEMBER_ID:
        return MemberFound(False, None)
    listed = listed_profiles_to(viewer_id).label("listed")
    query = (
        select(Profile, Member.fictional_icon, Photo, listed)
        .join(Member, Member.id == Profile.member_id)
        .outerjoin(Photo, Photo.id == Profile.main_photo_id)
        .where(Profile.member_id == member_id)
    )
    with db_session() as db:
        row = db.exec(query).first()
        if row is None:
            return MemberFound(False, None)
        profile, fictional, photo, shown = row
        member = _landing_member(profile, fictional, photo, settings or current_settings())
        return MemberFound(bool(shown), member)


def unlisted_lander(found: MemberFound, slug: str | None, today: date) -> str:
    """The gallery lander a page of a member the viewer may not see leads to: the slug's niche
    (a landing2/3 address) and place, else the member's niche, else the plain lander."""
    niche, words = slug_parts(slug or "")
    if niche == PLAIN and found.member is not None and found.member.niche_facts is not None:
        niche = member_niche(found.member.niche_facts, today)
    return lander_url("gallery", "-".join(filter(None, (niche if niche != PLAIN else "", words))))
