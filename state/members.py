"""Member grids: the newest members, appended page by page."""

from datetime import date

import reflex as rx

from models.directory import MemberTile, newest_members
from models.site_settings import SiteSettings
from services.database import db_session
from services.site_settings import current_settings
from state.session import SessionState

PAGE_SIZE = 24
PLACEHOLDER_THUMB = "/icon-512.png"


def tile_to_card(tile: MemberTile, settings: SiteSettings) -> dict:
    return {
        "id": tile.id,
        "name": tile.name,
        "age": tile.age,
        "city": tile.city,
        "country": tile.country,
        "thumb": settings.photo_url(tile.thumb_filename)
        if tile.thumb_filename
        else PLACEHOLDER_THUMB,
        "premium": tile.premium,
    }


class MembersState(rx.State):
    members: list[dict] = []
    page_number: int = 0
    has_more: bool = False
    login_required: bool = False

    @rx.event
    async def load_first_page(self) -> None:
        self.members, self.page_number = [], 0
        await self._load_next()

    @rx.event
    async def load_more(self) -> None:
        if self.has_more:
            await self._load_next()

    async def _load_next(self) -> None:
        session = await self.get_state(SessionState)
        settings = current_settings()
        self.login_required = not session.logged_in and not settings.logged_out_search
        if self.login_required:
            self.members, self.has_more = [], False
            return
        with db_session() as db:
            tiles = newest_members(
                db,
                date.today(),
                limit=PAGE_SIZE + 1,
                offset=self.page_number * PAGE_SIZE,
                exclude_id=session._member_id,
            )
        self.has_more = len(tiles) > PAGE_SIZE
        self.members += [tile_to_card(tile, settings) for tile in tiles[:PAGE_SIZE]]
        self.page_number += 1
