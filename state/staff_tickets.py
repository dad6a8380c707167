"""/staff/tickets: the customer service queue, open tickets first; /staff/tickets/{id}: the
thread, the answer mailed in the ticket's language, and the status with a reason
(actions/tickets.py, each audited). Support and admin only."""

import secrets

import reflex as rx

from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from actions.ticket_reads import ticket_queue, ticket_thread
from actions.tickets import TicketRefused, answer_ticket, set_ticket_status
from models.account_errors import AccountError
from models.staff_reason import REASON_LIMIT
from models.staff_tools import SUPPORT
from models.tickets import MESSAGE_LIMIT
from state.forms import FormState, form_text
from state.paged_list import PagedListState
from state.staff_guard import staff_event
from state.staff_reports import id_from_path

_STATUS_INPUT = 10


def _nonce() -> str:
    return secrets.token_hex(8)


class StaffTicketsState(PagedListState, rx.State):
    async def _read(self) -> None:
        self._show(await read(ticket_queue, self.page))

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/tickets."""
        await self._first()

    @staff_event(*SUPPORT)
    async def go(self, staff: StaffViewer, page: int):
        await self._turn_to(page)


class StaffTicketState(FormState, rx.State):
    ticket: dict = {}
    member_name: str = ""
    messages: list[dict] = []
    missing: bool = False
    answer_nonce: str = ""  # the answer form's; used up by its first submit (no double answer)

    async def _read(self, ticket_id: int | None) -> None:
        thread = await read(ticket_thread, ticket_id) if ticket_id else None
        self.missing = thread is None
        self.ticket = thread.ticket if thread else {}
        self.member_name = thread.member_name if thread else ""
        self.messages = thread.messages if thread else []

    async def _reread(self) -> None:
        await self._read(int(self.ticket["id"]))

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/tickets/{id}."""
        self.errors, self.busy, self.answer_nonce = {}, False, _nonce()
        await self._read(id_from_path(self.router.url.path))

    @staff_event(*SUPPORT)
    async def answer(self, staff: StaffViewer, form: dict):
        """The answer, mailed to the member and kept in the thread. A second submit of the same
        form (a double click) carries the nonce the first used up, and is ignored."""
        if not self.ticket or self.busy or form.get("nonce") != self.answer_nonce:
            return
        self.busy, self.errors, self.answer_nonce = True, {}, _nonce()
        text = form_text(form, "answer", MESSAGE_LIMIT + 1)
        await self._run(answer_ticket, staff, int(self.ticket["id"]), text)
        self.busy = False

    @staff_event(*SUPPORT)
    async def change_status(self, staff: StaffViewer, form: dict):
        if not self.ticket or self.busy:
            return
        self.busy, self.errors = True, {}
        status = form_text(form, "status", _STATUS_INPUT)
        reason = form_text(form, "reason", REASON_LIMIT + 1)
        await self._run(set_ticket_status, staff, int(self.ticket["id"]), status, reason)
        self.busy = False

    async def _run(self, action, *args) -> None:
        try:
            await act(action, *args)
        except AccountError as error:
            await self._show_error(error)
        except TicketRefused as refused:
            self.errors = {"": await self._text(refused.message)}
        await self._reread()
