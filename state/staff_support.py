"""/staff/support: finding a member; /staff/support/members/{id}: their account and support's
actions on it (actions/support.py), each with a reason and audited (docs/support.md)."""

import reflex as rx

from actions.audit import audit_read
from actions.direct_debit import lift_direct_debit_block
from actions.payment_flow import withdraw_by_support
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from actions.support import (
    change_credits,
    change_email,
    end_sessions,
    resend_activation,
    start_deletion,
)
from actions.support_reads import find_members, ledger_page, support_account
from models.account_errors import AccountError
from models.staff_tools import SUPPORT
from models.support_form import (
    SearchKey,
    SupportAction,
    SupportRequest,
    search_form,
    support_request,
)
from state.forms import FormState, browser_id
from state.staff_guard import staff_event
from state.staff_reports import id_from_path
from translations.catalog import N_

VIEWED_ACCOUNT = "support.view"  # the audit action of a look at an account
DONE = N_("Done. The audit log keeps the action and its reason.")
NO_BLOCK = N_("Direct debit is not blocked for this member.")


class StaffSupportSearchState(FormState, rx.State):
    key: str = SearchKey.EMAIL.value
    rows: list[dict] = []
    searched: bool = False

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/support: an empty search."""
        self.rows, self.searched, self.errors = [], False, {}

    @staff_event(*SUPPORT)
    async def search(self, staff: StaffViewer, form: dict):
        try:
            search = search_form(form)
        except AccountError as error:
            self.rows, self.searched = [], False
            await self._show_error(error)
            return
        self.key, self.errors = search.key.value, {}
        self.rows, self.searched = await read(find_members, search), True


class StaffSupportMemberState(FormState, rx.State):
    member: dict = {}
    sessions: list[dict] = []
    logins: list[dict] = []
    orders: list[dict] = []
    refunds: list[dict] = []
    mandates: list[dict] = []
    notices: list[dict] = []
    reports: int = 0
    decisions: int = 0
    ledger: list[dict] = []
    page: int = 1
    has_next: bool = False
    missing: bool = False
    done: str = ""
    _withdrawable: frozenset[int] = frozenset()  # the paid orders' ids: what may be withdrawn

    async def _read(self, member_id: int | None) -> None:
        account = await read(support_account, member_id) if member_id else None
        self.missing = account is None
        if account is None:
            self.member, self.sessions, self.logins, self.orders = {}, [], [], []
            self.refunds, self.mandates, self.notices, self.ledger = [], [], [], []
            self.reports, self.decisions, self._withdrawable = 0, 0, frozenset()
            return
        self.member, self.sessions, self.logins = account.member, account.sessions, account.logins
        self.orders, self.refunds = account.orders, account.refunds
        self.mandates, self.notices = account.mandates, account.notices
        self.reports, self.decisions = account.reports, account.decisions
        self._withdrawable = frozenset(o["id"] for o in account.orders if o["paid"])
        await self._read_ledger(1)

    async def _read_ledger(self, page: int) -> None:
        found = await read(ledger_page, int(self.member["id"]), page)
        self.ledger, self.has_next, self.page = found.rows, found.has_next, found.page

    @staff_event(*SUPPORT)
    async def load(self, staff: StaffViewer):
        """On load of /staff/support/members/{id}, with an audit row saying who looked, one a
        load (not one a ledger page or an action)."""
        self.errors, self.busy, self.done = {}, False, ""
        member_id = id_from_path(self.router.url.path)
        await self._read(member_id)
        if member_id and not self.missing:
            await act(audit_read, staff, VIEWED_ACCOUNT, target=("member", member_id))

    @staff_event(*SUPPORT)
    async def ledger_go(self, staff: StaffViewer, page: int):
        """Another page of the ledger."""
        if self.member:
            await self._read_ledger(browser_id(page) or 1)

    @staff_event(*SUPPORT, background=True)
    async def take_action(self, staff: StaffViewer, form: dict):
        """The action form: checked, then one audited action, run outside the tab's state lock
        (a withdrawal awaits the provider's refund); the account read again."""
        async with self:
            if not self.member or self.busy:
                return
            self.done = ""
            try:
                request = support_request(form, self._withdrawable)
            except AccountError as error:
                await self._show_error(error)
                return
            self.busy, self.errors, member_id = True, {}, int(self.member["id"])
        try:
            error = await _run(staff, member_id, request)
        except AccountError as refused:
            error = refused
        async with self:
            self.busy = False
            if error is not None:
                await self._show_error(error)
                return
            self.done = await self._text(DONE)
            await self._read(member_id)


async def _run(staff: StaffViewer, member_id: int, request: SupportRequest) -> AccountError | None:
    """Run the request's action; the refusal of one that changed nothing, None when done."""
    reason, action = request.reason, request.action
    if action == SupportAction.WITHDRAW:
        error = await withdraw_by_support(staff, request.order_id, reason)
        return AccountError(error, "order") if error else None
    if action == SupportAction.LIFT_SDD_BLOCK:
        lifted = await act(lift_direct_debit_block, staff, member_id, reason)
        return None if lifted else AccountError(NO_BLOCK)
    if action in (SupportAction.GRANT_CREDITS, SupportAction.TAKE_CREDITS):
        sign = 1 if action == SupportAction.GRANT_CREDITS else -1
        await act(change_credits, staff, member_id, sign * request.credits, reason)
    elif action == SupportAction.CHANGE_EMAIL:
        await act(change_email, staff, member_id, request.email, reason)
    else:
        simple = {
            SupportAction.RESEND_ACTIVATION: resend_activation,
            SupportAction.END_SESSIONS: end_sessions,
            SupportAction.DELETE: start_deletion,
        }
        await act(simple[action], staff, member_id, reason)
    return None
