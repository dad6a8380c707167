"""The likes screens and the new-like modal: received and given likes, like and unlike, the
new-likes badge, and the like to announce (a new one, otherwise an automatic one)."""

from collections.abc import Mapping

import reflex as rx

from actions.effects import handles
from actions.likes import (
    GIVEN,
    MATCHES,
    RECEIVED,
    LikeArrived,
    MatchKept,
    like,
    like_to_announce,
    likes_page,
    new_likes,
    unlike,
)
from actions.runner import act, read
from models.routes import liked_member_url, login_url
from services.site_settings import site_settings
from state.forms import browser_id
from state.i18n import I18nState
from state.live import push_to_member
from state.match_modal import MatchModalState
from state.members import PAGE_SIZE, next_window, tile_to_card
from state.page_modal import PageModal, announce_live
from state.session import SessionState, current_viewer
from state.shell import wait_script
from translations.catalog import gettext
from translations.errors import MATCH_KEPT, MEMBER_UNAVAILABLE

LIKES_GRID_ID = "likes-grid"
MAX_DELAY_SECONDS = 600
RELOAD_AFTER_AUTO_LIKE_MS = 500  # spec section 9: the likes reload after an automatic like


def likes_kind(path: str) -> str | None:
    """Which list a path shows: /likes/given the given likes, /likes/matches the matches,
    /likes and /likes/<anything else> the received ones; None for other pages."""
    parts = path.strip("/").split("/")
    if parts[0] != "likes" or len(parts) > 2:
        return None
    return parts[1] if parts[1:] in ([GIVEN], [MATCHES]) else RECEIVED


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


async def _show_badge(state: rx.State, new_likes: int) -> None:
    (await state.get_state(SessionState)).new_likes = new_likes


class HeartedCards(rx.State, mixin=True):
    """Member cards with a heart: `like` and `unlike` take a card's member id."""

    cards: list[dict] = []

    @rx.event
    async def like(self, member_id: int) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(self.router.url))
        liked_id = browser_id(member_id)
        outcome = await act(like, viewer, liked_id) if liked_id is not None else None
        if outcome is None or not outcome.stored:
            self.cards = [card for card in self.cards if card["id"] != liked_id]
            return await self._toast(MEMBER_UNAVAILABLE)
        self._mark_liked(liked_id, True)
        await _show_badge(self, outcome.new_likes)
        return None

    @rx.event
    async def unlike(self, member_id: int) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(self.router.url))
        liked_id = browser_id(member_id)
        if liked_id is None:
            return None
        try:
            await _show_badge(self, await act(unlike, viewer, liked_id))
        except MatchKept:
            return rx.toast.info(await self._text(MATCH_KEPT))
        self._mark_liked(liked_id, False)
        return None

    def _mark_liked(self, member_id: int, liked: bool) -> None:
        self.cards = [
            {**card, "liked": liked} if card["id"] == member_id else card for card in self.cards
        ]

    async def _text(self, msgid: str) -> str:
        return gettext((await self.get_state(I18nState)).locale, msgid)

    async def _toast(self, msgid: str) -> rx.event.EventSpec:
        return rx.toast.error(await self._text(msgid))


class LikesState(HeartedCards, rx.State):
    kind: str = RECEIVED
    has_more: bool = False
    loaded: bool = False
    _skipped: int = 0  # rows of the list before the cards' window

    @rx.event
    async def load_page(self) -> None:
        """On load of /likes and /likes/[type]: the first page of the list the path names."""
        viewer = await current_viewer(self)
        await self._reload(viewer.member_id if viewer else None)  # none: the guard redirects

    @rx.event
    async def load_more(self) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None or not self.has_more:
            return None
        return await self._next_page(viewer.member_id)

    @rx.event
    async def refresh(self) -> None:
        """After an automatic like: the badge, and the list when this tab shows one."""
        viewer = await current_viewer(self)
        if viewer is None:
            return
        await _show_badge(self, await read(new_likes, viewer.member_id))
        if likes_kind(self.router.url.path) is not None:
            await self._reload(viewer.member_id)

    async def _reload(self, member_id: int | None) -> None:
        self.kind = likes_kind(self.router.url.path) or RECEIVED
        self.cards, self.has_more, self._skipped = [], False, 0
        if member_id is not None:
            await self._next_page(member_id)
        self.loaded = True

    async def _next_page(self, member_id: int) -> rx.event.EventSpec | None:
        """The next page into the window; a fresh window scrolls back to the grid's top."""
        settings = await site_settings()
        offset = self._skipped + self._rows_shown()
        rows = await read(likes_page, member_id, self.kind, PAGE_SIZE + 1, offset)
        page = [
            {**tile_to_card(row.member, settings), "is_new": row.is_new, "liked": row.liked}
            for row in rows[:PAGE_SIZE]
        ]
        rows_before = self._rows_shown()
        self.cards, restarted = next_window(self.cards, page)
        self._skipped += rows_before if restarted else 0
        self.has_more = len(rows) > PAGE_SIZE  # a page fetches one row more to tell
        return rx.scroll_to(LIKES_GRID_ID) if restarted else None

    def _rows_shown(self) -> int:
        """Rows of the list the window shows; a given like undone here has left the list."""
        if self.kind == GIVEN:
            return sum(1 for card in self.cards if card["liked"])
        return len(self.cards)


class LikeModalState(PageModal, rx.State):
    liker: dict = {}

    @rx.event
    async def check(self) -> rx.event.EventSpec | None:
        """On load of members-area pages: show the like to announce, after `t` seconds when
        the address asks for a delay (the address then loses `t`)."""
        self._checked_at = self.router.url.path
        seconds = delay_seconds(self.router.url.query_parameters)
        if seconds is not None:
            if await current_viewer(self) is None:
                return None
            return rx.call_script(delay_script(seconds), callback=LikeModalState.show_next)
        return await self._announce()

    @rx.event
    async def show_next(self) -> rx.event.EventSpec | None:
        return await self._announce()

    async def _announce(self) -> rx.event.EventSpec | None:
        """Open the modal on the like to announce; an automatic one reloads the likes soon.
        A match shown on the page goes first: the like waits for the next page."""
        if self._showing() or (await self.get_state(MatchModalState))._showing():
            return None
        viewer = await current_viewer(self)
        found = await act(like_to_announce, viewer) if viewer is not None else None
        if found is None:
            return None
        self.liker = tile_to_card(found.liker, await site_settings())
        self._show_here()
        if found.automatic:
            return rx.call_script(
                wait_script(RELOAD_AFTER_AUTO_LIKE_MS), callback=LikesState.refresh
            )
        return None

    @rx.event
    def open_profile(self) -> rx.event.EventSpec | None:
        self.open = False
        liker_id = self.liker.get("id")
        return rx.redirect(liked_member_url(liker_id)) if liker_id else None


# On load of the pages that tell news: a match first, then a like.
NEWS_CHECKS = [MatchModalState.check, LikeModalState.check]


@handles(LikeArrived)
async def _like_arrived(arrived: LikeArrived) -> None:
    """Someone liked the member: a tab of theirs on a page that shows the modal opens it now,
    as the badge changes now (one tab announces it; the others keep their page)."""
    await push_to_member(arrived.member_id, announce_live(LikeModalState))
