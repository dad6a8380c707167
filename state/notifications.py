"""/notifications: which e-mails and push messages the member wants, e-mail switched off by the
mail system (spam complaint, bounce, unsubscribe), and this browser's push subscription.
Every change asks the database who the session cookie belongs to."""

import reflex as rx

from models.member import Member
from models.notification_prefs import (
    NOTIFICATION_KINDS,
    disabled_reasons,
    enable_email_again,
    preferences,
    save_preferences,
)
from services.database import db_session
from state.forms import FormState
from state.push_opt_in import PUSH_STATES, check_push, push_answer, subscribe_push
from state.session import SessionState, current_member_id
from state.shell import login_url
from translations.catalog import N_
from translations.errors import GENERIC_ERROR

EMAIL_KINDS = tuple(kind for kind in NOTIFICATION_KINDS if kind.startswith("email_"))
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

    async def _member(self) -> int | None:
        return await current_member_id(self)

    def _login(self) -> rx.event.EventSpec:
        return rx.redirect(login_url(self.router.url))

    def _show(self, member_id: int) -> None:
        with db_session() as db:
            member = db.get(Member, member_id)
            self.prefs, self.reasons = preferences(member), disabled_reasons(member)
        self.loaded = True

    @rx.event
    async def load(self):
        self.errors, self.notices, self.push_status = {}, {}, ""
        member_id = await self._member()
        if member_id is None:
            self.loaded, self.prefs, self.reasons = False, {}, []
            return
        self._show(member_id)
        yield check_push(NotificationsState.push_checked)

    @rx.event
    async def set_preference(self, kind: str, on: bool):
        """One switch; e-mail kinds stay as they are while e-mail is switched off."""
        member_id = await self._member()
        if member_id is None:
            yield self._login()
            return
        self._show(member_id)
        if kind not in NOTIFICATION_KINDS or (kind in EMAIL_KINDS and self.reasons):
            return
        with db_session() as db:
            self.prefs = save_preferences(db, member_id, {kind: on is True})
        section = "email" if kind in EMAIL_KINDS else "push"
        self.errors, self.notices = {}, {section: await self.text(SAVED)}

    @rx.event
    async def send_emails_again(self):
        member_id = await self._member()
        if member_id is None:
            yield self._login()
            return
        with db_session() as db:
            enable_email_again(db, member_id)
        self._show(member_id)
        self.errors, self.notices = {}, {"email": await self.text(EMAIL_ON_AGAIN)}

    @rx.event
    async def push_checked(self, status: str) -> None:
        self.push_status = status if status in PUSH_STATES else "unsupported"

    @rx.event
    async def turn_on_push(self):
        if await self._member() is None:
            yield self._login()
            return
        self.errors, self.notices = {}, {}
        yield subscribe_push(NotificationsState.push_answered)

    @rx.event
    async def push_answered(self, result: str) -> None:
        answer = push_answer(result)
        self.push_status = _NOT_SUBSCRIBED.get(answer, answer)
        if answer == "failed":
            self.errors = {"push": await self.text(GENERIC_ERROR)}
