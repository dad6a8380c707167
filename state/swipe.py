"""/swipe-game: a stack of members to like (right) or pass (left), the likes left today and,
past the limit, when new ones come; the last pass can be taken back. The tab holds a few cards
so the next one is on screen (its photo loaded) before the server has answered a swipe."""

import math

import reflex as rx

from actions.runner import act, read
from actions.swipe import (
    STACK_SIZE,
    SwipeAllowance,
    next_cards,
    remember_time_zone,
    swipe,
    undo_pass,
)
from actions.viewer import Viewer
from models.member import utcnow
from models.routes import login_url
from services.site_settings import site_settings
from state.forms import browser_id
from state.members import tile_to_card
from state.session import current_viewer

UNLIMITED = -1  # likes_left of premium members
TIME_ZONE_SCRIPT = "Intl.DateTimeFormat().resolvedOptions().timeZone"


class SwipeState(rx.State):
    cards: list[dict] = []  # the stack, top first, at most STACK_SIZE
    loaded: bool = False
    likes_left: int = UNLIMITED
    reset_minutes: int = 0  # until new likes, rounded up
    # Set with the two above, not computed vars: Reflex works out every computed var for a new
    # tab and then stores its state, which would put this state in every visitor's.
    limit_reached: bool = False
    reset_hours: int = 0  # hours until new likes, rounded up; 0 under an hour (minutes shown)
    can_undo: bool = False
    decisions: int = 0  # counts answered swipes: the browser's swipe animation resets on it

    @rx.event
    def load(self) -> rx.event.EventSpec:
        """On load: the browser names its time zone, the member's day for the daily likes."""
        self.loaded, self.cards = False, []
        return rx.call_script(TIME_ZONE_SCRIPT, callback=SwipeState.start)

    @rx.event
    async def start(self, zone: str) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(self.router.url))
        self._show_allowance(await act(remember_time_zone, viewer, zone))
        self.cards, self.can_undo = [], False
        await self._top_up(viewer)
        self.loaded = True
        return None

    @rx.event
    async def like(self, member_id: int) -> rx.event.EventSpec | None:
        return await self._decide(member_id, liked=True)

    @rx.event
    async def skip(self, member_id: int) -> rx.event.EventSpec | None:
        return await self._decide(member_id, liked=False)

    @rx.event
    async def undo(self) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(self.router.url))
        tile = await act(undo_pass, viewer)
        self.can_undo = False
        if tile is not None:
            card = tile_to_card(tile, await site_settings())
            rest = [held for held in self.cards if held["id"] != card["id"]]
            self.cards = [card, *rest][:STACK_SIZE]
        self.decisions += 1
        return None

    async def _decide(self, member_id: int, liked: bool) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(self.router.url))
        chosen = browser_id(member_id)
        if chosen is None or chosen not in {card["id"] for card in self.cards}:
            return None  # only a card this tab shows
        result = await act(swipe, viewer, chosen, liked)
        self._show_allowance(result.allowance)
        if not result.limit_reached:
            self.cards = [card for card in self.cards if card["id"] != chosen]
            self.can_undo = not liked
            await self._top_up(viewer)
        self.decisions += 1
        return None

    async def _top_up(self, viewer: Viewer) -> None:
        held = [card["id"] for card in self.cards]
        missing = STACK_SIZE - len(held)
        if missing > 0:
            settings = await site_settings()
            tiles = await read(next_cards, viewer, held, missing)
            self.cards = [*self.cards, *(tile_to_card(tile, settings) for tile in tiles)]

    def _show_allowance(self, allowance: SwipeAllowance) -> None:
        left = allowance.likes_left
        self.likes_left = UNLIMITED if left is None else left
        seconds = (allowance.resets_at - utcnow()).total_seconds()
        self.reset_minutes = max(math.ceil(seconds / 60), 1)
        self.limit_reached = self.likes_left == 0
        self.reset_hours = math.ceil(self.reset_minutes / 60) if self.reset_minutes >= 60 else 0
