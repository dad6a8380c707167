"""/staff: the console's start page, what waits for the viewer's roles."""

import reflex as rx

from actions.moderation_reads import open_counts
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.staff_tools import ANY_STAFF, MODERATION
from state.staff_guard import staff_event


class StaffHomeState(rx.State):
    open_reports: int = 0
    open_appeals: int = 0
    moderates: bool = False  # the viewer may open the queues

    @staff_event(*ANY_STAFF)
    async def load(self, staff: StaffViewer):
        self.moderates = bool(staff.roles.intersection(MODERATION))
        if self.moderates:
            counts = await read(open_counts)
            self.open_reports, self.open_appeals = counts["reports"], counts["appeals"]
