"""/staff/photos: the photo review queue (actions/photo_review.py), paged; approve a photo, or
reject it with a ground and the facts, which is a moderation decision whose statement of
reasons goes to the member."""

import reflex as rx

from actions.photo_review import approve, queue_page, reject
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.decision_form import decision_form
from models.decisions import ModerationRefused
from models.moderation import Measure
from models.staff_tools import MODERATION
from state.forms import FormState, browser_id
from state.staff_guard import staff_event


class StaffPhotosState(FormState, rx.State):
    rows: list[dict] = []  # actions/photo_review._row
    page: int = 1
    has_next: bool = False
    moderation: str = "post"
    rejecting: int = 0  # the photo whose reject form is open; 0: none
    loaded: bool = False

    async def _read(self) -> None:
        found = await read(queue_page, self.page)
        self.rows, self.page, self.has_next = found.rows, found.page, found.has_next
        self.moderation, self.loaded = found.moderation, True
        if all(row["id"] != self.rejecting for row in self.rows):
            self.rejecting = 0

    @staff_event(*MODERATION)
    async def load(self, staff: StaffViewer):
        """On load of /staff/photos: the first page."""
        self.page, self.rejecting, self.errors, self.busy = 1, 0, {}, False
        await self._read()

    @staff_event(*MODERATION)
    async def go(self, staff: StaffViewer, page: int):
        self.page = browser_id(page) or 1
        await self._read()

    @staff_event(*MODERATION)
    async def approve(self, staff: StaffViewer, photo_id: int):
        """Approve (audited): the photo shows to others; pending, it may become the main one."""
        if (chosen := browser_id(photo_id)) is not None:
            await act(approve, staff, chosen)
        await self._read()

    @staff_event(*MODERATION)
    async def open_reject(self, staff: StaffViewer, photo_id: int):
        self.rejecting, self.errors = browser_id(photo_id) or 0, {}

    @staff_event(*MODERATION)
    async def close_reject(self, staff: StaffViewer):
        self.rejecting, self.errors = 0, {}

    @staff_event(*MODERATION)
    async def reject(self, staff: StaffViewer, form: dict):
        """The reject form of the open photo: a decision removing it (actions/moderation)."""
        if not self.rejecting or self.busy:
            return
        try:
            checked = decision_form({**form, "measure": Measure.REMOVE_CONTENT})
        except AccountError as error:
            await self._show_error(error)
            return
        self.busy, self.errors = True, {}
        try:
            await act(
                reject, staff, self.rejecting, checked.ground_type, checked.ground, checked.facts
            )
        except ModerationRefused as refused:
            self.errors = {"": await self._text(refused.message)}
        else:
            self.rejecting = 0
        finally:
            self.busy = False
        await self._read()
