"""Settings → account: change password, change e-mail address, download my data, delete the
account. Every handler checks the session cookie again: the page may be older than a log-out
elsewhere."""

import json

import reflex as rx

from actions.accounts import (
    DiscountOffer,
    claim_discount,
    delete_my_account,
    discount_standing,
    email_change_mail,
    new_password,
)
from actions.data_export import request_export
from actions.runner import act, act_hashing, read
from actions.viewer import session_token
from models.account_errors import AccountError
from models.deletion import DELETE_REASONS, NOTE_MAX
from models.routes import login_url, url
from services.client_address import client_key
from services.mail import delivered
from services.site_settings import site_settings
from state.forms import PASSWORD_INPUT, FormState, browser_id, form_text
from state.login import MAX_EMAIL
from state.session import current_viewer
from translations.errors import GENERIC_ERROR

LOGIN_REDIRECT = login_url(url("settings"))
# Deleting ended every session; this document load drops the browser's stale cookie.
AFTER_DELETE = f"/api/logout.php?next={url('account-deleted')}"
CLOSED, REASON, ALTERNATIVES, CONFIRM = range(4)  # the deletion flow's steps
_NEXT_STEP = {REASON: ALTERNATIVES, ALTERNATIVES: CONFIRM}
RENEW_DEVICE_COOKIE = rx.call_script("window.siteSession.renewDevice()")


class AccountSettingsState(FormState, rx.State):
    password_saved: bool = False
    email_sent_to: str = ""
    delete_step: int = CLOSED
    delete_reason: str = ""
    delete_discount: int = 0
    discount_code: str = ""
    discount_expires: str = ""
    discount_gone: bool = False  # the member had their one delete_discount code already
    export_requested: bool = False

    @rx.event
    async def reset_form(self) -> None:
        self.errors, self.busy, self.password_saved, self.email_sent_to = {}, False, False, ""
        self.export_requested = False
        self.delete_step, self.delete_reason = CLOSED, ""
        self.delete_discount = (await site_settings()).delete_discount
        self.discount_code = self.discount_expires = ""
        self.discount_gone = False

    @rx.event
    async def claim_discount(self):
        """The delete_discount offer: a personal code for the next credit bundle, once per member
        for good, and only at the deletion flow's alternatives step, which only `delete_go` sets
        (the browser can ask for a step, not set one)."""
        viewer = await current_viewer(self)
        if viewer is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        if self.delete_step != ALTERNATIVES or self.discount_code or self.discount_gone:
            return
        claim = await act(claim_discount, viewer)
        self.delete_discount = claim.percentage  # switched off: the page offers nothing
        if claim.offer is not None:
            self._show_code(claim.offer)
        elif claim.percentage > 0:
            self.discount_gone = True

    def _show_code(self, offer: DiscountOffer) -> None:
        self.discount_code, self.discount_expires = offer.code, offer.expires_on.isoformat()
        self.delete_discount = offer.percentage

    @rx.event
    async def change_password(self, form: dict):
        viewer = await current_viewer(self)
        if viewer is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        self.busy, self.errors, self.password_saved = True, {}, False
        yield
        values = [
            form_text(form, k, PASSWORD_INPUT)
            for k in ("current_password", "new_password", "repeat")
        ]
        this_tab = session_token(self.router.headers.cookie)
        try:
            await act_hashing(new_password, viewer, *values, this_tab)
        except AccountError as error:
            await self._show_error(error)
        else:
            self.password_saved = True
            yield RENEW_DEVICE_COOKIE  # the new password voided it (services/device_cookie)
        self.busy = False

    @rx.event(background=True)
    async def change_email(self, form: dict):
        """The confirmation link mailed to the new address, made and sent outside the tab's
        state lock (an SMTP server may be slow to answer)."""
        viewer = await current_viewer(self)
        if viewer is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        async with self:
            self.busy, self.errors, self.email_sent_to = True, {}, ""
        current = form_text(form, "email_password", PASSWORD_INPUT)
        new_email = form_text(form, "email", MAX_EMAIL)
        try:
            mail = await act_hashing(email_change_mail, viewer, current, new_email[:MAX_EMAIL])
        except AccountError as error:
            error.field = "email_password" if error.field == "current_password" else error.field
            async with self:
                await self._show_error(error)
                self.busy = False
            return
        sent = await delivered(mail)
        async with self:
            if sent:
                self.email_sent_to = mail.to
            else:
                self.errors = {"email": await self._text(GENERIC_ERROR)}
            self.busy = False

    @rx.event
    async def request_export(self, form: dict):
        """A copy of the member's data (docs/data-rights.md), mailed as a link once built."""
        viewer = await current_viewer(self)
        if viewer is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        self.busy, self.errors, self.export_requested = True, {}, False
        yield
        try:
            await act_hashing(
                request_export,
                viewer,
                form_text(form, "export_password", PASSWORD_INPUT),
                client_key(self.router.session.client_ip),
            )
        except AccountError as error:
            await self._show_error(error)
        else:
            self.export_requested = True
        self.busy = False

    @rx.event
    async def delete_go(self, step: int):
        """Close the deletion flow or start it from anywhere; the alternatives only after a
        reason, the confirmation only from the alternatives."""
        wanted = browser_id(step) or CLOSED
        forward = _NEXT_STEP.get(self.delete_step) == wanted and self.delete_reason != ""
        if wanted not in (CLOSED, REASON) and not forward:
            return
        if wanted == ALTERNATIVES:
            viewer = await current_viewer(self)
            if viewer is None:
                yield rx.redirect(LOGIN_REDIRECT)
                return
            standing = await read(discount_standing, viewer)
            self.delete_discount = (await site_settings()).delete_discount
            self.discount_gone = standing.had_offer
            self.discount_code = self.discount_expires = ""
            if standing.offer is not None:  # their code still works: shown again
                self._show_code(standing.offer)
        self.delete_step, self.errors = wanted, {}

    @rx.event
    def choose_reason(self, reason: str) -> None:
        if reason in DELETE_REASONS:
            self.delete_reason = reason

    @rx.event
    async def delete_account(self, form: dict):
        viewer = await current_viewer(self)
        if viewer is None:
            yield rx.redirect(LOGIN_REDIRECT)
            return
        self.busy, self.errors = True, {}
        yield
        password = form_text(form, "password", PASSWORD_INPUT)
        note = form_text(form, "note", NOTE_MAX)
        try:
            await act_hashing(delete_my_account, viewer, password, self.delete_reason, note)
        except AccountError as error:
            await self._show_error(error)
            self.busy = False
            return
        self.busy = False  # the reactivation link goes out by mail meanwhile
        yield rx.call_script(f"window.location.assign({json.dumps(AFTER_DELETE)})")
