"""/staff/payments: the payments queue of support (docs/payments-queue.md). Three lists, one
page at a time: refunds the provider has not answered (flagged ones first), orders stuck open,
chargebacks; each row's button asks the provider now (actions/payment_checks.py)."""

import reflex as rx

from actions.payment_checks import fetch_provider_state
from actions.payment_queue import QueueKind, payments_page
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.member import utcnow
from models.staff_tools import SUPPORT
from state.forms import browser_id
from state.paged_list import PagedListState
from state.staff_guard import staff_event


class StaffPaymentsState(PagedListState, rx.State):
    kind: str = QueueKind.REFUNDS.value
    # The last "ask the provider": the order's number and its FetchOutcome value (the row may
    # have left the list by then).
    asked_number: str = ""
    outcome: str = ""

    async def _read(self) -> None:
        self._show(await read(payments_page, QueueKind(self.kind), self.page, utcnow()))

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/payments: the first page of the list chosen in this tab."""
        self.asked_number, self.outcome = "", ""
        await self._first()

    @staff_event(*SUPPORT)
    async def show(self, staff: StaffViewer, kind: str):
        if kind not in tuple(QueueKind):
            return
        self.kind, self.asked_number, self.outcome = kind, "", ""
        await self._first()

    @staff_event(*SUPPORT)
    async def go(self, staff: StaffViewer, page: int):
        await self._turn_to(page)

    @staff_event(*SUPPORT, background=True)
    async def ask_provider(self, staff: StaffViewer, order_id: int):
        """Ask the provider about one order of the page now (outside the tab's state lock),
        then show the page again."""
        order = browser_id(order_id)
        shown = next((row for row in self.rows if row["order_id"] == order), None)
        if shown is None:
            return
        outcome = await fetch_provider_state(staff, order)
        async with self:
            self.asked_number, self.outcome = shown["number"], outcome.value
            await self._read()
