"""/reset-password and /reset-password/do. A request answers the same for every address and
sends the mail in the background, so neither the text nor the time tells who has an account."""

import asyncio

import reflex as rx

from models.account_errors import AccountError
from models.password_reset import reset_link_usable
from services import accounts
from services.database import db_session
from services.mail import OutgoingMail, delivered
from services.password_work import with_password_work
from state.forms import FormState
from state.login import continue_with_session

_background_mails: set[asyncio.Task] = set()


def send_in_background(mail: OutgoingMail | None) -> None:
    if mail is not None:
        task = asyncio.create_task(delivered(mail))
        _background_mails.add(task)
        task.add_done_callback(_background_mails.discard)


class ResetRequestState(FormState, rx.State):
    sent_to: str = ""

    @rx.event
    def reset_form(self) -> None:
        self.errors, self.busy, self.sent_to = {}, False, ""

    @rx.event
    async def submit(self, form: dict):
        email = str(form.get("email") or "")[:254]
        self.busy, self.errors = True, {}
        yield
        try:
            client = self.router.session.client_ip
            mail = await asyncio.to_thread(accounts.password_reset_mail, email, client)
        except AccountError as error:
            await self.show_error(error)
        else:
            send_in_background(mail)
            self.sent_to = email.strip()
        self.busy = False


class ResetPasswordState(FormState, rx.State):
    link_ok: bool = False
    checked: bool = False

    def _token(self) -> str:
        return str(self.router.url.query_parameters.get("token") or "")

    @rx.event
    def check_link(self) -> None:
        with db_session() as db:
            self.link_ok = reset_link_usable(db, self._token())
        self.checked, self.errors, self.busy = True, {}, False

    @rx.event
    async def submit(self, form: dict):
        self.busy, self.errors = True, {}
        yield
        password, repeat = str(form.get("password") or ""), str(form.get("repeat") or "")
        try:
            login = await with_password_work(
                accounts.reset_password, self._token(), password, repeat
            )
        except AccountError as error:
            await self.show_error(error)
            self.busy = False
            return
        yield (
            continue_with_session(login.handoff, "/members")
            if login.handoff
            else rx.redirect("/login")
        )
