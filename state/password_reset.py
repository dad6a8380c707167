"""/reset-password and /reset-password/do. A request answers the same for every address and
sends the mail in the background, so neither the text nor the time tells who has an account."""

import reflex as rx

from actions.accounts import request_password_reset, reset_link_ok, reset_password
from actions.runner import act, act_hashing, read
from models.account_errors import AccountError
from models.routes import url
from services.client_address import client_key
from state.forms import PASSWORD_INPUT, FormState, form_text
from state.login import MAX_EMAIL, continue_with_session


class ResetRequestState(FormState, rx.State):
    sent_to: str = ""

    @rx.event
    def reset_form(self) -> None:
        self.errors, self.busy, self.sent_to = {}, False, ""

    @rx.event
    async def submit(self, form: dict):
        email = str(form.get("email") or "")[:MAX_EMAIL]
        self.busy, self.errors = True, {}
        yield
        try:
            await act(request_password_reset, email, client_key(self.router.session.client_ip))
        except AccountError as error:
            await self._show_error(error)
        else:
            self.sent_to = email.strip()
        self.busy = False


class ResetPasswordState(FormState, rx.State):
    link_ok: bool = False
    checked: bool = False

    def _token(self) -> str:
        return str(self.router.url.query_parameters.get("token") or "")

    @rx.event
    async def check_link(self) -> None:
        self.link_ok = await read(reset_link_ok, self._token())
        self.checked, self.errors, self.busy = True, {}, False

    @rx.event
    async def submit(self, form: dict):
        self.busy, self.errors = True, {}
        yield
        password = form_text(form, "password", PASSWORD_INPUT)
        repeat = form_text(form, "repeat", PASSWORD_INPUT)
        try:
            login = await act_hashing(reset_password, self._token(), password, repeat)
        except AccountError as error:
            await self._show_error(error)
            self.busy = False
            return
        if login.handoff:
            yield continue_with_session(login.handoff, url("members"))
        else:
            yield rx.redirect(login.statement or url("login"))
