"""A staff form that asks for the reason of a change (it lands in the audit log). It lives
outside state/staff_*.py: a mixin is never a tab's state and has no event handler of its own."""

import reflex as rx

from models.account_errors import AccountError
from models.staff_reason import staff_reason
from state.forms import FormState


class ReasonFormState(FormState, rx.State, mixin=True):
    async def _reason(self, form: dict) -> str | None:
        """The reason typed in `form` (models/staff_reason.py); None, its error shown on the
        form, when it is refused."""
        try:
            return staff_reason(form.get("reason"))
        except AccountError as error:
            await self._show_error(error)
            return None
