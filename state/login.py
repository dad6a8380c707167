"""/login and the log-in-required prompt: check the password off the event loop, then hand the
session over to an HttpOnly cookie and continue where the visitor was going."""

import json

import reflex as rx

from actions.accounts import log_in, reactivation_link
from actions.runner import act, act_hashing
from actions.viewer import device_token
from models.account_errors import AccountError
from services.client_address import client_key
from services.mail import delivered
from state.forms import PASSWORD_INPUT, FormState, form_text, safe_next
from state.i18n import I18nState
from state.session import SessionState

MAX_EMAIL = 254


def continue_with_session(handoff: str, next_path: str) -> rx.event.EventSpec:
    """Trade the hand-off code for the cookie and load `next_path` in a fresh page."""
    return rx.call_script(
        f"window.siteSession.handoff({json.dumps(handoff)}, {json.dumps(next_path)})"
    )


async def mail_reactivation(email: str) -> bool:
    """Mail a reactivation link if `email` awaits deletion (any other address gets nothing,
    silently); False only when the mail could not go out."""
    mail = await act(reactivation_link, email)
    return mail is None or await delivered(mail)


# Worked out in the browser from the page's URL: as computed vars they put LoginState into
# every visitor's stored state (README, benchmarks).
_QUERY = rx.State.router.url.query_parameters
LOGIN_REQUIRED = _QUERY.contains("next")  # sent by a page that needs a log-in: the prompt wording
BACK_REACTIVATED = _QUERY.contains("reactivated")  # from the reactivation link: active again


class LoginState(FormState, rx.State):
    email: str = ""
    awaiting_deletion: bool = False
    reactivation_sent: bool = False

    def _next_path(self) -> str:
        return safe_next(self.router.url.query_parameters.get("next"))

    @rx.event
    async def reset_form(self) -> rx.event.EventSpec | None:
        """A fresh form; a member who is logged in already goes on at once."""
        self.errors, self.busy = {}, False
        self.awaiting_deletion = self.reactivation_sent = False
        if (await self.get_state(SessionState)).logged_in:
            return rx.redirect(self._next_path())
        return None

    @rx.event
    async def submit(self, form: dict):
        self.email = str(form.get("email") or "")[:MAX_EMAIL]
        self.busy, self.errors, self.awaiting_deletion = True, {}, False
        yield
        password = form_text(form, "password", PASSWORD_INPUT)
        client = client_key(self.router.session.client_ip)
        device = device_token(self.router.headers.cookie)
        i18n = await self.get_state(I18nState)
        try:
            login = await act_hashing(
                log_in, self.email, password, client, i18n._chosen or None, device
            )
        except AccountError as error:
            await self._show_error(error)
            self.busy = False
            return
        self.busy = False
        if login.statement:
            yield rx.redirect(login.statement)
            return
        if login.handoff is None:
            self.awaiting_deletion = True
            return
        i18n.locale = i18n.locale_cookie = login.language  # the choice above, else the account's
        yield continue_with_session(login.handoff, self._next_path())

    @rx.event(background=True)
    async def send_reactivation(self):
        """Once per log-in attempt, and only after the password proved the account; the mail
        goes out outside the tab's state lock."""
        async with self:
            if not self.awaiting_deletion or self.reactivation_sent or self.busy:
                return
            self.busy, email = True, self.email
        sent = await mail_reactivation(email)
        async with self:
            if sent:
                self.reactivation_sent = True
            else:
                await self._show_generic_error()
            self.busy = False
