"""/staff/transparency: the DSA Art. 15 counters of a month, a quarter or a chosen span, and
the link to the same as CSV (app/staff_api.py, role-checked on the server)."""

from dataclasses import asdict
from datetime import date

import reflex as rx

from actions.moderation_reads import PERIODS, period, transparency_counters
from actions.runner import read
from actions.staff_viewer import StaffViewer
from models.staff_tools import MODERATION, TRANSPARENCY_CSV
from state.forms import form_text
from state.staff_guard import staff_event


def csv_url(first: date, last: date) -> str:
    return f"{TRANSPARENCY_CSV}?start={first.isoformat()}&end={last.isoformat()}"


class StaffTransparencyState(rx.State):
    kind: str = "month"
    start: str = ""  # ISO dates, both included
    end: str = ""
    counters: dict = {}
    csv: str = ""

    async def _read(self, first: date, last: date) -> None:
        found = await read(transparency_counters, first, last)
        self.start, self.end, self.csv = first.isoformat(), last.isoformat(), csv_url(first, last)
        self.counters = {
            **asdict(found),
            "start": self.start,
            "end": self.end,
            "median_hours": -1.0 if found.median_hours is None else found.median_hours,
        }

    @staff_event(*MODERATION)
    async def load(self, staff: StaffViewer):
        """On load: this month so far."""
        self.kind = "month"
        await self._read(*period("month", "", "", "", date.today()))

    @staff_event(*MODERATION)
    async def choose(self, staff: StaffViewer, form: dict):
        """The period form: kind (month, quarter, custom), month (YYYY-MM), start and end."""
        kind = form_text(form, "kind", 10)
        self.kind = kind if kind in PERIODS else "month"
        first, last = period(
            self.kind,
            form_text(form, "month", 7),
            form_text(form, "start", 10),
            form_text(form, "end", 10),
            date.today(),
        )
        await self._read(first, last)
