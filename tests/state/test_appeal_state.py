"""The statement page and the ban: /appeal/<token> and /pages/ban?statement=<token> show the
statement and take an appeal without a log-in; a banned member's log-in leads there; their open
tabs are sent there."""

from contextlib import asynccontextmanager

import pytest
import reflex as rx
from sqlmodel import Session, select

from actions.moderation import MemberSentAway, decide
from actions.staff_viewer import StaffViewer
from models.moderation import Appeal, Report
from models.staff import Role
from services.appeal_tokens import MEMBER, NOTIFIER, appeal_token
from state import appeal
from state.appeal import AppealState, send_tab_away
from state.i18n import I18nState
from state.login import LoginState
from state.session import SessionState
from tests.factories import PASSWORD, make_member_with_password
from tests.state.conftest import redirects, run, scripts, substate

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own


def _ban(db: Session) -> tuple[int, int]:
    bob = make_member_with_password(db, "bob@example.com", language="de")
    staff = StaffViewer(99, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    done = decide(staff, None, bob.id, "profile", bob.id, "ban", "law", "Art. 263 StGB",
                  "Asked members for money with a false story.", None)  # fmt: skip
    return bob.id, done.value


async def test_the_appeal_page_shows_the_statement_and_takes_the_appeal(make_root, db) -> None:
    _, decision_id = _ban(db)
    root = make_root(url=f"/appeal/{appeal_token(decision_id, MEMBER)}")
    substate(root, I18nState).locale = "de"
    page = substate(root, AppealState)
    await run(page.load())
    assert page.found and page.party == MEMBER and page.can_appeal
    assert (page.measure, page.scope, page.ground_type) == ("ban", "account", "law")
    assert page.facts == "Asked members for money with a false story."
    assert page.ends_on == "" and page.appeal_until > page.decided_on

    await run(page.send({"text": "  I never asked anyone for money.  "}))
    (filed,) = db.exec(select(Appeal)).all()
    assert (filed.text, filed.language) == ("I never asked anyone for money.", "de")
    assert page.sent and page.appeal_status == "open" and not page.can_appeal
    await run(page.send({"text": "Once more"}))
    assert len(db.exec(select(Appeal)).all()) == 1


async def test_the_ban_page_shows_the_members_own_statement_only_with_their_token(
    make_root, db
) -> None:
    _, decision_id = _ban(db)
    page = substate(make_root(url=f"/pages/ban?statement={appeal_token(decision_id, MEMBER)}"),
                    AppealState)  # fmt: skip
    await run(page.load())
    assert page.found and page.facts
    for url in ("/pages/ban", f"/pages/ban?statement={decision_id}m{'0' * 32}"):
        general = substate(make_root(url=url), AppealState)
        await run(general.load())
        assert not general.found


async def test_the_notifier_s_page_has_no_facts(make_root, db) -> None:
    bob = make_member_with_password(db, "bob@example.com", language="de")
    notice = Report(reference="N1", source="notice", category="fake_or_scam",
                    content_type="profile", content_id=bob.id, reported_id=bob.id,
                    notifier_email="nora@example.org")  # fmt: skip
    db.add(notice)
    db.commit()
    staff = StaffViewer(99, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    decide(staff, notice.id, bob.id, "profile", bob.id, "warning", "terms", "5",
           "Insulted members.", None)  # fmt: skip
    page = substate(make_root(url=f"/appeal/{appeal_token(notice.id, NOTIFIER)}"), AppealState)
    await run(page.load())
    assert page.found and page.party == NOTIFIER and page.facts == ""
    assert page.rule and page.ground == "5" and page.source == "notice"


async def test_a_banned_member_logging_in_is_sent_to_their_statement(make_root, db) -> None:
    _, decision_id = _ban(db)
    login = substate(make_root(url="/login"), LoginState)
    events = await run(login.submit({"email": "bob@example.com", "password": PASSWORD}))
    assert scripts(events) == []  # no session handed over
    assert redirects(events) == [f"/pages/ban?statement={appeal_token(decision_id, MEMBER)}"]


class _FakeApp:
    """What `send_tab_away` uses of the serving app: a tab's state and its socket."""

    def __init__(self, roots: dict[str, rx.State]) -> None:
        self.roots, self.sent = roots, []
        self.event_namespace = self

    @asynccontextmanager
    async def modify_state(self, token):
        yield self.roots[token.ident]

    async def emit_update(self, update, token: str) -> None:
        self.sent.append((token, [event.payload["path"] for event in update.events]))


async def test_the_members_open_tab_is_cleared_and_sent_to_the_statement(
    make_root, monkeypatch
) -> None:
    own, other = make_root(), make_root()
    substate(own, SessionState)._member_id = 7
    substate(own, SessionState).logged_in = True
    substate(other, SessionState)._member_id = 8
    app = _FakeApp({"own": own, "other": other})
    monkeypatch.setattr(appeal, "serving_app", lambda: app)
    away = MemberSentAway(7, "/pages/ban?statement=7mabc")
    assert await send_tab_away(away, "own")
    assert not await send_tab_away(away, "other")
    assert app.sent == [("own", ["/pages/ban?statement=7mabc"])]
    assert not substate(own, SessionState).logged_in
    assert substate(other, SessionState)._member_id == 8
