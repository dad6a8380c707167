"""The newest members shown on the landing and activation pages, and the card format of
every member grid."""

from datetime import date

import reflex as rx

from models.directory import MemberTile, newest_members
from models.site_settings import SiteSettings
from services.database import db_session
from services.site_settings import current_settings
from state.session import SessionState

PAGE_SIZE = 24
NEWEST_SHOWN = 12
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
    login_required: bool = False

    @rx.event
    async def load_newest(self) -> None:
        session = await self.get_state(SessionState)
        settings = current_settings()
        self.login_required = not session.logged_in and not settings.logged_out_search
        if self.login_required:
            self.members = []
            return
        with db_session() as db:
            tiles = newest_members(db, date.today(), NEWEST_SHOWN, viewer_id=session._member_id)
        self.members = [tile_to_card(tile, settings) for tile in tiles]
