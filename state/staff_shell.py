"""The console's frame: which tools the staff member's roles open, for the shell's navigation.
Every staff page lists `StaffShellState.load` in its on_load, after the access check."""

import reflex as rx

from actions.staff_viewer import StaffViewer
from models.staff_tools import ANY_STAFF, tools_for
from state.staff_guard import staff_event


class StaffShellState(rx.State):
    tools: list[str] = []  # route names, see models/staff_tools.TOOLS

    @staff_event(*ANY_STAFF)
    async def load(self, staff: StaffViewer):
        """On load of every staff page: the navigation of the viewer's roles."""
        self.tools = tools_for(staff.roles)
