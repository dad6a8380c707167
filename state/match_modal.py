"""The "It's a match!" modal: when two members like each other, both see it at once on the
page they are on (a tab that has checked for news there), or on the next page that checks."""

import reflex as rx

from actions.effects import handles
from actions.likes import MatchMade, match_to_announce
from actions.runner import act
from actions.viewer import Viewer
from models.routes import member_chat_url
from services.site_settings import site_settings
from state.live import push_to_member
from state.members import PLACEHOLDER_THUMB, tile_to_card
from state.session import current_viewer


class MatchModalState(rx.State):
    open: bool = False
    shown_at: str = ""  # the page it opened on: it stays there, not on the next page
    other: dict = {}
    own_thumb: str = PLACEHOLDER_THUMB
    _checked_at: str = ""  # the last page that checked: a match may open it live there

    @rx.event
    async def check(self) -> None:
        """On load of members-area pages: show a match the member has not seen yet."""
        self._checked_at = self.router.url.path
        await self._announce()

    def _showing(self) -> bool:
        return self.open and self.shown_at == self.router.url.path

    async def _announce(self) -> bool:
        """Open the modal on the newest unseen match; True when it is open on this page."""
        if self._showing():
            return True
        viewer = await current_viewer(self)
        news = await act(match_to_announce, viewer) if viewer is not None else None
        if news is None:
            return False
        settings = await site_settings()
        self.other = tile_to_card(news.other, settings)
        self.own_thumb = (
            tile_to_card(news.own, settings)["thumb"] if news.own else PLACEHOLDER_THUMB
        )
        self.open, self.shown_at = True, self.router.url.path
        return True

    @rx.event
    def open_changed(self, is_open: bool) -> None:
        """The backdrop, Esc or "Keep browsing" closes it; it never opens from the browser."""
        if not is_open:
            self.open = False

    @rx.event
    def send_message(self) -> rx.event.EventSpec | None:
        self.open = False
        other_id = self.other.get("id")
        return rx.redirect(member_chat_url(other_id)) if other_id else None


@handles(MatchMade)
async def _match_made(made: MatchMade) -> None:
    """Both members hear of the match on the page they are on (one tab each announces it)."""
    for member_id in made.member_ids:
        await push_to_member(member_id, _announce_live)


async def _announce_live(root: rx.State, _viewer: Viewer) -> None:
    modal = await root.get_state(MatchModalState)
    if modal._checked_at == modal.router.url.path and not modal.open:
        await modal._announce()
