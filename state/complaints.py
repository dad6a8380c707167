"""/complaints: the DSA Art. 16 notice form, open to visitors and members. The content's URL
comes prefilled from ?url= (a profile's or photo's "Report illegal content" link)."""

import reflex as rx

from actions.reports import NoticeFiled, file_notice
from actions.runner import act
from models.account_errors import AccountError
from models.report_rules import (
    CATEGORIES,
    NOTICE_EMAIL_LIMIT,
    NOTICE_NAME_LIMIT,
    NOTICE_TEXT_LIMIT,
    NOTICE_URL_LIMIT,
    TOO_MANY_NOTICES,
    Notice,
)
from services.client_address import client_key
from services.config import get_config
from state.forms import FormState, form_text
from state.i18n import I18nState

_CATEGORY_INPUT = 20


def _absolute(address: str) -> str:
    """A link's path as the full address the notifier sees in the browser."""
    return f"{get_config().public_url}{address}" if address.startswith("/") else address


class ComplaintsState(FormState, rx.State):
    url: str = ""  # the prefilled address of the content
    category: str = ""  # the chosen ReportCategory: child_abuse makes name and e-mail optional
    reference: str = ""  # the sent notice's; "" while the form shows
    sent_to: str = ""

    @rx.event
    def load_notice(self) -> None:
        self.reset()
        given = str(self.router.url.query_parameters.get("url") or "")[:NOTICE_URL_LIMIT]
        self.url = _absolute(given.strip())

    @rx.event
    def choose_category(self, value: str) -> None:
        self.category = value if value in CATEGORIES else ""

    @rx.event
    async def send_notice(self, form: dict):
        if self.reference or self.busy:
            return
        self.busy, self.errors = True, {}
        yield
        try:
            notice = await self._notice(form)
            filed = await act(file_notice, notice, client_key(self.router.session.client_ip))
        except AccountError as error:
            await self._show_error(error)
        else:
            await self._show(filed)
        self.busy = False

    async def _show(self, filed: NoticeFiled) -> None:
        if filed.minutes_refused:
            self.errors = {"": await self._text(TOO_MANY_NOTICES, minutes=filed.minutes_refused)}
        else:
            self.reference, self.sent_to = filed.reference, filed.sent_to

    async def _notice(self, form: dict) -> Notice:
        return Notice(
            url=form_text(form, "url", NOTICE_URL_LIMIT),
            category=form_text(form, "category", _CATEGORY_INPUT),
            text=form_text(form, "text", NOTICE_TEXT_LIMIT),
            name=form_text(form, "name", NOTICE_NAME_LIMIT),
            email=form_text(form, "email", NOTICE_EMAIL_LIMIT + 1),
            good_faith=form.get("good_faith") in ("on", "yes", True),
            language=(await self.get_state(I18nState)).locale,
        )
