"""/staff/audit (admins): the audit log, newest first, paged, filtered by actor and action."""

import reflex as rx

from actions.moderation_reads import AuditFilter, audit_page
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.staff_tools import ADMIN_ONLY
from state.forms import browser_id, form_text
from state.paged_list import PagedListState
from state.staff_guard import staff_event

ACTION_INPUT = 40  # AuditEntry.action


class StaffAuditState(PagedListState, rx.State):
    actor: str = ""  # a member id, as typed
    action: str = ""

    async def _read(self) -> None:
        filters = AuditFilter(browser_id(self.actor) if self.actor else None, self.action)
        found = await read(audit_page, filters, self.page)
        self._show(found, found.page)

    @staff_event(*ADMIN_ONLY)
    async def load(self, staff: StaffViewer):
        """On load of /staff/audit: the newest entries, with the filters kept in this tab."""
        await self._first()

    @staff_event(*ADMIN_ONLY)
    async def filter(self, staff: StaffViewer, form: dict):
        actor = form_text(form, "actor", 10).strip()
        self.actor = actor if browser_id(actor) else ""
        self.action, self.page = form_text(form, "action", ACTION_INPUT).strip(), 1
        await self._read()

    @staff_event(*ADMIN_ONLY)
    async def go(self, staff: StaffViewer, page: int):
        await self._turn_to(page)
