"""The activation reminder with its 4-step re-send, and the e-mail change confirmation page."""

from datetime import UTC, datetime

import reflex as rx

from actions.accounts import activation_mail, confirm_new_email
from actions.runner import act
from services.mail import delivered
from state.session import SessionState, current_viewer

SENT_STEP = 4


class ActivationState(rx.State):
    dismissed_at: str = rx.LocalStorage("", name="activation_reminder_dismissed", sync=True)
    resend_step: int = 0  # 1 checking, 2 new link, 3 sending, 4 sent
    resend_failed: bool = False
    mail_change_ok: bool = False
    mail_change_checked: bool = False

    @rx.var
    def signup_just_completed(self) -> bool:
        return "signup_complete" in self.router.url.query_parameters

    @rx.event
    def dismiss(self) -> None:
        self.dismissed_at = datetime.now(UTC).isoformat(timespec="seconds")

    @rx.event(background=True)
    async def resend(self):
        """Each step shown as it is reached; the mail is made and sent outside the tab's state
        lock (an SMTP server may be slow to answer)."""
        async with self:
            if 0 < self.resend_step < SENT_STEP:
                return
            self.resend_failed, self.resend_step = False, 1
        viewer = await current_viewer(self)
        async with self:
            self.resend_step = 2
        mail = await act(activation_mail, viewer) if viewer else None
        async with self:
            self.resend_step = 3
        sent = mail is not None and await delivered(mail)
        async with self:
            if sent:
                self.resend_step = SENT_STEP
            else:
                self.resend_failed, self.resend_step = True, 0

    @rx.event
    async def confirm_mail_change(self) -> None:
        token = str(self.router.url.query_parameters.get("token") or "")
        self.mail_change_ok = await act(confirm_new_email, token)
        self.mail_change_checked = True
        if self.mail_change_ok:
            await (await self.get_state(SessionState))._load()
