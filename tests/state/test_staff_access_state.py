"""The way into the console as a tab goes it: every /staff page's load sends each browser to
its step, the enrolment shows the QR code and then the recovery codes once, the code page
takes a code and goes on where the staff member was going; open console tabs leave when the
access ends (the watch of state/staff_tabs.py)."""

from contextlib import asynccontextmanager
from datetime import timedelta

import pyotp
import pytest
from sqlmodel import Session, select

import state.staff_tabs
from actions.staff_access import WRONG_CODE, WRONG_PASSWORD, start_enrolment, totp_key
from actions.staff_roles import revoke_role
from models.auth_session import AuthSession, hash_token, start_session
from models.member import utcnow
from models.staff import Role, StaffRole, StaffTotp
from models.totp import open_secret
from state.i18n import I18nState
from state.staff_access import StaffAccessState
from state.staff_reports import StaffReportState
from state.staff_shell import StaffShellState
from tests.factories import PASSWORD, committed, make_member, make_member_with_password
from tests.state.conftest import redirects, run, substate
from translations.catalog import gettext

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own


def _staff(db: Session, email: str = "mod@example.com") -> tuple[int, str]:
    member = make_member_with_password(db, email)
    db.add(StaffRole(member_id=member.id, role=Role.MODERATOR))
    db.commit()
    return member.id, committed(db, start_session, member.id)


def _tab(make_root, url: str, token: str | None) -> StaffAccessState:
    cookie = {"cookie": f"auth.session={token}"} if token else {}
    return substate(make_root(url=url, **cookie), StaffAccessState)


async def _load(make_root, url: str, token: str | None) -> tuple[StaffAccessState, list[str]]:
    tab = _tab(make_root, url, token)
    return tab, redirects(await run(tab.check_access()))


def _now_code(secret: str, steps: int = 0) -> str:
    return pyotp.TOTP(secret).at(utcnow() + timedelta(seconds=30 * steps))


async def _enrolled(make_root, db: Session) -> tuple[int, str]:
    member_id, token = _staff(db)
    tab, _ = await _load(make_root, "/staff/enrol", token)
    await run(tab.unlock_enrolment({"password": PASSWORD}))
    await run(tab.confirm_code({"code": _now_code(tab.secret.replace(" ", ""))}))
    return member_id, token


async def test_a_visitor_logs_in_first_and_comes_back(make_root) -> None:
    _tab, sent = await _load(make_root, "/staff/reports?category=spam", None)
    assert sent == ["/login?next=%2Fstaff%2Freports%3Fcategory%3Dspam"]


async def test_a_pages_own_loads_leave_the_access_check_its_redirect(
    make_root, db: Session
) -> None:
    """A console page's on_load runs the access check, the navigation and the page's own load;
    after the check sent the tab to its step, the others (refused as well) say nothing, so the
    tab goes there: a visitor logs in and comes back to the case, not to /staff/verify."""
    member = make_member(db, "member@example.com")
    _member_id, no_authenticator = _staff(db)
    for token, step in (
        (None, "/login?next=%2Fstaff%2Freports%2F7"),
        (committed(db, start_session, member.id), "/404"),
        (no_authenticator, "/staff/enrol?next=%2Fstaff%2Freports%2F7"),
    ):
        access = _tab(make_root, "/staff/reports/7", token)
        root = access.parent_state
        on_load = (
            access.check_access,
            substate(root, StaffShellState).load,
            substate(root, StaffReportState).load,
        )
        sent = [redirects(await run(handler())) for handler in on_load]
        assert sent == [[step], [], []]


async def test_a_member_without_a_role_finds_nothing_here(make_root, db: Session) -> None:
    member = make_member(db)
    _tab, sent = await _load(make_root, "/staff", committed(db, start_session, member.id))
    assert sent == ["/404"]


async def test_staff_without_an_authenticator_set_it_up_first(make_root, db: Session) -> None:
    _member_id, token = _staff(db)
    _tab, sent = await _load(make_root, "/staff/reports", token)
    assert sent == ["/staff/enrol?next=%2Fstaff%2Freports"]
    tab, sent = await _load(make_root, "/staff/enrol?next=%2Fstaff%2Freports", token)
    assert sent == [] and tab.qr_code == tab.secret == ""  # the password first
    await run(tab.unlock_enrolment({"password": "not the password"}))
    assert tab.errors == {"password": gettext("en", WRONG_PASSWORD)} and tab.qr_code == ""
    await run(tab.unlock_enrolment({"password": PASSWORD}))
    assert tab.errors == {}
    assert tab.qr_code.startswith("data:image/svg+xml") and len(tab.secret.replace(" ", "")) == 32


