"""/staff/reports: the queue of open reports and notices, paged and filtered; /staff/reports/{id}:
one case's evidence and the decision form (actions/moderation.decide)."""

from datetime import date

import reflex as rx

from actions.audit import audit_read
from actions.moderation import decide
from actions.moderation_assign import assign_to_self
from actions.moderation_reads import QueueCursor, QueueFilter, report_case, report_queue
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.decision_form import decision_form
from models.decisions import ModerationRefused
from models.moderation import ReportCategory, ReportSource
from models.routes import url
from models.staff_tools import MODERATION
from state.forms import FormState, browser_id
from state.paged_list import PagedListState
from state.staff_guard import staff_event

VIEWED_CASE = "report.view_evidence"  # the audit log's action


def choice(value: object, vocabulary: type[ReportCategory] | type[ReportSource]) -> str:
    """A filter value the browser sent: one of the vocabulary's, or "" (all)."""
    text = str(value or "")
    return text if text in {item.value for item in vocabulary} else ""


def id_from_path(path: str) -> int | None:
    """The id a /staff/<tool>/{id} address ends in."""
    return browser_id(path.rstrip("/").rsplit("/", 1)[-1])


class StaffQueueState(PagedListState, rx.State):
    category: str = ""
    source: str = ""
    _starts: list[QueueCursor] = []  # where each page before this one ended (keyset pages)
    _next: QueueCursor | None = None

    async def _read(self) -> None:
        after = self._starts[-1] if self._starts else None
        found = await read(report_queue, QueueFilter(self.category, self.source), after)
        self._next = found.next_after
        self._show(found, len(self._starts) + 1)

    async def _first_page(self) -> None:
        self._starts = []
        await self._read()

    @staff_event(*MODERATION)
    async def load(self, staff: StaffViewer):
        """On load of /staff/reports: the first page, with the filters kept in this tab."""
        await self._first_page()

    @staff_event(*MODERATION)
    async def set_category(self, staff: StaffViewer, value: str):
        self.category = choice(value, ReportCategory)
        await self._first_page()

    @staff_event(*MODERATION)
    async def set_source(self, staff: StaffViewer, value: str):
        self.source = choice(value, ReportSource)
        await self._first_page()

    @staff_event(*MODERATION)
    async def go(self, staff: StaffViewer, page: int):
        """The next or the previous page (the pager's buttons); the first for anything else."""
        wanted = browser_id(page) or 1
        if wanted == self.page + 1:
            if self._next is not None:
                self._starts = [*self._starts, self._next]
        elif wanted == self.page - 1 and self._starts:
            self._starts = self._starts[:-1]
        elif wanted != self.page:
            self._starts = []
        await self._read()

    @staff_event(*MODERATION)
    async def assign(self, staff: StaffViewer, report_id: int):
        """Assign-to-self (audited)."""
        if (case_id := browser_id(report_id)) is not None:
            await act(assign_to_self, staff, "report", case_id)
        await self._read()


class StaffReportState(FormState, rx.State):
    report: dict = {}
    profile: dict = {}
    photos: list[dict] = []
    snapshot: list[dict] = []
    reports: list[dict] = []  # earlier reports on the member's content
    decisions: list[dict] = []
    strikes: int = 0
    reporter: dict = {}
    missing: bool = False
    me: int = 0  # the viewer's member id: "assigned to you"

    async def _read(self, report_id: int | None) -> None:
        case = await read(report_case, report_id, date.today()) if report_id else None
        self.missing = case is None
        if case is None:
            self.report, self.profile, self.photos, self.snapshot = {}, {}, [], []
            self.reports, self.decisions, self.strikes, self.reporter = [], [], 0, {}
            return
        self.report, self.profile, self.photos = case.report, case.profile, case.photos
        self.snapshot, self.reporter = case.snapshot, case.reporter
        self.reports, self.decisions = case.history.reports, case.history.decisions
        self.strikes = case.history.strikes

    @staff_event(*MODERATION)
    async def load(self, staff: StaffViewer):
        """On load of /staff/reports/{id}: the case, and an audit row saying who looked at its
        evidence (messages, photos), one a load."""
        self.errors, self.busy, self.me = {}, False, staff.member_id
        await self._read(id_from_path(self.router.url.path))
        if self.report:
            case = ("report", int(self.report["id"]))
            await act(audit_read, staff, VIEWED_CASE, target=case)

    @staff_event(*MODERATION)
    async def assign(self, staff: StaffViewer):
        if self.report:
            await act(assign_to_self, staff, "report", int(self.report["id"]))
            await self._read(int(self.report["id"]))

    @staff_event(*MODERATION)
    async def decide(self, staff: StaffViewer, form: dict):
        """The decision form: checked, then one decision (H3's action) with its effects."""
        if not self.report or self.busy:
            return None
        try:
            checked = decision_form(form)
        except AccountError as error:
            await self._show_error(error)
            return None
        self.busy, self.errors = True, {}
        report = self.report
        try:
            await act(
                decide,
                staff,
                int(report["id"]),
                int(report["reported_id"]),  # 0: a notice naming no member's content
                report["content_type"],
                int(report["content_id"]) or None,
                checked.measure,
                checked.ground_type,
                checked.ground,
                checked.facts,
                checked.days,
            )
        except ModerationRefused as refused:
            self.busy = False
            self.errors = {"": await self._text(refused.message)}
            return None
        self.busy = False
        return rx.redirect(url("staff-reports"))
