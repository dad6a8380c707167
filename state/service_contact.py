"""/pages/service: the contact form, open to visitors and members (docs/customer-service.md).
A member writes from their account; a visitor gives an e-mail address. ?reference= and ?token=
(the link in a receipt or an answer) fill in the ticket to follow up and the proof that the
sender got its mail."""

import reflex as rx

from actions.runner import act
from actions.tickets import ContactSent, send_contact
from models.account_errors import AccountError
from models.report_rules import REFERENCE_LENGTH
from models.tickets import EMAIL_LIMIT, MESSAGE_LIMIT, TOO_MANY_REQUESTS, TOPICS, ContactRequest
from services.client_address import client_key
from services.ticket_tokens import TOKEN_LENGTH
from state.forms import FormState, form_text
from state.i18n import I18nState
from state.session import current_viewer

_TOPIC_INPUT = 20


class ServiceContactState(FormState, rx.State):
    member: bool = False  # logged in: no e-mail field
    topic: str = ""
    reference: str = ""  # the ticket followed up, filled from ?reference=
    sent_reference: str = ""  # the sent message's ticket; "" while the form shows
    sent_to: str = ""
    receipt: bool = False  # a receipt went to sent_to
    _token: str = ""  # ?token=, checked by the action against the reference sent

    @rx.event
    async def load(self) -> None:
        self.reset()
        given = str(self.router.url.query_parameters.get("reference") or "")
        self.reference = given.strip().upper()[:REFERENCE_LENGTH]
        self._token = str(self.router.url.query_parameters.get("token") or "")[:TOKEN_LENGTH]
        self.member = await current_viewer(self) is not None

    @rx.event
    def choose_topic(self, value: str) -> None:
        self.topic = value if value in TOPICS else ""

    @rx.event
    async def send(self, form: dict):
        if self.sent_reference or self.busy:
            return
        self.busy, self.errors = True, {}
        yield
        viewer = await current_viewer(self)
        try:
            sent = await act(
                send_contact,
                await self._request(form),
                viewer.member_id if viewer else None,
                client_key(self.router.session.client_ip),
            )
        except AccountError as error:
            await self._show_error(error)
        else:
            await self._show(sent)
        self.busy = False

    async def _show(self, sent: ContactSent) -> None:
        if sent.minutes_refused:
            self.errors = {"": await self._text(TOO_MANY_REQUESTS, minutes=sent.minutes_refused)}
        else:
            self.sent_reference, self.sent_to = sent.reference, sent.sent_to
            self.receipt = sent.receipt

    async def _request(self, form: dict) -> ContactRequest:
        return ContactRequest(
            topic=form_text(form, "topic", _TOPIC_INPUT),
            message=form_text(form, "message", MESSAGE_LIMIT + 1),
            email=form_text(form, "email", EMAIL_LIMIT + 1),
            reference=form_text(form, "reference", REFERENCE_LENGTH + 1),
            locale=(await self.get_state(I18nState)).locale,
            token=self._token,
        )