async def test_the_enrolment_shows_the_recovery_codes_once(make_root, db: Session) -> None:
    _member_id, token = _staff(db)
    tab, _ = await _load(make_root, "/staff/enrol?next=%2Fstaff%2Freports", token)
    await run(tab.unlock_enrolment({"password": PASSWORD}))
    secret = tab.secret.replace(" ", "")
    right = {_now_code(secret, step) for step in (-1, 0, 1)}
    wrong = next(code for code in ("000000", "111111", "222222") if code not in right)
    await run(tab.confirm_code({"code": wrong}))
    assert tab.errors == {"code": gettext("en", WRONG_CODE)} and tab.recovery_codes == []
    await run(tab.confirm_code({"code": _now_code(secret)}))
    assert len(tab.recovery_codes) == 10 and tab.secret == tab.qr_code == ""
    assert redirects(await run(tab.finish_enrolment())) == ["/staff/reports"]
    assert tab.recovery_codes == []
    _tab, sent = await _load(make_root, "/staff/reports", token)
    assert sent == []  # this session passed the code with the enrolment


async def test_a_new_session_gives_the_code_and_goes_on(make_root, db: Session) -> None:
    member_id, _token = await _enrolled(make_root, db)
    token = committed(db, start_session, member_id)
    _tab, sent = await _load(make_root, "/staff/appeals", token)
    assert sent == ["/staff/verify?next=%2Fstaff%2Fappeals"]
    tab, sent = await _load(make_root, "/staff/verify?next=%2Fstaff%2Fappeals", token)
    assert sent == []
    substate(tab.parent_state, I18nState).locale = "de"
    await run(tab.submit_code({"code": "12345x"}))
    assert tab.errors == {"code": gettext("de", WRONG_CODE)} != {"code": WRONG_CODE}
    secret = _secret(db, member_id)
    assert redirects(await run(tab.submit_code({"code": _now_code(secret, 1)}))) == [
        "/staff/appeals"
    ]


def _secret(db: Session, member_id: int) -> str:
    db.expire_all()
    return open_secret(db.get(StaffTotp, member_id).secret, totp_key())


async def test_a_passed_session_never_continues_off_the_console(make_root, db: Session) -> None:
    _member_id, token = await _enrolled(make_root, db)
    for target in ("//evil.example", "/members", "https://evil.example/staff"):
        _tab, sent = await _load(make_root, f"/staff/verify?next={target}", token)
        assert sent == ["/staff"]


async def test_an_idle_session_gives_the_code_again(make_root, db: Session) -> None:
    _member_id, token = await _enrolled(make_root, db)
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).one()
    row.last_seen_at = utcnow() - timedelta(minutes=31)
    db.add(row)
    db.commit()
    _tab, sent = await _load(make_root, "/staff", token)
    assert sent == ["/staff/verify?next=%2Fstaff"]


async def test_the_enrolment_is_not_offered_twice(make_root, db: Session) -> None:
    member_id, _token = await _enrolled(make_root, db)
    token = committed(db, start_session, member_id)
    assert start_enrolment(token, PASSWORD).value is None
    _tab, sent = await _load(make_root, "/staff/enrol", token)
    assert sent == ["/staff/verify?next=%2Fstaff"]


# -- open console tabs ----------------------------------------------------------------------


class _FakeApp:
    """The parts of a serving rx.App the watch uses: connected tabs, their pages, and what
    was sent to each."""

    def __init__(self, pages: dict[str, str]) -> None:
        self.pages, self.sent = pages, {}
        self.event_namespace = self
        self._token_manager = self

    async def is_token_connected(self, token: str) -> bool:
        return token in self.pages

    @asynccontextmanager
    async def modify_state(self, token):
        yield _Root(self.pages[token.ident])

    async def emit_update(self, update, token: str) -> None:
        self.sent[token] = [event.payload["path"] for event in update.events]


class _Root:
    def __init__(self, path: str) -> None:
        self.router = type("Router", (), {"url": type("Url", (), {"path": path})()})()


async def test_a_revoked_role_sends_open_console_tabs_away(db: Session, monkeypatch) -> None:
    _member_id, token = _staff(db)
    member_token_hash = hash_token(token)
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == member_token_hash)).one()
    row.second_factor_at = row.last_seen_at = utcnow()
    db.add(row)
    db.commit()
    app = _FakeApp({"console": "/staff/reports", "left": "/members"})
    watched = {"console": member_token_hash, "left": member_token_hash, "gone": member_token_hash}
    monkeypatch.setattr(state.staff_tabs, "_watched", watched)
    assert await state.staff_tabs.send_ended_tabs_away(app) == 0
    assert set(watched) == {"console", "left"}  # a tab without a websocket is forgotten
    revoke_role("mod@example.com", Role.MODERATOR)
    assert await state.staff_tabs.send_ended_tabs_away(app) == 1
    assert app.sent == {"console": ["/staff/verify"]}  # which sends it on to "nothing here"
    assert watched == {}
