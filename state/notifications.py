"""/notifications: which e-mails and push messages the member wants, e-mail switched off by the
mail system (spam complaint, bounce, unsubscribe), and this browser's push subscription.
Every change goes through actions/notifications.py for the member behind the tab's cookie."""

import reflex as rx

from actions import notifications
from actions.runner import act, read
from models.notification_prefs import EMAIL_KINDS, NOTIFICATION_KINDS
from models.routes import login_url
from state.forms import FormState
from state.push_opt_in import PUSH_STATES, check_push, push_answer, subscribe_push
from state.session import current_viewer
from translations.catalog import N_
from translations.errors import GENERIC_ERROR

SAVED = N_("Your choice is saved.")
EMAIL_ON_AGAIN = N_("We will send you e-mails again.")
# The subscription answers that leave the browser without one.
_NOT_SUBSCRIBED = {"default": "not_subscribed", "failed": "not_subscribed"}


class NotificationsState(FormState, rx.State):
    loaded: bool = False
    prefs: dict[str, bool] = {}
    reasons: list[str] = []  # why e-mail is switched off (models/notification_prefs)
    push_status: str = ""  # one of PUSH_STATES; "" until the browser answered
    notices: dict[str, str] = {}  # section ("email" or "push") -> translated notice

    def _login(self) -> rx.event.EventSpec:
        return rx.redirect(login_url(self.router.url))

    def _show(self, choices: notifications.Choices) -> None:
        self.prefs, self.reasons, self.loaded = choices.prefs, choices.reasons, True

    @rx.event
    async def load(self):
        self.errors, self.notices, self.push_status = {}, {}, ""
        viewer = await current_viewer(self)
        choices = await read(notifications.choices, viewer.member_id) if viewer else None
        if choices is None:
            self.loaded, self.prefs, self.reasons = False, {}, []
            return
        self._show(choices)
        yield check_push(NotificationsState.push_checked)

    @rx.event
    async def set_preference(self, kind: str, on: bool):
        """One switch; e-mail kinds stay as they are while e-mail is switched off."""
        viewer = await current_viewer(self)
        if viewer is None:
            yield self._login()
            return
        if kind not in NOTIFICATION_KINDS:
            return
        choices, kept = await act(notifications.choose, viewer, kind, on is True)
        self._show(choices)
        if kept:
            section = "email" if kind in EMAIL_KINDS else "push"
            self.errors, self.notices = {}, {section: await self._text(SAVED)}

    @rx.event
    async def send_emails_again(self):
        viewer = await current_viewer(self)
        if viewer is None:
            yield self._login()
            return
        self._show(await act(notifications.send_emails_again, viewer))
        self.errors, self.notices = {}, {"email": await self._text(EMAIL_ON_AGAIN)}

    @rx.event
    async def push_checked(self, status: str) -> None:
        self.push_status = status if status in PUSH_STATES else "unsupported"

    @rx.event
    async def turn_on_push(self):
        if await current_viewer(self) is None:
            yield self._login()
            return
        self.errors, self.notices = {}, {}
        yield subscribe_push(NotificationsState.push_answered)

    @rx.event
    async def push_answered(self, result: str) -> None:
        answer = push_answer(result)
        self.push_status = _NOT_SUBSCRIBED.get(answer, answer)
        if answer == "failed":
            self.errors = {"push": await self._text(GENERIC_ERROR)}
