"""/staff/discounts (admins): the discount codes with their uses, paged; a new code; disabling
one, with a reason (actions/discount_admin.py).

The new code's form carries `form_key`, the number of codes this tab made: a code made uses it
up, so the same form sent twice (a double click) makes one code, not two."""

import reflex as rx

from actions.discount_admin import code_choices, code_page, create_code, disable_code
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.discount_form import discount_form
from models.member import utcnow
from models.staff_tools import ADMIN_ONLY
from state.forms import browser_id, form_text
from state.paged_list import PagedListState
from state.reason_form import ReasonFormState
from state.staff_guard import staff_event

FORM_KEY_INPUT = 12  # characters of the form's key as sent: more than the number needs


class StaffDiscountsState(PagedListState, ReasonFormState, rx.State):
    countries: list[str] = []
    currencies: list[str] = []
    created: str = ""  # the code made last, shown above the list
    disabling: int = 0  # the code whose reason form is open
    form_key: int = 0  # a new, empty form after each code made; see the module docstring

    async def _read(self) -> None:
        self._show(await read(code_page, self.page))

    @staff_event(*ADMIN_ONLY)
    async def load(self, staff: StaffViewer):
        """On load of /staff/discounts: the newest codes and what a new one may be limited to."""
        choices = await read(code_choices)
        self.countries, self.currencies = list(choices.countries), list(choices.currencies)
        self.created, self.disabling, self.errors, self.busy = "", 0, {}, False
        await self._first()

    @staff_event(*ADMIN_ONLY)
    async def go(self, staff: StaffViewer, page: int):
        await self._turn_to(page)

    @staff_event(*ADMIN_ONLY)
    async def create(self, staff: StaffViewer, form: dict):
        """A new code from the form, checked field by field, with the reason; a form already
        used up (module docstring) is ignored."""
        if self.busy or form_text(form, "form_key", FORM_KEY_INPUT) != str(self.form_key):
            return
        self.errors, self.created = {}, ""
        if (reason := await self._reason(form)) is None:
            return
        self.busy = True
        try:
            choices = await read(code_choices)  # not the tab's copy: the browser may set vars
            new = discount_form(form, choices.countries, choices.currencies, utcnow().date())
            self.created = await act(create_code, staff, new, reason)
        except AccountError as error:
            await self._show_error(error)
            return
        finally:
            self.busy = False
        self.form_key += 1
        await self._first()

    @staff_event(*ADMIN_ONLY)
    async def ask_disable(self, staff: StaffViewer, code_id: int):
        self.disabling, self.errors = browser_id(code_id) or 0, {}

    @staff_event(*ADMIN_ONLY)
    async def cancel_disable(self, staff: StaffViewer):
        self.disabling = 0

    @staff_event(*ADMIN_ONLY)
    async def disable(self, staff: StaffViewer, form: dict):
        """Disable the code whose reason form is open."""
        if not self.disabling:
            return
        self.errors = {}
        if (reason := await self._reason(form)) is None:
            return
        await act(disable_code, staff, self.disabling, reason)
        self.disabling = 0
        await self._read()
