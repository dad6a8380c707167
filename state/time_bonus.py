"""The welcome time bonus on the page (spec sections 2, 4 and 9): the server starts it when a
member who has not paid enters the members area and holds its deadline; the browser redraws
the countdown from that deadline each second on its own (components/time_bonus.py). The modal
shows 40 s after entering the members area for a member with 0 credits while the bonus runs,
until it is dismissed (a timestamp in the browser's storage, like the entry warning)."""

import time
from datetime import UTC, datetime

import reflex as rx

from actions.runner import act
from actions.time_bonus import start_time_bonus
from models.routes import url
from state.likes import LikeModalState
from state.session import SessionState, current_viewer
from state.shell import next_generation, wait_script

MODAL_DELAY_MS = 40_000  # spec section 9
LIKE_MODAL_PAUSE_MS = 10_000  # asked again this much later while the new-like modal shows


def now_ms() -> int:
    return int(time.time() * 1000)


class TimeBonusState(rx.State):
    deadline_ms: int = 0  # epoch ms the bonus ends; 0: none
    modal_open: bool = False
    shown_at: str = ""  # the page the modal opened on: it stays there
    dismissed_at: str = rx.LocalStorage("", name="time_bonus_dismissed", sync=True)
    _entered_at_ms: int = 0  # when this tab first entered the members area
    _generation: int = 0  # each entry starts a new wait; older ones are void
    _asked_for: int = 0  # the member whose deadline this tab holds: asked once per tab

    @rx.event
    async def enter(self) -> rx.event.EventSpec | None:
        """A members-area page mounted for a member who has not paid: the server starts the
        bonus or tells its deadline; the modal comes 40 s after the first entry."""
        viewer = await current_viewer(self)
        if viewer is None or viewer.paid_user:
            self._forget()
            return None
        if self._asked_for != viewer.member_id:  # the deadline never moves once started
            self.deadline_ms = await act(start_time_bonus, viewer)
            self._asked_for = viewer.member_id
        if self.deadline_ms <= now_ms() or self.dismissed_at:
            return None
        self._entered_at_ms = self._entered_at_ms or now_ms()
        self._generation = next_generation(self._generation)
        return self._wait(max(0, MODAL_DELAY_MS - (now_ms() - self._entered_at_ms)))

    @rx.event
    async def show_modal(self, generation: int) -> rx.event.EventSpec | None:
        if generation != self._generation or not await self._modal_due():
            return None
        likes = await self.get_state(LikeModalState)
        if likes.open and likes.shown_at == self.router.url.path:  # one modal at a time
            return self._wait(LIKE_MODAL_PAUSE_MS)
        self.modal_open, self.shown_at = True, self.router.url.path
        return self._wait(self.deadline_ms - now_ms(), TimeBonusState.expire)

    @rx.event
    def expire(self, generation: int) -> None:
        """The countdown reached zero: the bonus is over, and the modal goes with it."""
        if generation == self._generation and self.deadline_ms <= now_ms():
            self.deadline_ms, self.modal_open = 0, False

    def _wait(
        self, milliseconds: int, then: rx.event.EventType | None = None
    ) -> rx.event.EventSpec:
        script = wait_script(max(0, milliseconds), str(self._generation))
        return rx.call_script(script, callback=then or TimeBonusState.show_modal)

    async def _modal_due(self) -> bool:
        if self.dismissed_at or self.deadline_ms <= now_ms():
            return False
        if await current_viewer(self) is None:
            return False
        session = await self.get_state(SessionState)
        return session.logged_in and not session.paid_user and session.credits == 0

    @rx.event
    def open_changed(self, is_open: bool) -> None:
        """The backdrop, Esc or the close button dismiss it; it never opens from the browser."""
        if not is_open:
            self._dismiss()

    @rx.event
    def to_credits(self) -> rx.event.EventSpec:
        """The modal's button: the modal closes first, then the purchase page."""
        self._dismiss()
        return rx.redirect(url("credits"))

    def _dismiss(self) -> None:
        self.modal_open = False
        self.dismissed_at = datetime.now(UTC).isoformat(timespec="seconds")

    def _forget(self) -> None:
        self.deadline_ms, self.modal_open, self._entered_at_ms, self._asked_for = 0, False, 0, 0

    def _show_deadline(self, deadline_ms: int) -> None:
        """The purchase page learnt the deadline from the offer (0: the bonus is over)."""
        self.deadline_ms = max(0, deadline_ms)
