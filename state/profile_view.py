"""A member's profile as the viewer may see it (/members/{id}, /likes/m/{id}, /profile):
gallery with locked photos, details, and the like, block, message and gift actions."""

import re
from datetime import date

import reflex as rx
from sqlmodel import Session

from components.attribute_labels import DETAIL_LABELS, INTEREST_LABELS, value_label
from models.blocks import block_member, has_blocked, unblock_member
from models.directory import age_on
from models.likes import CannotLike, like_member, likes, mark_seen, new_like_count, unlike_member
from models.member import Member, Profile
from models.photo_access import GalleryPhoto, PhotoView, Viewer, gallery_for, viewer_of
from models.regions import regions_of
from models.site_settings import SiteSettings
from models.visibility import ProfileAccess, can_contact, profile_access
from services.database import db_session
from services.photo_pipeline import blurred_name
from services.site_settings import current_settings
from state.forms import FormState
from state.live import badges_changed
from state.session import SessionState, current_member_id
from state.shell import login_url
from translations.catalog import N_
from translations.errors import MEMBER_UNAVAILABLE

PROFILE_PATH = re.compile(r"^/(?:members|likes/m)/(\d{1,12})(?:/|$)")
LOOKS_FIELDS = ("gender", "sexuality", "hair_colour", "eye_colour", "body_type",
                "relationship_status", "tattoos")  # fmt: skip
LOGIN_TO_LIKE = N_("Log in or sign up free to like {name}.")
LOGIN_TO_CHAT = N_("Log in or sign up free to chat with {name}.")
LOGIN_TO_GIFT = N_("Log in or sign up free to send {name} a gift.")
LOGIN_TO_SEE_PHOTOS = N_("Log in or sign up free to see more photos of {name}.")
LOGIN_TO_SEE_PROFILE = N_("{name} shows this profile to members only.")


def _details(profile: Profile, visible: list[str]) -> list[list[str]]:
    """[label msgid, value msgid] pairs of the fields the settings show, where filled in."""
    rows = []
    for field in LOOKS_FIELDS:
        label = value_label(field, getattr(profile, field) or "")
        if field in visible and label:
            rows.append([DETAIL_LABELS[field], label])
    return rows


def _region_name(profile: Profile) -> str:
    return dict(regions_of(profile.country)).get(profile.region or "", "")


def _lock_reason(db: Session, viewer: Viewer, owner: Member) -> str:
    """Why further photos are locked: not logged in, not liked by a privacy-mode owner, or a
    free viewer (which Premium solves)."""
    if viewer.member_id is None:
        return "login"
    if owner.privacy_mode and not likes(db, owner.id, viewer.member_id):
        return "privacy"
    return "premium"


def _photo(item: GalleryPhoto, settings: SiteSettings, lock: str) -> dict[str, str]:
    if item.view == PhotoView.FULL:
        src, thumb = item.photo.filename, item.photo.thumb_filename
        lock = ""
    else:
        src = thumb = blurred_name(item.photo.filename)
    return {"src": settings.photo_url(src), "thumb": settings.photo_url(thumb), "lock": lock}


