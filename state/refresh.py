"""The periodic refresh of spec section 4, the safety net under live delivery: while a member is
logged in, their balance, badges, chats and likes again from the database, 5 s after the page
mounts and then every 60 s (300 s when this member gets push messages). Each refresh also
renews the tab's entry in the live registry. A refresh that fails (the database restarting) is
logged and the next one comes as usual; the member sees nothing of it."""

import logging

import reflex as rx

from actions.refresh import gets_pushes
from actions.runner import read
from services.outages import log_failure
from state.chats import ChatsState
from state.likes import LikesState
from state.live import register_tab
from state.session import SessionState, current_viewer
from state.shell import MAX_GENERATION, next_generation, wait_script

FIRST_REFRESH_MS = 5_000
REFRESH_MS = 60_000
PUSH_REFRESH_MS = 300_000

log = logging.getLogger(__name__)


def _tick_after(milliseconds: int, generation: int) -> rx.event.EventSpec:
    """The browser waits, then sends the tick; a tab that slept or lost its connection sends
    it when it is back."""
    script = wait_script(milliseconds, str(generation))
    return rx.call_script(script, callback=RefreshState.tick)


class RefreshState(rx.State):
    _generation: int = 0  # each page mount starts a new chain of ticks; older ones stop

    @rx.event
    async def start(self) -> rx.event.EventSpec | None:
        if not (await self.get_state(SessionState)).logged_in:
            return None
        self._generation = next_generation(self._generation)
        return _tick_after(FIRST_REFRESH_MS, self._generation)

    @rx.event
    async def tick(self, generation: int) -> list[rx.event.EventSpec] | None:
        if not self._own_chain(generation):
            return None
        try:
            member_id = await self._reload()
            if member_id is None:
                return None
            pushed = await read(gets_pushes, member_id)
        except Exception:
            log_failure(log, "periodic refresh failed; the next tick tries again")
            return [_tick_after(REFRESH_MS, generation)]
        interval = PUSH_REFRESH_MS if pushed else REFRESH_MS
        return [LikesState.refresh(), _tick_after(interval, generation)]

    def _own_chain(self, generation: object) -> bool:
        """Whether the tick belongs to the page's current chain. A tab whose state was lost
        (Redis restarted) keeps its chain: the first tick to arrive adopts it."""
        if not isinstance(generation, int) or not 0 < generation <= MAX_GENERATION:
            return False
        if self._generation == 0:
            self._generation = generation
        return generation == self._generation

    @rx.event
    async def push_arrived(self) -> list[rx.event.EventSpec] | None:
        """A Web Push message reached this browser (shell.js): chats and likes reload."""
        try:
            member_id = await self._reload()
        except Exception:
            log_failure(log, "refresh after a push message failed")
            return None
        return None if member_id is None else [LikesState.refresh()]

    async def _reload(self) -> int | None:
        """The member, and the chats when the tab shows them, again from the database; the tab
        registered anew. None when logged out."""
        session = await self.get_state(SessionState)
        await session._load()
        viewer = await current_viewer(self)  # answered by the load just now
        if not session.logged_in or viewer is None:
            return None
        chats = await self.get_state(ChatsState)
        await register_tab(self, viewer.member_id, chats._showing())
        await chats._refresh(viewer)
        return viewer.member_id
