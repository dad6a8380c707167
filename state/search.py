"""/members: search with filters, then results and similar members in pages.

The filters a member used last are stored and restored when they come back (spec section 3,
search state); visitors search only where the settings allow it. Each grid keeps a bounded
window of cards (state.members.next_window).
"""

from dataclasses import asdict

import reflex as rx

from actions.discovery import (
    Results,
    profile_filters,
    results,
    save_search,
    similar,
    starting_filters,
)
from actions.runner import act, read
from actions.traffic import click_is_live
from models.attributes import GENDERS
from models.member import utcnow
from models.search import SearchFilters, SearchPage, clean_filters, visitors_may_search
from models.site_settings import SiteSettings
from services.click_cookie import verified_click
from services.site_settings import site_settings
from state.members import PAGE_SIZE, next_window, tile_to_card
from state.place_picker import PlacePicker
from state.session import current_member_id, current_viewer
from state.shell import ShellState

RESULTS_ID, SIMILAR_ID = "search-results", "similar-results"
# Each grid's fields: cards, how many match, whether there are more, pages fetched, cards
# dropped from the window so far, and the element the page scrolls to when a window restarts.
_GRIDS = {
    "results": ("results", "num_results", "has_more", "_pages", "_dropped", RESULTS_ID),
    "similar": ("similar", "similar_num_results", "has_more_similar", "_similar_pages",
                "_similar_dropped", SIMILAR_ID),
}  # fmt: skip


async def default_filters(
    viewer_id: int | None, saved: bool, visitor_country: str, settings: SiteSettings
) -> SearchFilters:
    """A member's saved search (`saved`) or what their profile looks for; a visitor's country
    where the site has members."""
    if viewer_id is None:
        country = visitor_country if visitor_country in settings.countries else ""
        return SearchFilters(country=country, min_age=settings.min_age)
    found = await read(starting_filters if saved else profile_filters, viewer_id,
                       settings.min_age)  # fmt: skip
    return found or SearchFilters(min_age=settings.min_age)


async def first_results(
    viewer_id: int | None, filters: SearchFilters, settings: SiteSettings
) -> Results:
    """The search's first page, and the first similar page when it is also the last."""
    return await read(results, viewer_id, filters, settings.min_age, 0, True, PAGE_SIZE)


async def visitor_may_search(settings: SiteSettings, cookie_header: str | None) -> bool:
    """Whether the settings let a visitor search, by the live recorded click their cookie
    names."""
    arrived_by_click = await read(click_is_live, verified_click(cookie_header, utcnow()))
    return visitors_may_search(
        settings.logged_out_search, settings.logged_out_search_trafficsource, arrived_by_click
    )


