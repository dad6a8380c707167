"""A member's profile as the viewer may see it (/members/{id}, /likes/m/{id}, /profile):
gallery with locked photos, details, and the like, block, message and gift actions."""

import re

import reflex as rx

from actions import blocks
from actions.chat_from import start_refusal
from actions.discovery import ProfileView, may_contact, open_profile
from actions.likes import MatchKept, like, unlike
from actions.runner import act, read
from models.attribute_labels import INTEREST_LABELS
from models.routes import login_url, member_chat_url, url
from models.visibility import ProfileAccess
from state.forms import FormState
from state.session import SessionState, current_viewer
from translations.catalog import N_
from translations.errors import MATCH_KEPT, MEMBER_UNAVAILABLE

PROFILE_PATH = re.compile(r"^/(?:members|likes/m)/(\d{1,12})(?:/|$)")
LOGIN_TO_LIKE = N_("Log in or sign up free to like {name}.")
LOGIN_TO_CHAT = N_("Log in or sign up free to chat with {name}.")
LOGIN_TO_GIFT = N_("Log in or sign up free to send {name} a gift.")
LOGIN_TO_SEE_PHOTOS = N_("Log in or sign up free to see more photos of {name}.")
LOGIN_TO_SEE_PROFILE = N_("{name} shows this profile to members only.")
_PROMPTS = {"chat": LOGIN_TO_CHAT, "gift": LOGIN_TO_GIFT, "photos": LOGIN_TO_SEE_PHOTOS}


class ProfileViewState(FormState, rx.State):
    status: str = "loading"  # a ProfileAccess value while shown
    member_id: int = 0
    name: str = ""
    age: int = 0
    city: str = ""
    region: str = ""  # the region's code
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
    chat_refusal: str = ""  # why the viewer may not start a chat with this member (a text)

    @rx.var
    def current_photo(self) -> dict[str, str]:
        if not self.photos:
            return {"src": "", "thumb": "", "lock": ""}
        return self.photos[min(self.photo_index, len(self.photos) - 1)]

    @rx.var
    def interest_labels(self) -> list[str]:
        return [INTEREST_LABELS[i] for i in self.interests if i in INTEREST_LABELS]

    def _requested_id(self) -> int | None:
        if self.router.url.path.rstrip("/") == url("profile"):
            return None
        found = PROFILE_PATH.match(self.router.url.path)
        return int(found.group(1)) if found else -1

    @rx.event
    async def load_profile(self) -> None:
        viewer = await current_viewer(self)
        requested = self._requested_id()
        member_id = (viewer.member_id if viewer else None) if requested is None else requested
        self.reset()  # a tab that may no longer see the profile shown before keeps none of it
        if member_id is None or member_id < 0:
            self.status = ProfileAccess.NOT_FOUND.value
            return
        view = await act(open_profile, viewer, member_id)
        self._show(view)
        if view.new_likes is not None:  # opening a liker's profile cleared a new like
            (await self.get_state(SessionState)).new_likes = view.new_likes

    def _show(self, view: ProfileView) -> None:
        self.status, self.name = view.access.value, view.name
        if view.access == ProfileAccess.LOGIN_REQUIRED:
            self.login_prompt = LOGIN_TO_SEE_PROFILE
        self.member_id, self.premium, self.age = view.member_id, view.premium, view.age
        self.show_place, self.city = view.show_place, view.city
        self.region, self.country = view.region, view.country
        self.about_me, self.details, self.interests = view.about_me, view.details, view.interests
        self.photos, self.liked, self.blocked = view.photos, view.liked, view.blocked

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
        self.login_prompt = _PROMPTS.get(reason, LOGIN_TO_LIKE)

    @rx.event
    def go_to_login(self) -> rx.event.EventSpec:
        self.login_prompt = ""
        return rx.redirect(login_url(self.router.url))

    @rx.event
    async def toggle_like(self):
        viewer = await current_viewer(self)
        if viewer is None:
            self.ask_login("like")
            return None
        if self.liked:
            try:
                new_likes = await act(unlike, viewer, self.member_id)
            except MatchKept:
                return rx.toast.info(await self._text(MATCH_KEPT))
        else:
            outcome = await act(like, viewer, self.member_id)
            if not outcome.stored:
                return rx.toast.error(await self._text(MEMBER_UNAVAILABLE))
            new_likes = outcome.new_likes
        self.liked = not self.liked
        (await self.get_state(SessionState)).new_likes = new_likes
        return None

    @rx.event
    async def open_chat(self, gift: bool = False):
        viewer = await current_viewer(self)
        if viewer is None:
            self.ask_login("gift" if gift else "chat")
            return None
        if not await read(may_contact, viewer, self.member_id):
            return None
        if refused := await read(start_refusal, viewer, self.member_id):
            self.chat_refusal = await self._text(refused[0], name=refused[1])
            return None
        return rx.redirect(member_chat_url(self.member_id, bool(gift)))

    @rx.event
    def ask_block(self, ask: bool) -> None:
        self.confirm_block = bool(ask)

    @rx.event
    async def set_blocked(self, blocked: bool) -> None:
        viewer = await current_viewer(self)
        self.confirm_block = False
        if viewer is None or self.member_id <= 0:
            return
        if await act(blocks.set_blocked, viewer, self.member_id, bool(blocked)):
            self.blocked, self.liked = bool(blocked), self.liked and not blocked
