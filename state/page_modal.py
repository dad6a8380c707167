"""A modal that tells news (a like, a match) on the page it opened on: it stays there, not on
the next page, and a tab that checked for news on the page it shows may open it live when news
arrives (state/live.py). The browser can close it, never open it."""

import reflex as rx

from actions.viewer import Viewer
from state.live import TabUpdate


class PageModal(rx.State, mixin=True):
    open: bool = False
    shown_at: str = ""  # the page it opened on
    _checked_at: str = ""  # the last page that checked for news: news may open it live there

    def _showing(self) -> bool:
        return self.open and self.shown_at == self.router.url.path

    def _show_here(self) -> None:
        self.open, self.shown_at = True, self.router.url.path

    @rx.event
    def open_changed(self, is_open: bool) -> None:
        """The backdrop, Esc or a closing button closes it; it never opens from the browser."""
        if not is_open:
            self.open = False


def announce_live(modal: type[PageModal]) -> TabUpdate:
    """The tab update that lets `modal` announce its news when its page checked for news."""

    async def update(root: rx.State, _viewer: Viewer) -> None:
        state = await root.get_state(modal)
        if state._checked_at == state.router.url.path and not state.open:
            await state._announce()

    return update