class SearchState(PlacePicker, rx.State):
    gender: str = ""
    min_age: int = 18
    max_age: int = 99
    results: list[dict] = []
    num_results: int = 0
    results_capped: bool = False  # more than num_results match (models.search.COUNT_CAP)
    has_more: bool = False
    similar: list[dict] = []
    similar_num_results: int = 0
    has_more_similar: bool = False
    login_required: bool = False
    did_init: bool = False
    _pages: int = 0
    _dropped: int = 0
    _similar_pages: int = 0
    _similar_dropped: int = 0
    _searched_as: int | None = None
    _searched: SearchFilters = SearchFilters()  # what the results show; the form may differ

    def _any_place(self) -> bool:
        return True

    def _filters(self) -> SearchFilters:
        return SearchFilters(self.gender, self.country, self.region, self.min_age, self.max_age)

    def _show_filters(self, filters: SearchFilters) -> None:
        self.gender, self.min_age, self.max_age = filters.gender, filters.min_age, filters.max_age
        self._show_place(filters.country, filters.region)

    async def _may_search(self, viewer_id: int | None, settings: SiteSettings) -> bool:
        if viewer_id is not None:
            return True
        return await visitor_may_search(settings, self.router.headers.cookie)

    async def _default_filters(self, viewer_id: int | None, saved: bool) -> SearchFilters:
        country = (await self.get_state(ShellState)).visitor_country
        return await default_filters(viewer_id, saved, country, await site_settings())

    @rx.event
    async def load_search(self) -> None:
        """On entering /members: restore this member's search, or start one."""
        viewer_id = await current_member_id(self)
        settings = await site_settings()
        self.login_required = not await self._may_search(viewer_id, settings)
        if self.login_required:
            self._clear_results()
            return
        if self.did_init and self._searched_as == viewer_id:
            return
        self._offer_countries(settings)
        self._searched = await self._default_filters(viewer_id, saved=True)
        self._show_filters(self._searched)
        self._searched_as, self.did_init = viewer_id, True
        await self._first_results(viewer_id, settings)

    @rx.event
    async def search(self, form: dict) -> None:
        settings = await site_settings()
        sent = form if isinstance(form, dict) else {}
        filters = clean_filters(
            {**asdict(self._filters()), **sent}, settings.countries, settings.min_age
        )
        await self._search_with(filters)

    async def _search_with(self, filters: SearchFilters) -> None:
        viewer = await current_viewer(self)
        viewer_id = viewer.member_id if viewer else None
        settings = await site_settings()
        if not await self._may_search(viewer_id, settings):
            self.login_required = True
            return
        self._show_filters(filters)
        if viewer is not None:
            await act(save_search, viewer, filters)
        self._searched_as, self._searched = viewer_id, filters
        await self._first_results(viewer_id, settings)

    @rx.event
    def pick_gender(self, gender: str) -> None:
        self.gender = gender if gender in GENDERS else ""

    @rx.event
    async def reset_filters(self) -> None:
        """Back to the search this member starts with, ignoring the saved one."""
        viewer_id = await current_member_id(self)
        await self._search_with(await self._default_filters(viewer_id, saved=False))

    @rx.event
    async def load_more(self) -> rx.event.EventSpec | None:
        viewer_id = await current_member_id(self)
        if not self.has_more or self._searched_as != viewer_id:
            return None
        settings = await site_settings()
        found = await read(
            results, viewer_id, self._searched, settings.min_age,
            self._pages * PAGE_SIZE, not self.similar, PAGE_SIZE,
        )  # fmt: skip
        return self._take_results(found, settings)

    @rx.event
    async def load_more_similar(self) -> rx.event.EventSpec | None:
        viewer_id = await current_member_id(self)
        if not self.has_more_similar or self._searched_as != viewer_id:
            return None
        settings = await site_settings()
        page = await read(
            similar, viewer_id, self._searched, settings.min_age,
            PAGE_SIZE, self._similar_pages * PAGE_SIZE,
        )  # fmt: skip
        return self._take("similar", page, settings)

    async def _first_results(self, viewer_id: int | None, settings: SiteSettings) -> None:
        self._clear_results()
        self._take_results(await first_results(viewer_id, self._searched, settings), settings)

    def _take_results(self, found: Results, settings: SiteSettings) -> rx.event.EventSpec | None:
        scroll = self._take("results", found.page, settings)
        self.results_capped = found.page.capped
        if found.similar is not None:
            self._take("similar", found.similar, settings)
        return scroll

    def _take(
        self, grid: str, page: SearchPage, settings: SiteSettings
    ) -> rx.event.EventSpec | None:
        """Show the page in the grid; a fresh window scrolls back to the grid's top."""
        cards_name, total_name, more_name, pages_name, dropped_name, element = _GRIDS[grid]
        shown: list[dict] = getattr(self, cards_name)
        cards, restarted = next_window(shown, [tile_to_card(t, settings) for t in page.tiles])
        dropped = getattr(self, dropped_name) + (len(shown) if restarted else 0)
        # an empty page ends the list where it is (members left since the count)
        total = page.total if page.tiles else dropped + len(cards)
        setattr(self, cards_name, cards)
        setattr(self, total_name, total)
        setattr(self, more_name, dropped + len(cards) < total)
        setattr(self, pages_name, getattr(self, pages_name) + 1)
        setattr(self, dropped_name, dropped)
        return rx.scroll_to(element) if restarted else None

    def _clear_results(self) -> None:
        self.results_capped = False
        for cards_name, total_name, more_name, pages_name, dropped_name, _ in _GRIDS.values():
            setattr(self, cards_name, [])
            for name in (total_name, pages_name, dropped_name):
                setattr(self, name, 0)
            setattr(self, more_name, False)
