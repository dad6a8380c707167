"""/members: search with filters, results and similar members appended page by page.

The filters a member used last are stored and restored when they come back (spec section 3,
search state); visitors search only where the settings allow it.
"""

from dataclasses import asdict
from datetime import date

import reflex as rx

from models.member import Profile
from models.regions import region_kind, regions_of
from models.search import (
    SearchFilters,
    SearchPage,
    clean_filters,
    default_filters,
    save_filters,
    saved_filters,
    search_members,
    similar_members,
    visitors_may_search,
)
from models.signup import has_traffic_source
from services.database import db_session
from services.site_settings import current_settings
from state.members import PAGE_SIZE, tile_to_card
from state.session import SessionState, current_member_id
from state.shell import ShellState
from state.signup import SignupState


class SearchState(rx.State):
    gender: str = ""
    country: str = ""
    region: str = ""
    min_age: int = 18
    max_age: int = 99
    countries: list[str] = []
    regions: list[list[str]] = []
    region_kind: str = ""
    results: list[dict] = []
    num_results: int = 0
    results_capped: bool = False  # more than num_results match (models.search.COUNT_CAP)
    page_number: int = 0
    similar: list[dict] = []
    similar_num_results: int = 0
    similar_page_number: int = 0
    login_required: bool = False
    did_init: bool = False
    _searched_as: int | None = None
    _searched: SearchFilters = SearchFilters()  # what the results show; the form may differ

    @rx.var
    def has_more(self) -> bool:
        return len(self.results) < self.num_results

    @rx.var
    def has_more_similar(self) -> bool:
        return len(self.similar) < self.similar_num_results

    async def _viewer(self) -> int | None:
        return await current_member_id(self)

    def _filters(self) -> SearchFilters:
        return SearchFilters(self.gender, self.country, self.region, self.min_age, self.max_age)

    def _show_filters(self, filters: SearchFilters) -> None:
        self.gender, self.country, self.region = filters.gender, filters.country, filters.region
        self.min_age, self.max_age = filters.min_age, filters.max_age
        self.regions = [[code, name] for code, name in regions_of(filters.country)]
        self.region_kind = region_kind(filters.country) if filters.country else ""

    async def _may_search(self, viewer_id: int | None) -> bool:
        if viewer_id is not None:
            return True
        settings = current_settings()
        tracking = (await self.get_state(SignupState))._tracking()
        return visitors_may_search(
            settings.logged_out_search,
            settings.logged_out_search_trafficsource,
            has_traffic_source(tracking),
        )

    async def _default_filters(self, viewer_id: int | None) -> SearchFilters:
        settings = current_settings()
        if viewer_id is None:
            country = (await self.get_state(ShellState)).visitor_country
            return SearchFilters(
                country=country if country in settings.countries else "",
                min_age=settings.min_age,
            )
        with db_session() as db:
            profile = db.get(Profile, viewer_id)
        if profile is None:
            return SearchFilters(min_age=settings.min_age)
        return default_filters(profile, settings.min_age, date.today())

    async def _starting_filters(self, viewer_id: int | None) -> SearchFilters:
        if viewer_id is not None:
            with db_session() as db:
                saved = saved_filters(db, viewer_id)
            if saved is not None:
                return saved
        return await self._default_filters(viewer_id)

    @rx.event
    async def load_search(self) -> None:
        """On entering /members: restore this member's search, or start one."""
        viewer_id = await self._viewer()
        self.login_required = not await self._may_search(viewer_id)
        if self.login_required:
            self._clear_results()
            return
        if self.did_init and self._searched_as == viewer_id:
            return
        self.countries = list(current_settings().countries)
        self._searched = await self._starting_filters(viewer_id)
        self._show_filters(self._searched)
        self._searched_as, self.did_init = viewer_id, True
        self._clear_results()
        self._next_results(viewer_id)

    @rx.event
    async def search(self, form: dict) -> None:
        settings = current_settings()
        filters = clean_filters(
            {**asdict(self._filters()), **form}, settings.countries, settings.min_age
        )
        await self._search_with(filters)

    async def _search_with(self, filters: SearchFilters) -> None:
        viewer_id = await self._viewer()
        if not await self._may_search(viewer_id):
            self.login_required = True
            return
        self._show_filters(filters)
        if viewer_id is not None:
            with db_session() as db:
                save_filters(db, viewer_id, filters)
        self._searched_as, self._searched = viewer_id, filters
        self._clear_results()
        self._next_results(viewer_id)

    @rx.event
    def pick_gender(self, gender: str) -> None:
        self.gender = "" if gender == "any" else gender

    @rx.event
    def pick_country(self, country: str) -> None:
        country = "" if country == "any" else country
        if country != self.country:
            self._show_filters(SearchFilters(self.gender, country, "", self.min_age, self.max_age))

    @rx.event
    def pick_region(self, region: str) -> None:
        self.region = "" if region == "any" else region

    @rx.event
    async def reset_filters(self) -> None:
        """Back to the search this member starts with, ignoring the saved one."""
        await self._search_with(await self._default_filters(await self._viewer()))

    @rx.event
    async def load_more(self) -> None:
        viewer_id = await self._viewer()
        if self.has_more and self._searched_as == viewer_id:
            self._next_results(viewer_id)

    @rx.event
    async def load_more_similar(self) -> None:
        viewer_id = await self._viewer()
        if self.has_more_similar and self._searched_as == viewer_id:
            self._next_similar(viewer_id)

    def _clear_results(self) -> None:
        self.results, self.num_results, self.page_number = [], 0, 0
        self.results_capped = False
        self.similar, self.similar_num_results, self.similar_page_number = [], 0, 0

    def _next_results(self, viewer_id: int | None) -> None:
        with db_session() as db:
            page = search_members(
                db,
                viewer_id,
                self._searched,
                date.today(),
                PAGE_SIZE,
                self.page_number * PAGE_SIZE,
            )
        self.results, self.num_results = self._append(self.results, page)
        self.results_capped = page.capped
        self.page_number += 1
        if not self.has_more and not self.similar:
            self._next_similar(viewer_id)

    def _next_similar(self, viewer_id: int | None) -> None:
        with db_session() as db:
            page = similar_members(
                db,
                viewer_id,
                self._searched,
                current_settings().min_age,
                date.today(),
                PAGE_SIZE,
                self.similar_page_number * PAGE_SIZE,
            )
        self.similar, self.similar_num_results = self._append(self.similar, page)
        self.similar_page_number += 1

    @staticmethod
    def _append(shown: list[dict], page: SearchPage) -> tuple[list[dict], int]:
        """The cards plus the page's new members (a signup since the last page shifts members
        onto the next one), and the total; an empty page ends the list where it is."""
        settings = current_settings()
        known = {card["id"] for card in shown}
        cards = shown + [
            tile_to_card(tile, settings) for tile in page.tiles if tile.id not in known
        ]
        return cards, page.total if page.tiles else len(shown)
