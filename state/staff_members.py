"""/staff/members/{id}: a member's history, read-only: the profile, the reports on their
content, the decisions and strikes, and how their own reports went. Support may read it too."""

from datetime import date

import reflex as rx

from actions.audit import audit_read
from actions.moderation_reads import member_file
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from models.staff_tools import ANY_STAFF
from state.staff_guard import staff_event
from state.staff_reports import id_from_path

VIEWED_HISTORY = "member.view_history"  # the audit log's action


class StaffMemberState(rx.State):
    profile: dict = {}
    reports: list[dict] = []
    decisions: list[dict] = []
    strikes: int = 0
    reporter: dict = {}
    missing: bool = False

    @staff_event(*ANY_STAFF)
    async def load(self, staff: StaffViewer):
        """On load of /staff/members/{id}, with an audit row saying who looked, one a load."""
        member_id = id_from_path(self.router.url.path)
        found = await read(member_file, member_id, date.today()) if member_id else None
        if found is not None:
            await act(audit_read, staff, VIEWED_HISTORY, target=("member", member_id))
        self.missing = found is None
        self.profile = found.profile if found else {}
        self.reports = found.history.reports if found else []
        self.decisions = found.history.decisions if found else []
        self.strikes = found.history.strikes if found else 0
        self.reporter = found.reporter if found else {}
