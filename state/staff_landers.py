"""/staff/landers: each lander and variant's visits, signups, confirmed signups and first
purchases over the last 7, 30 or 90 days (actions/lander_figures.py), for support and admins."""

import reflex as rx

from actions.lander_figures import PERIODS, lander_figures
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.staff_tools import SUPPORT
from state.staff_guard import staff_event

PERIOD_NAMES = tuple(str(period) for period in PERIODS)  # as the page's buttons send them


class StaffLandersState(rx.State):
    rows: list[dict] = []
    days: str = PERIOD_NAMES[1]
    loaded: bool = False

    async def _read(self) -> None:
        self.rows, self.loaded = await read(lander_figures, int(self.days)), True

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/landers: the period chosen in this tab."""
        await self._read()

    @staff_event(*SUPPORT)
    async def show(self, staff: StaffViewer, days: str):
        if days not in PERIOD_NAMES:
            return
        self.days = days
        await self._read()
