"""The report dialog (components/report_dialog.py): a member reports a profile, a photo or a
received message, optionally blocking its member in the same step (actions/reports.py)."""

import reflex as rx

from actions.reports import MemberReport, Reported, report_content
from actions.runner import act
from models.account_rules import storable
from models.moderation import MEMBER_REPORT_CATEGORIES
from models.report_rules import CONTENT_TYPES, REPORT_TEXT_LIMIT
from models.routes import login_url
from state.forms import FormState, browser_id, form_text
from state.session import current_viewer
from translations.catalog import N_

CHOOSE_CATEGORY = N_("Choose what the problem is.")
_CATEGORY_INPUT = 20


class ReportState(FormState, rx.State):
    content_type: str = ""  # the ContentType being reported; "" while the dialog is closed
    content_id: int = 0
    outcome: str = ""  # an actions.reports.Reported once sent; "" while the form shows
    blocked: bool = False  # the member was blocked with the report

    @rx.event
    async def open_report(self, content_type: str, content_id: int):
        if await current_viewer(self) is None:
            return rx.redirect(login_url(self.router.url))
        found = browser_id(content_id)
        if content_type not in CONTENT_TYPES or found is None:
            return None
        self.reset()
        self.content_type, self.content_id = content_type, found
        return None

    @rx.event
    def close_report(self, keep_open: bool = False):
        """The dialog closed; after a block the page loads again, without the member."""
        if keep_open:
            return None
        reload = self.blocked
        self.reset()
        return rx.redirect(self.router.url.path) if reload else None

    @rx.event
    async def send_report(self, form: dict) -> None:
        viewer = await current_viewer(self)
        if viewer is None or not self.content_type or self.outcome:
            return
        category = form_text(form, "category", _CATEGORY_INPUT)
        if category not in MEMBER_REPORT_CATEGORIES:
            self.errors = {"category": await self._text(CHOOSE_CATEGORY)}
            return
        text = storable(form_text(form, "text", REPORT_TEXT_LIMIT)).strip()
        block = form.get("block") in ("on", "yes", True)
        report = MemberReport(self.content_type, self.content_id, category, text, block)
        self.busy = True
        try:
            self.outcome = await act(report_content, viewer, report)
        finally:
            self.busy = False
        self.errors, self.blocked = {}, block and self.outcome != Reported.UNAVAILABLE
