"""The newest members shown on the landing and activation pages, the card format of every
member grid, and the window a grid keeps."""

import reflex as rx

from actions.discovery import newest
from actions.runner import read
from models.directory import MemberTile
from models.site_settings import SiteSettings
from services.site_settings import site_settings
from state.session import current_member_id

PAGE_SIZE = 24
WINDOW_PAGES = 4  # a grid keeps at most this many pages of cards; "more" then starts afresh
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


def next_window(shown: list[dict], page: list[dict]) -> tuple[list[dict], bool]:
    """The grid once a page arrived, and whether it starts a fresh window: the page is appended
    while the grid has room for it, otherwise it replaces the grid, so a tab never holds more
    than WINDOW_PAGES pages. A member already shown is left out (a signup since the last page
    shifts members onto the next one)."""
    known = {card["id"] for card in shown}
    fresh = [card for card in page if card["id"] not in known]
    if len(shown) + len(fresh) > WINDOW_PAGES * PAGE_SIZE:
        return fresh, True
    return shown + fresh, False


class MembersState(rx.State):
    members: list[dict] = []
    login_required: bool = False
    newest_loaded: bool = False  # until then the home page holds the newest members' places

    @rx.event
    async def load_newest(self) -> None:
        viewer_id = await current_member_id(self)
        settings = await site_settings()
        self.login_required = viewer_id is None and not settings.logged_out_search
        tiles = [] if self.login_required else await read(newest, viewer_id, NEWEST_SHOWN)
        self.members = [tile_to_card(tile, settings) for tile in tiles]
        self.newest_loaded = True
