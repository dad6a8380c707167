"""/staff/appeals: open appeals, the oldest first; /staff/appeals/{id}: the decision, its
statement and the appellant's text, and the answer (actions/moderation.decide_appeal). The
staff member who took the decision sees it read-only: another must decide."""

import reflex as rx

from actions.moderation import decide_appeal
from actions.moderation_assign import assign_to_self
from actions.moderation_reads import appeal_case, appeal_queue
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.decision_form import appeal_answer
from models.decisions import ModerationRefused
from models.moderation import AppealStatus
from models.routes import url
from models.staff_tools import MODERATION
from state.forms import FormState
from state.paged_list import PagedListState
from state.staff_guard import staff_event
from state.staff_reports import id_from_path


class StaffAppealsState(PagedListState, rx.State):
    async def _read(self) -> None:
        found = await read(appeal_queue, self.page)
        self._show(found, found.page)

    @staff_event(*MODERATION)
    async def load(self, staff: StaffViewer):
        """On load of /staff/appeals."""
        await self._first()

    @staff_event(*MODERATION)
    async def go(self, staff: StaffViewer, page: int):
        await self._turn_to(page)


class StaffAppealState(FormState, rx.State):
    appeal: dict = {}
    decision: dict = {}
    report: dict = {}
    missing: bool = False
    own_decision: bool = False  # the viewer decided it: read-only
    me: int = 0

    async def _read(self, appeal_id: int | None, staff: StaffViewer) -> None:
        case = await read(appeal_case, appeal_id) if appeal_id else None
        self.missing = case is None
        self.appeal = case.appeal if case else {}
        self.decision = case.decision if case else {}
        self.report = case.report if case else {}
        self.own_decision = bool(case) and self.decision["decided_by"] == staff.member_id

    @staff_event(*MODERATION)
    async def load(self, staff: StaffViewer):
        """On load of /staff/appeals/{id}."""
        self.errors, self.busy, self.me = {}, False, staff.member_id
        await self._read(id_from_path(self.router.url.path), staff)

    @staff_event(*MODERATION)
    async def assign(self, staff: StaffViewer):
        if self.appeal and not self.own_decision:
            await act(assign_to_self, staff, "appeal", int(self.appeal["id"]))

    @staff_event(*MODERATION)
    async def answer(self, staff: StaffViewer, form: dict):
        """Uphold or reverse, with the answer mailed to the appellant."""
        if not self.appeal or self.busy or self.appeal["status"] != AppealStatus.OPEN:
            return None
        try:
            reverse, text = appeal_answer(form)
        except AccountError as error:
            await self._show_error(error)
            return None
        self.busy, self.errors = True, {}
        try:
            await act(decide_appeal, staff, int(self.appeal["id"]), reverse, text)
        except ModerationRefused as refused:
            self.busy = False
            self.errors = {"": await self._text(refused.message)}
            return None
        self.busy = False
        return rx.redirect(url("staff-appeals"))
