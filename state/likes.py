"""The likes screens and the new-like modal: received and given likes, like and unlike, the
new-likes badge, and the like to announce (a new one, otherwise an automatic one)."""

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime

import reflex as rx
from sqlmodel import Session

from models.directory import MemberTile
from models.likes import (
    CannotLike,
    LikeTile,
    auto_like,
    given_likes,
    like_member,
    likes,
    new_like_count,
    received_likes,
    unannounced_like,
    unlike_member,
)
from models.member import utcnow
from models.site_settings import SiteSettings
from services.database import db_session
from services.site_settings import current_settings
from state.forms import browser_id
from state.i18n import I18nState
from state.live import badges_changed
from state.members import PAGE_SIZE, tile_to_card
from state.session import SessionState, current_member_id
from state.shell import login_url, wait_script
from translations.catalog import gettext
from translations.errors import MEMBER_UNAVAILABLE

RECEIVED, GIVEN = "received", "given"
PROFILE_PATH = "/likes/m/"
MAX_DELAY_SECONDS = 600
RELOAD_AFTER_AUTO_LIKE_MS = 500  # spec section 9: the likes reload after an automatic like


def likes_kind(path: str) -> str | None:
    """Which list a path shows: /likes/given the given likes, /likes and /likes/<anything
    else> the received ones; None for pages that are not a likes list."""
    parts = path.strip("/").split("/")
    if parts[0] != "likes" or len(parts) > 2:
        return None
    return GIVEN if parts[1:] == [GIVEN] else RECEIVED


def delay_seconds(query: Mapping[str, str]) -> int | None:
    """Query `t`: seconds (0..600) to wait before the like modal shows; None without it."""
    if "t" not in query:
        return None
    try:
        seconds = int(query["t"])
    except ValueError:
        return 0
    return min(max(seconds, 0), MAX_DELAY_SECONDS)


def delay_script(seconds: int) -> str:
    """Wait, then drop `t` from the address bar (other parameters stay) without navigating."""
    return (
        "new Promise(resolve => setTimeout(() => {"
        " const url = new URL(window.location.href); url.searchParams.delete('t');"
        " window.history.replaceState(window.history.state, '', url); resolve(true);"
        f" }}, {seconds * 1000}))"
    )


@dataclass(frozen=True)
class Announcement:
    liker: MemberTile
    automatic: bool


def like_to_announce(member_id: int, now: datetime | None = None) -> Announcement | None:
    """The newest like not yet announced, otherwise a fresh automatic like (at most one a day);
    both the modal and GET /api/auto-like.php show what this returns."""
    now = now or utcnow()
    with db_session() as db:
        tile = unannounced_like(db, member_id, now.date())
        if tile is not None:
            return Announcement(tile, automatic=False)
        tile = auto_like(db, member_id, now, random.Random())
    return Announcement(tile, automatic=True) if tile is not None else None


def _stored_like(viewer_id: int, liked_id: int | None) -> bool:
    """Like the member; False when the id is no number or the member may not be liked."""
    if liked_id is None:
        return False
    try:
        with db_session() as db:
            created = like_member(db, viewer_id, liked_id)
    except CannotLike:
        return False
    if created:
        badges_changed(liked_id)
    return True


def _like_card(db: Session, viewer_id: int, row: LikeTile, settings: SiteSettings) -> dict:
    return {
        **tile_to_card(row.member, settings),
        "is_new": row.is_new,
        "liked": likes(db, viewer_id, row.member.id),
    }


def _list_page(db: Session, member_id: int, kind: str, offset: int) -> list[LikeTile]:
    """One page of a list plus one row, which tells whether there is more."""
    fetch = given_likes if kind == GIVEN else received_likes
    return fetch(db, member_id, date.today(), limit=PAGE_SIZE + 1, offset=offset)


async def _viewer(state: rx.State) -> int | None:
    return await current_member_id(state)


async def _update_badge(state: rx.State, member_id: int) -> None:
    session = await state.get_state(SessionState)
    with db_session() as db:
        session.new_likes = new_like_count(db, member_id)


