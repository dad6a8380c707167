"""Discovery: member grids, the search (and its one write, the filters a member searched with),
and a profile as the viewer may see it. Everything returned is plain data."""

from dataclasses import dataclass, field, replace
from datetime import date

from sqlalchemy import ColumnElement, exists, literal
from sqlmodel import Session, select

from actions.runner import Done
from actions.viewer import SIGNED_IN, VIEWER_COLUMNS, Viewer, viewer_of
from models.attribute_labels import DETAIL_LABELS, label_key, value_label
from models.blocks import Block
from models.directory import MemberTile, age_on, newest_members
from models.likes import Like, mark_seen, new_like_count
from models.member import Member, Profile
from models.photo_access import GalleryPhoto, PhotoView, gallery_views
from models.photo_access import Viewer as PhotoViewer
from models.photos import gallery_order
from models.search import (
    SearchFilters,
    SearchPage,
    default_filters,
    save_filters,
    saved_filters,
    search_members,
    similar_members,
    sought_genders,
)
from models.site_settings import SiteSettings
from models.visibility import ProfileAccess, access_of, can_contact
from services.database import db_session, transaction
from services.photo_pipeline import blurred_name
from services.site_settings import current_settings

LOOKS_FIELDS = ("gender", "sexuality", "hair_colour", "eye_colour", "body_type",
                "relationship_status", "tattoos")  # fmt: skip


def newest(viewer_id: int | None, limit: int) -> list[MemberTile]:
    """The newest members; a member with a profile sees only the gender(s) they look for."""
    with db_session() as db:
        profile = db.get(Profile, viewer_id) if viewer_id is not None else None
        genders = sought_genders(profile.gender, profile.sexuality) if profile else ()
        return newest_members(db, date.today(), limit, viewer_id=viewer_id, genders=genders)


def _profile_filters(db: Session, viewer_id: int, min_age: int) -> SearchFilters | None:
    profile = db.get(Profile, viewer_id)
    return default_filters(profile, min_age, date.today()) if profile else None


def profile_filters(viewer_id: int, min_age: int) -> SearchFilters | None:
    """What the member's profile looks for; None without a profile."""
    with db_session() as db:
        return _profile_filters(db, viewer_id, min_age)


def starting_filters(viewer_id: int, min_age: int) -> SearchFilters | None:
    """The member's saved search, else what their profile looks for."""
    with db_session() as db:
        return saved_filters(db, viewer_id) or _profile_filters(db, viewer_id, min_age)


def save_search(viewer: Viewer, filters: SearchFilters) -> Done[None]:
    with transaction() as db:
        save_filters(db, viewer.member_id, filters)
    return Done(None)


@dataclass(frozen=True)
class Results:
    page: SearchPage
    similar: SearchPage | None  # the first similar page, when the results end on this one


def results(
    viewer_id: int | None,
    filters: SearchFilters,
    min_age: int,
    offset: int,
    with_similar: bool,
    limit: int,
) -> Results:
    """A page of the search, and (`with_similar`) the first similar page when it is the last."""
    with db_session() as db:
        page = search_members(db, viewer_id, filters, date.today(), limit, offset)
        last = not page.tiles or offset + len(page.tiles) >= page.total
        first_similar = (
            similar_members(db, viewer_id, filters, min_age, date.today(), limit, 0)
            if last and with_similar
            else None
        )
    return Results(page, first_similar)


def similar(
    viewer_id: int | None, filters: SearchFilters, min_age: int, limit: int, offset: int
) -> SearchPage:
    with db_session() as db:
        return similar_members(db, viewer_id, filters, min_age, date.today(), limit, offset)


def may_contact(viewer: Viewer, member_id: int) -> bool:
    """Like, message or send a gift: a visible member and no block either way."""
    with db_session() as db:
        return can_contact(db, viewer.member_id, member_id)


@dataclass(frozen=True)
class ProfileView:
    access: ProfileAccess
    name: str = ""  # also for LOGIN_REQUIRED: whose profile asks for a log-in
    member_id: int = 0
    premium: bool = False
    age: int = 0
    show_place: bool = True
    city: str = ""
    region: str = ""  # its code: the viewer's state names it in the viewer's language
    country: str = ""
    about_me: str = ""
    details: list[list[str]] = field(default_factory=list)  # [label msgid, value label key]
    interests: list[str] = field(default_factory=list)
    photos: list[dict[str, str]] = field(default_factory=list)  # id, src, thumb, lock
    liked: bool = False
    blocked: bool = False
    new_likes: int | None = None  # the viewer's badge, when opening cleared a new like


@dataclass(frozen=True)
class _Ties:
    """Blocks and likes between the viewer and the member, read with the member's row."""

    blocks_viewer: bool
    blocked: bool
    liked: bool  # the viewer likes the member
    likes_viewer: bool
    new_like: bool  # the member's like of the viewer is still new


def _block(blocker_id: int, blocked_id: int) -> ColumnElement[bool]:
    return exists().where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)


def _like(liker_id: int, liked_id: int, *more: ColumnElement[bool]) -> ColumnElement[bool]:
    return exists().where(Like.liker_id == liker_id, Like.liked_id == liked_id, *more)


