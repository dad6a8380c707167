"""The statement of reasons and its appeal form, at /appeal/<token> (from the mails) and on
/pages/ban?statement=<token> (where a suspended or banned member's tabs and log-in lead). No
log-in: a banned member cannot log in; the token (services/appeal_tokens.py) names the
decision and the party.

Also here: sending a suspended or banned member's open tabs to their statement within seconds.
`actions.moderation.decide` ends every session of the member in its transaction; after the
commit its `MemberSentAway` effect finds the member's tabs in the live registry
(services/tab_registry.py), as `state/live.py` does. The usual push checks the tab's session
cookie, which names nobody any more; here the tab's own state must still show this member. Its
session state is cleared and the browser loads the statement page."""

import asyncio
import logging

import reflex as rx
from reflex.event import Event
from reflex.state import StateUpdate

from actions.effects import handles
from actions.moderation import (
    MAX_APPEAL,
    MemberSentAway,
    StatementView,
    statement_for,
    submit_appeal,
)
from actions.runner import act, read
from models.statement_labels import rule_title, scope_of, source_key
from services.appeal_tokens import MAX_TOKEN
from services.outages import log_failure
from services.tab_registry import tab_registry
from state.forms import form_text
from state.i18n import I18nState
from state.session import SessionState
from state.tab_keeper import serving_app

log = logging.getLogger(__name__)
BAN_PAGE_TOKEN = "statement"  # the query parameter of /pages/ban


def _date(moment) -> str:
    return moment.date().isoformat() if moment else ""


class AppealState(rx.State):
    found: bool = False
    party: str = ""  # services/appeal_tokens MEMBER or NOTIFIER
    measure: str = ""
    scope: str = ""  # a key of models/statement_labels.SCOPE_LABELS
    ends_on: str = ""  # YYYY-MM-DD, "" for none
    facts: str = ""
    source: str = ""
    automated: bool = False
    ground_type: str = ""
    ground: str = ""
    rule: bool = False  # the ground is a conduct rule: its title and the terms' link shown
    content_kind: str = ""  # "photo" or "message" concerned, "" for none named
    content_on: str = ""
    content_excerpt: str = ""
    decided_on: str = ""
    appeal_until: str = ""
    reversed: bool = False
    appeal_status: str = ""  # this party's appeal: "", open, upheld, reversed
    can_appeal: bool = False
    sent: bool = False
    busy: bool = False
    _token: str = ""

    def _page_token(self) -> str:
        path = self.router.url.path
        if path.startswith("/appeal/"):
            token = path.removeprefix("/appeal/").strip("/")
        else:
            token = str(self.router.url.query_parameters.get(BAN_PAGE_TOKEN) or "")
        return token[: MAX_TOKEN + 1]

    @rx.event
    async def load(self) -> None:
        self.reset()
        self._token = self._page_token()
        view = await read(statement_for, self._token) if self._token else None
        if view is not None:
            self._show(view)

    def _show(self, view: StatementView) -> None:
        self.found, self.party = True, view.party
        self.measure, self.scope = view.measure, scope_of(view.measure, view.scope_content)
        self.ends_on, self.facts = _date(view.ends_at), view.facts
        self.source = source_key(view.source, view.scope_content)
        self.automated, self.ground_type = view.automated_detection, view.ground_type
        self.ground, self.decided_on = view.ground, _date(view.decided_at)
        self.rule = bool(rule_title(view.ground_type, view.ground))
        if view.content is not None:
            self.content_kind, self.content_on = view.content.kind, _date(view.content.on)
            self.content_excerpt = view.content.excerpt
        self.appeal_until, self.reversed = _date(view.appeal_until), view.reversed
        self.appeal_status, self.can_appeal = view.appeal_status, view.can_appeal

    @rx.event
    async def send(self, form: dict):
        if not self.can_appeal or self.busy:
            return
        text = form_text(form, "text", MAX_APPEAL).strip()
        if not text:
            return
        self.busy = True
        yield
        language = (await self.get_state(I18nState)).locale
        filed = await act(submit_appeal, self._token, text, language)
        self.busy, self.sent = False, filed
        view = await read(statement_for, self._token)
        if view is not None:
            self._show(view)


@handles(MemberSentAway)
async def _send_away(effect: MemberSentAway) -> None:
    try:
        tokens = await tab_registry().tokens(effect.member_id)
    except Exception:
        log.warning("tab registry unavailable: tabs of member %s not sent away", effect.member_id)
        return
    await asyncio.gather(*(send_tab_away(effect, token) for token in tokens))


async def send_tab_away(effect: MemberSentAway, token: str) -> bool:
    """Clear the tab's session state and load `effect.path` in it, if the tab belongs to the
    member; whether it did."""
    app = serving_app()
    if app is None:
        return False
    try:
        async with app.modify_state(rx.BaseStateToken(ident=token, cls=SessionState)) as root:
            session = await root.get_state(SessionState)
            if session._member_id != effect.member_id:
                return False
            session._clear()
        update = StateUpdate(events=Event.from_event_type(rx.redirect(effect.path, replace=True)))
        await app.event_namespace.emit_update(update, token)
    except Exception:
        log_failure(log, "sending a tab of member %s away failed", effect.member_id)
        return False
    return True
