"""/staff/postbacks: the log of the conversions reported to the traffic networks, for support
and admins: all or those of one status, one page at a time (actions/postback_reads.py)."""

import reflex as rx

from actions.postback_reads import STATUSES, postbacks_page
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.staff_tools import SUPPORT
from state.paged_list import PagedListState
from state.staff_guard import staff_event


class StaffPostbacksState(PagedListState, rx.State):
    chosen: str = ""  # the status shown, "" every status

    async def _read(self) -> None:
        self._show(await read(postbacks_page, self.chosen, self.page))

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/postbacks: the first page of the filter chosen in this tab."""
        await self._first()

    @staff_event(*SUPPORT)
    async def show(self, staff: StaffViewer, status: str):
        if status != "" and status not in STATUSES:
            return
        self.chosen = status
        await self._first()

    @staff_event(*SUPPORT)
    async def go(self, staff: StaffViewer, page: int):
        await self._turn_to(page)
