"""/staff/audit (admins): the audit log, newest first, paged, filtered by actor and action."""

import reflex as rx

from actions.moderation_reads import AuditFilter, audit_page, bounded_page
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.staff_tools import ADMIN_ONLY
from state.forms import browser_id, form_text
from state.staff_guard import staff_event

ACTION_INPUT = 40  # AuditEntry.action


class StaffAuditState(rx.State):
    rows: list[dict] = []
    page: int = 1
    has_next: bool = False
    actor: str = ""  # a member id, as typed
    action: str = ""
    loaded: bool = False

    async def _read(self) -> None:
        filters = AuditFilter(browser_id(self.actor) if self.actor else None, self.action)
        found = await read(audit_page, filters, self.page)
        self.rows, self.page, self.has_next = found.rows, found.page, found.has_next
        self.loaded = True

    @staff_event(*ADMIN_ONLY)
    async def load(self, staff: StaffViewer):
        """On load of /staff/audit: the newest entries, with the filters kept in this tab."""
        self.page = 1
        await self._read()

    @staff_event(*ADMIN_ONLY)
    async def filter(self, staff: StaffViewer, form: dict):
        actor = form_text(form, "actor", 10).strip()
        self.actor = actor if browser_id(actor) else ""
        self.action, self.page = form_text(form, "action", ACTION_INPUT).strip(), 1
        await self._read()

    @staff_event(*ADMIN_ONLY)
    async def go(self, staff: StaffViewer, page: int):
        self.page = bounded_page(browser_id(page) or 1)
        await self._read()
