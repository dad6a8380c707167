"""A list page of the staff console (the report queue, the appeals, the audit log, the payments
queue, tickets, discount codes): one bounded page of rows (actions/paging.py), its number,
whether a next one exists and whether the first read arrived. It lives outside
state/staff_*.py: a mixin is never a tab's state and has no event handler of its own; the
handlers are the console states', each behind `@staff_event`."""

import reflex as rx

from actions.paging import Page, bounded_page
from state.forms import browser_id


class PagedListState(rx.State, mixin=True):
    """A list page's vars. A state with numbered pages defines `_read`, which reads page
    `self.page`; the report queue's pages follow a cursor and number themselves."""

    rows: list[dict] = []
    page: int = 1
    has_next: bool = False
    loaded: bool = False

    def _show(self, found: Page, page: int | None = None) -> None:
        """Show `found`, numbered `page` (by default the page it was read as)."""
        self.rows, self.has_next, self.loaded = found.rows, found.has_next, True
        self.page = found.page if page is None else page

    async def _turn_to(self, page: object) -> None:
        """Page `page` as the pager sent it: a number within the bounds, the first otherwise."""
        self.page = bounded_page(browser_id(page) or 1)
        await self._read()

    async def _first(self) -> None:
        self.page = 1
        await self._read()