class ProfileViewState(FormState, rx.State):
    status: str = "loading"  # a ProfileAccess value while shown
    member_id: int = 0
    name: str = ""
    age: int = 0
    city: str = ""
    region: str = ""
    country: str = ""
    premium: bool = False
    about_me: str = ""
    details: list[list[str]] = []
    interests: list[str] = []
    show_place: bool = True
    photos: list[dict[str, str]] = []
    photo_index: int = 0
    liked: bool = False
    blocked: bool = False
    confirm_block: bool = False
    login_prompt: str = ""  # the msgid explaining why a visitor should log in

    @rx.var
    def current_photo(self) -> dict[str, str]:
        if not self.photos:
            return {"src": "", "thumb": "", "lock": ""}
        return self.photos[min(self.photo_index, len(self.photos) - 1)]

    @rx.var
    def interest_labels(self) -> list[str]:
        return [INTEREST_LABELS[i] for i in self.interests if i in INTEREST_LABELS]

    async def _viewer_id(self) -> int | None:
        return await current_member_id(self)

    def _requested_id(self) -> int | None:
        if self.router.url.path.rstrip("/") == "/profile":
            return None
        found = PROFILE_PATH.match(self.router.url.path)
        return int(found.group(1)) if found else -1

    @rx.event
    async def load_profile(self) -> None:
        viewer_id = await self._viewer_id()
        requested = self._requested_id()
        member_id = viewer_id if requested is None else requested
        self._reset_view()
        if member_id is None or member_id < 0:
            self.status = ProfileAccess.NOT_FOUND.value
            return
        with db_session() as db:
            access = profile_access(db, viewer_id, member_id)
            self.status = access.value
            if access in (ProfileAccess.VISIBLE, ProfileAccess.OWN):
                self._show(db, viewer_of(db, viewer_id), member_id)
            if access == ProfileAccess.LOGIN_REQUIRED:
                self.name = db.get(Profile, member_id).name
                self.login_prompt = LOGIN_TO_SEE_PROFILE
            if access == ProfileAccess.VISIBLE and viewer_id is not None:
                await self._seen_like(db, viewer_id, member_id)

    def _reset_view(self) -> None:
        """Forget the profile shown before: a tab that may no longer see it keeps none of it."""
        self.reset()

    def _show(self, db: Session, viewer: Viewer, member_id: int) -> None:
        settings = current_settings()
        member, profile = db.get(Member, member_id), db.get(Profile, member_id)
        self.member_id, self.name, self.premium = member_id, profile.name, member.paid_user
        self.age = age_on(profile.date_of_birth, date.today())
        self.show_place = "living_area" in settings.visible_profile_fields
        self.city, self.country = profile.city or "", profile.country
        self.region = _region_name(profile)
        self.about_me = profile.about_me if settings.visible_profile_notes else ""
        self.details = _details(profile, settings.visible_profile_fields)
        self.interests = (
            list(profile.interests) if "interests" in settings.visible_profile_fields else []
        )
        lock = _lock_reason(db, viewer, member)
        self.photos = [_photo(item, settings, lock) for item in gallery_for(db, viewer, member_id)]
        self.liked = likes(db, viewer.member_id, member_id)
        self.blocked = has_blocked(db, viewer.member_id, member_id)

    async def _seen_like(self, db: Session, viewer_id: int, member_id: int) -> None:
        """Opening a liker's profile clears its new-like flag (and the badge follows)."""
        mark_seen(db, viewer_id, member_id)
        session = await self.get_state(SessionState)
        session.new_likes = new_like_count(db, viewer_id)

    @rx.event
    def show_photo(self, index: int) -> None:
        if isinstance(index, int) and 0 <= index < len(self.photos):
            self.photo_index = index

    @rx.event
    def step_photo(self, step: int) -> None:
        if self.photos and step in (-1, 1):
            self.photo_index = (self.photo_index + step) % len(self.photos)

    @rx.event
    def close_login_prompt(self) -> None:
        self.login_prompt = ""

    @rx.event
    def ask_login(self, reason: str) -> None:
        prompts = {"chat": LOGIN_TO_CHAT, "gift": LOGIN_TO_GIFT, "photos": LOGIN_TO_SEE_PHOTOS}
        self.login_prompt = prompts.get(reason, LOGIN_TO_LIKE)

    @rx.event
    def go_to_login(self) -> rx.event.EventSpec:
        self.login_prompt = ""
        return rx.redirect(login_url(self.router.url))

    @rx.event
    async def toggle_like(self):
        viewer_id = await self._viewer_id()
        if viewer_id is None:
            self.ask_login("like")
            return
        with db_session() as db:
            if self.liked:
                unlike_member(db, viewer_id, self.member_id)
                self.liked = False
                badges_changed(self.member_id)
                return
            try:
                like_member(db, viewer_id, self.member_id)
            except CannotLike:
                return rx.toast.error(await self.text(MEMBER_UNAVAILABLE))
            self.liked = True
        badges_changed(self.member_id)

    @rx.event
    async def open_chat(self, gift: bool = False):
        viewer_id = await self._viewer_id()
        if viewer_id is None:
            self.ask_login("gift" if gift else "chat")
            return
        with db_session() as db:
            allowed = can_contact(db, viewer_id, self.member_id)
        if not allowed:
            return
        return rx.redirect(f"/members/{self.member_id}/chat" + ("?gift=1" if gift else ""))

    @rx.event
    def ask_block(self, ask: bool) -> None:
        self.confirm_block = bool(ask)

    @rx.event
    async def set_blocked(self, blocked: bool) -> None:
        viewer_id = await self._viewer_id()
        self.confirm_block = False
        if viewer_id is None or viewer_id == self.member_id:
            return
        with db_session() as db:
            if db.get(Member, self.member_id) is None:
                return
            if blocked:
                block_member(db, viewer_id, self.member_id)
                unlike_member(db, viewer_id, self.member_id)
            else:
                unblock_member(db, viewer_id, self.member_id)
        self.blocked, self.liked = bool(blocked), self.liked and not blocked
