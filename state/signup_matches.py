"""/signup-matches: right after signing up, the new member's best matches from what the signup
steps collected (models/match_score.py), each with its percentage and a heart, then on to the
whole search."""

import reflex as rx

from actions.matchfinder import suggested_matches
from actions.runner import read
from services.site_settings import site_settings
from state.likes import HeartedCards
from state.members import tile_to_card
from state.session import current_viewer

SHOWN = 12


class SignupMatchesState(HeartedCards, rx.State):
    loaded: bool = False

    @rx.event
    async def load(self) -> None:
        viewer = await current_viewer(self)
        self.cards, self.loaded = [], False
        if viewer is not None:  # none: the route's guard sends the visitor to log in
            settings = await site_settings()
            matches = await read(suggested_matches, viewer, settings, SHOWN)
            self.cards = [
                {**tile_to_card(match.member, settings), "percent": match.percent,
                 "liked": False, "is_new": False}
                for match in matches
            ]  # fmt: skip
        self.loaded = True
