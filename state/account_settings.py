"""Settings → account: change password, change e-mail address, delete the account. Every handler
checks the session cookie again: the page may be older than a log-out elsewhere."""

import json

import reflex as rx

from models.account_changes import AccountError
from models.deletion import DELETE_REASONS
from models.discount_codes import retention_code
from services import accounts
from services.database import db_session
from services.mail import delivered
from services.password_work import with_password_work
from services.site_settings import current_settings
from state.forms import FormState
from state.session import SessionState, current_member_id
from translations.errors import GENERIC_ERROR

LOGIN_REDIRECT = "/login?next=/settings"
AFTER_DELETE = "/api/logout.php?next=/account-deleted"  # a document load: the server logs out


class AccountSettingsState(FormState, rx.State):
    password_saved: bool = False
    email_sent_to: str = ""
    delete_step: int = 0  # 0 closed, 1 reason, 2 alternatives, 3 confirm
    delete_reason: str = ""
    delete_discount: int = 0
    discount_code: str = ""
    discount_expires: str = ""

    async def _member_id(self) -> int | None:
        return await current_member_id(self)

    @rx.event
    def reset_form(self) -> None:
        self.errors, self.busy, self.password_saved, self.email_sent_to = {}, False, False, ""
        self.delete_step, self.delete_reason = 0, ""
        self.delete_discount = current_settings().delete_discount
        self.discount_code = self.discount_expires = ""

    @rx.event
    async def claim_discount(self):
        """The delete_discount offer: a personal code for the next credit bundle."""
        member_id = await self._member_id()
        if member_id is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        percentage = current_settings().delete_discount
        with db_session() as db:
            code = retention_code(db, member_id, percentage)
        self.discount_code = code.code
        self.discount_expires = code.expires_at.date().isoformat()

    @rx.event
    async def change_password(self, form: dict):
        member_id = await self._member_id()
        if member_id is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        self.busy, self.errors, self.password_saved = True, {}, False
        yield
        session = await self.get_state(SessionState)
        values = [str(form.get(k) or "") for k in ("current_password", "new_password", "repeat")]
        try:
            await with_password_work(
                accounts.new_password, member_id, *values, session.cookie_token()
            )
        except AccountError as error:
            await self.show_error(error)
        else:
            self.password_saved = True
        self.busy = False

    @rx.event
    async def change_email(self, form: dict):
        member_id = await self._member_id()
        if member_id is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        self.busy, self.errors, self.email_sent_to = True, {}, ""
        yield
        current, new_email = str(form.get("email_password") or ""), str(form.get("email") or "")
        try:
            mail = await with_password_work(
                accounts.email_change_mail, member_id, current, new_email
            )
        except AccountError as error:
            error.field = "email_password" if error.field == "current_password" else error.field
            await self.show_error(error)
        else:
            if await delivered(mail):
                self.email_sent_to = mail.to
            else:
                self.errors = {"email": await self.text(GENERIC_ERROR)}
        self.busy = False

    @rx.event
    def delete_go(self, step: int) -> None:
        self.delete_step = max(0, min(int(step), 3))
        self.errors = {}

    @rx.event
    def choose_reason(self, reason: str) -> None:
        if reason in DELETE_REASONS:
            self.delete_reason = reason

    @rx.event
    async def delete_account(self, form: dict):
        member_id = await self._member_id()
        if member_id is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        self.busy, self.errors = True, {}
        yield
        password, note = str(form.get("password") or ""), str(form.get("note") or "")
        try:
            mail = await with_password_work(
                accounts.delete_my_account, member_id, password, self.delete_reason, note
            )
        except AccountError as error:
            await self.show_error(error)
            self.busy = False
            return
        await delivered(mail)  # the account is deleted all the same
        self.busy = False
        yield rx.call_script(f"window.location.assign({json.dumps(AFTER_DELETE)})")