class LikesState(rx.State):
    kind: str = RECEIVED
    cards: list[dict] = []
    has_more: bool = False
    loaded: bool = False

    @rx.event
    async def load_page(self) -> None:
        """On load of /likes and /likes/[type]: the first page of the list the path names."""
        member_id = await _viewer(self)
        self._reload(member_id)  # without a member: empty, the route guard redirects

    @rx.event
    async def load_more(self) -> None:
        member_id = await _viewer(self)
        if member_id is not None and self.has_more:
            self._append_page(member_id)

    @rx.event
    async def like(self, member_id: int) -> rx.event.EventSpec | None:
        viewer_id = await _viewer(self)
        if viewer_id is None:
            return rx.redirect(login_url(self.router.url))
        liked_id = browser_id(member_id)
        if not _stored_like(viewer_id, liked_id):
            self.cards = [card for card in self.cards if card["id"] != liked_id]
            return await self._toast(MEMBER_UNAVAILABLE)
        self._mark_liked(liked_id, True)
        await _update_badge(self, viewer_id)
        return None

    @rx.event
    async def unlike(self, member_id: int) -> rx.event.EventSpec | None:
        viewer_id = await _viewer(self)
        if viewer_id is None:
            return rx.redirect(login_url(self.router.url))
        liked_id = browser_id(member_id)
        if liked_id is not None:
            with db_session() as db:
                unlike_member(db, viewer_id, liked_id)
            badges_changed(liked_id)
            self._mark_liked(liked_id, False)
            await _update_badge(self, viewer_id)
        return None

    @rx.event
    async def refresh(self) -> None:
        """After an automatic like: the badge, and the list when this tab shows one."""
        member_id = await _viewer(self)
        if member_id is None:
            return
        await _update_badge(self, member_id)
        if likes_kind(self.router.url.path) is not None:
            self._reload(member_id)

    def _reload(self, member_id: int | None) -> None:
        self.kind = likes_kind(self.router.url.path) or RECEIVED
        self.cards, self.has_more = [], False
        if member_id is not None:
            self._append_page(member_id)
        self.loaded = True

    def _append_page(self, member_id: int) -> None:
        settings = current_settings()
        shown = {card["id"] for card in self.cards}
        with db_session() as db:
            rows = _list_page(db, member_id, self.kind, self._offset())
            new_cards = [
                _like_card(db, member_id, row, settings)
                for row in rows[:PAGE_SIZE]
                if row.member.id not in shown
            ]
        self.cards = self.cards + new_cards
        self.has_more = len(rows) > PAGE_SIZE

    def _offset(self) -> int:
        """Rows of the list already shown; a given like undone here has left the list."""
        if self.kind == GIVEN:
            return sum(1 for card in self.cards if card["liked"])
        return len(self.cards)

    def _mark_liked(self, member_id: int, liked: bool) -> None:
        self.cards = [
            {**card, "liked": liked} if card["id"] == member_id else card for card in self.cards
        ]

    async def _toast(self, msgid: str) -> rx.event.EventSpec:
        locale = (await self.get_state(I18nState)).locale
        return rx.toast.error(gettext(locale, msgid))


class LikeModalState(rx.State):
    open: bool = False
    shown_at: str = ""  # the page it opened on: it stays there, not on the next page
    liker: dict = {}

    @rx.event
    async def check(self) -> rx.event.EventSpec | None:
        """On load of members-area pages: show the like to announce, after `t` seconds when
        the address asks for a delay (the address then loses `t`)."""
        member_id = await _viewer(self)
        if member_id is None:
            return None
        seconds = delay_seconds(self.router.url.query_parameters)
        if seconds is None:
            return self._announce(member_id)
        return rx.call_script(delay_script(seconds), callback=LikeModalState.show_next)

    @rx.event
    async def show_next(self) -> rx.event.EventSpec | None:
        member_id = await _viewer(self)
        return self._announce(member_id) if member_id is not None else None

    def _announce(self, member_id: int) -> rx.event.EventSpec | None:
        """Open the modal on the like to announce; an automatic one reloads the likes soon."""
        if self.open and self.shown_at == self.router.url.path:
            return None
        found = like_to_announce(member_id)
        if found is None:
            return None
        self.liker = tile_to_card(found.liker, current_settings())
        self.open, self.shown_at = True, self.router.url.path
        if found.automatic:
            return rx.call_script(
                wait_script(RELOAD_AFTER_AUTO_LIKE_MS), callback=LikesState.refresh
            )
        return None

    @rx.event
    def open_changed(self, is_open: bool) -> None:
        """The backdrop or Esc closes the modal; it never opens from the browser's side."""
        if not is_open:
            self.open = False

    @rx.event
    def open_profile(self) -> rx.event.EventSpec | None:
        self.open = False
        liker_id = self.liker.get("id")
        return rx.redirect(f"{PROFILE_PATH}{liker_id}") if liker_id else None