def _between(viewer_id: int | None, member_id: int) -> tuple[ColumnElement, ...]:
    """The columns of `_Ties`, in its order."""
    if viewer_id is None:
        return (literal(False),) * 5
    return (
        _block(member_id, viewer_id),
        _block(viewer_id, member_id),
        _like(viewer_id, member_id),
        _like(member_id, viewer_id),
        _like(member_id, viewer_id, Like.is_new.is_(True)),
    )


def _member_and_ties(
    db: Session, viewer_id: int | None, member_id: int
) -> tuple[Member | None, Profile | None, _Ties]:
    """The member, their profile and the ties to the viewer, in one statement."""
    row = db.exec(
        select(Member, Profile, *_between(viewer_id, member_id))
        .join(Profile, Profile.member_id == Member.id)
        .where(Member.id == member_id)
    ).first()
    if row is None:
        return None, None, _Ties(False, False, False, False, False)
    return row[0], row[1], _Ties(*map(bool, row[2:]))


def shown_details(profile: Profile, visible: list[str]) -> list[list[str]]:
    """[label msgid, value label key] pairs of the fields the settings show, where filled in."""
    rows = []
    for name in LOOKS_FIELDS:
        label = value_label(name, getattr(profile, name) or "", profile.gender)
        if name in visible and label:
            rows.append([DETAIL_LABELS[name], label_key(label)])
    return rows


def _lock_reason(viewer_id: int | None, owner: Member, ties: _Ties) -> str:
    """Why further photos are locked: not logged in, not liked by a privacy-mode owner, or a
    free viewer (which Premium solves)."""
    if viewer_id is None:
        return "login"
    if owner.privacy_mode and not ties.likes_viewer:
        return "privacy"
    return "premium"


def _photo(item: GalleryPhoto, settings: SiteSettings, lock: str) -> dict[str, str]:
    if item.view == PhotoView.FULL:
        src, thumb = item.photo.filename, item.photo.thumb_filename
        lock = ""
    else:
        src = thumb = blurred_name(item.photo.filename)
    return {
        "id": str(item.photo.id),  # what the report dialog names
        "src": settings.photo_url(src),
        "thumb": settings.photo_url(thumb),
        "lock": lock,
    }


def _shown(
    db: Session,
    viewer: Viewer | None,
    access: ProfileAccess,
    member: Member,
    profile: Profile,
    ties: _Ties,
) -> ProfileView:
    settings = current_settings()
    visible = settings.visible_profile_fields
    viewer_id = viewer.member_id if viewer else None
    photo_viewer = PhotoViewer(viewer_id, viewer.paid_user if viewer else False)
    gallery = gallery_views(
        gallery_order(db, member.id), access, photo_viewer, ties.likes_viewer, member.privacy_mode
    )
    lock = _lock_reason(viewer_id, member, ties)
    return ProfileView(
        access,
        name=profile.name,
        member_id=member.id,
        premium=member.paid_user,
        age=age_on(profile.date_of_birth, date.today()),
        show_place="living_area" in visible,
        city=profile.city or "",
        region=profile.region or "",
        country=profile.country,
        about_me=profile.about_me if settings.visible_profile_notes else "",
        details=shown_details(profile, visible),
        interests=list(profile.interests) if "interests" in visible else [],
        photos=[_photo(item, settings, lock) for item in gallery],
        liked=ties.liked,
        blocked=ties.blocked,
    )


def _profile_view(db: Session, viewer: Viewer | None, member_id: int) -> tuple[ProfileView, _Ties]:
    viewer_id = viewer.member_id if viewer else None
    member, profile, ties = _member_and_ties(db, viewer_id, member_id)
    if viewer_id == member_id:
        access = ProfileAccess.OWN
    else:
        access = access_of(viewer_id, member, profile, ties.blocks_viewer)
    if access == ProfileAccess.LOGIN_REQUIRED:
        return ProfileView(access, name=profile.name), ties
    if access == ProfileAccess.NOT_FOUND or member is None:
        return ProfileView(ProfileAccess.NOT_FOUND), ties
    return _shown(db, viewer, access, member, profile, ties), ties


def open_profile(viewer: Viewer | None, member_id: int) -> Done[ProfileView]:
    """The profile as the viewer may see it; opening a liker's profile clears the like's new
    flag, and the viewer's badge follows."""
    viewer_id = viewer.member_id if viewer else None
    with transaction() as db:
        view, ties = _profile_view(db, viewer, member_id)
        if (
            view.access == ProfileAccess.VISIBLE
            and ties.new_like
            and mark_seen(db, viewer_id, member_id)
        ):
            view = replace(view, new_likes=new_like_count(db, viewer_id))
    return Done(view)


def peek_profile(viewer_id: int | None, member_id: int) -> ProfileView:
    """The profile as `open_profile` shows it to this viewer, read only (nothing marked seen):
    what the server writes into the page's first paint (components/member_landings/)."""
    with db_session() as db:
        viewer = None
        if viewer_id is not None:
            row = db.exec(select(*VIEWER_COLUMNS).where(Member.id == viewer_id)).first()
            viewer = viewer_of(row, SIGNED_IN)
        return _profile_view(db, viewer, member_id)[0]
