"""Who sees whom: the rules every list, profile, photo and like goes through."""

from enum import StrEnum

from sqlalchemy import ColumnElement, and_, false, true
from sqlmodel import Session

from models.blocks import has_blocked, not_blocked_with
from models.member import Member, MemberStatus, Profile


class ProfileAccess(StrEnum):
    OWN = "own"
    VISIBLE = "visible"
    LOGIN_REQUIRED = "login_required"  # privacy mode: members only
    NOT_FOUND = "not_found"  # gone, hidden, or the member blocked the viewer


def shown_member(member: Member | None, profile: Profile | None) -> bool:
    """An active member with an enabled profile: one anybody may come across."""
    return (
        member is not None
        and profile is not None
        and member.status == MemberStatus.ACTIVE
        and profile.status == "enabled"
    )


def access_of(
    viewer_id: int | None, member: Member | None, profile: Profile | None, blocks_viewer: bool
) -> ProfileAccess:
    """How a viewer other than the member sees them, from facts already fetched."""
    if not shown_member(member, profile) or blocks_viewer:
        return ProfileAccess.NOT_FOUND
    if viewer_id is None and member.privacy_mode:
        return ProfileAccess.LOGIN_REQUIRED
    return ProfileAccess.VISIBLE


def profile_access(db: Session, viewer_id: int | None, member_id: int) -> ProfileAccess:
    if viewer_id is not None and viewer_id == member_id:
        return ProfileAccess.OWN
    member, profile = db.get(Member, member_id), db.get(Profile, member_id)
    return access_of(viewer_id, member, profile, has_blocked(db, member_id, viewer_id))


def can_contact(db: Session, viewer_id: int, member_id: int) -> bool:
    """Like, message or send a gift: a visible member, and no block in either direction."""
    return profile_access(db, viewer_id, member_id) == ProfileAccess.VISIBLE and not has_blocked(
        db, viewer_id, member_id
    )


def _seen_by(
    viewer_id: int | ColumnElement[int] | None,
    member_id: ColumnElement,
    privacy_mode: ColumnElement,
) -> ColumnElement[bool]:
    """No block either way; visitors see no member in privacy mode, members not themselves."""
    if viewer_id is None:
        return and_(not_blocked_with(viewer_id, member_id), privacy_mode == false())
    return and_(not_blocked_with(viewer_id, member_id), member_id != viewer_id)


def shown_to(viewer_id: int | None) -> ColumnElement[bool]:
    """SQL for member rows joined with their profiles: shown members the viewer may see."""
    return and_(
        Member.status == MemberStatus.ACTIVE,
        Profile.status == "enabled",
        _seen_by(viewer_id, Member.id, Member.privacy_mode),
    )


def listed_to(viewer_id: int | None) -> ColumnElement[bool]:
    """`shown_to`, minus members in invisible mode: for search results and member grids."""
    return and_(shown_to(viewer_id), Member.invisible.is_(False))


def listed_profiles_to(viewer_id: int | ColumnElement[int] | None) -> ColumnElement[bool]:
    """`listed_to` on profile columns alone, through the profile's copies of the member's facts
    (`Profile.listed`): what search's indexes serve. The viewer may be a bound parameter."""
    return and_(
        Profile.listed == true(), _seen_by(viewer_id, Profile.member_id, Profile.privacy_mode)
    )
