"""The "It's a match!" modal: when two members like each other, both see it at once on the
page they are on (a tab that has checked for news there), or on the next page that checks."""

import reflex as rx

from actions.effects import handles
from actions.likes import MatchMade, match_to_announce
from actions.runner import act
from models.routes import member_chat_url
from services.site_settings import site_settings
from state.live import push_to_member
from state.members import PLACEHOLDER_THUMB, tile_to_card
from state.page_modal import PageModal, announce_live
from state.session import current_viewer


class MatchModalState(PageModal, rx.State):
    other: dict = {}
    own_thumb: str = PLACEHOLDER_THUMB

    @rx.event
    async def check(self) -> None:
        """On load of members-area pages: show a match the member has not seen yet."""
        self._checked_at = self.router.url.path
        await self._announce()

    async def _announce(self) -> None:
        """Open the modal on the newest unseen match."""
        if self._showing():
            return
        viewer = await current_viewer(self)
        news = await act(match_to_announce, viewer) if viewer is not None else None
        if news is None:
            return
        settings = await site_settings()
        self.other = tile_to_card(news.other, settings)
        self.own_thumb = (
            tile_to_card(news.own, settings)["thumb"] if news.own else PLACEHOLDER_THUMB
        )
        self._show_here()

    @rx.event
    def send_message(self) -> rx.event.EventSpec | None:
        self.open = False
        other_id = self.other.get("id")
        return rx.redirect(member_chat_url(other_id)) if other_id else None


@handles(MatchMade)
async def _match_made(made: MatchMade) -> None:
    """Both members hear of the match on the page they are on (one tab each announces it)."""
    for member_id in made.member_ids:
        await push_to_member(member_id, announce_live(MatchModalState))
