"""The log-in form: the password is checked on the server, errors speak the tab's language, and
the session reaches the browser only through the hand-off script."""

import pytest
from sqlmodel import Session, select

from actions.accounts import log_in
from models.account_errors import AccountError
from models.auth_session import AuthSession
from models.member import utcnow
from services.client_address import client_key
from services.device_cookie import issue
from state.i18n import I18nState
from state.login import LoginState
from state.shell import ShellState
from tests.factories import PASSWORD, make_member_with_password, row_count
from tests.state.conftest import browser_delivers, run, scripts, substate
from translations.catalog import gettext
from translations.errors import LOGIN_FAILED, TOO_MANY_LOGIN_ATTEMPTS


async def test_a_wrong_password_shows_the_failure_in_the_tabs_language(make_root, db) -> None:
    make_member_with_password(db)
    root = make_root()
    substate(root, I18nState).locale = "nl"
    login = substate(root, LoginState)
    events = await run(login.submit({"email": "anna@example.com", "password": "wrong one"}))
    assert login.errors == {"": gettext("nl", LOGIN_FAILED)}
    assert login.errors[""] != LOGIN_FAILED  # really the Dutch text
    assert scripts(events) == [] and not login.busy
    assert row_count(db, AuthSession) == 0


async def test_a_good_login_hands_the_session_over_in_the_account_language(make_root, db) -> None:
    make_member_with_password(db, language="de")
    root = make_root(url="/login?next=/likes")
    substate(root, I18nState).locale = "nl"
    login = substate(root, LoginState)
    events = await run(login.submit({"email": "Anna@Example.com", "password": PASSWORD}))
    (script,) = scripts(events)
    assert script.startswith("window.siteSession.handoff(") and '"/likes"' in script
    i18n = substate(root, I18nState)
    assert (i18n.locale, i18n.locale_cookie) == ("de", "de")
    assert login.errors == {}
    (row,) = db.exec(select(AuthSession)).all()
    assert row.handoff_hash  # not usable as a cookie until the browser trades the code


@pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own
async def test_the_members_own_browser_passes_a_lock_of_its_address(make_root, db) -> None:
    """The device cookie the socket carries lets the member in where their address is locked
    (services/device_cookie.py); the same tab without it stays locked out."""
    member = make_member_with_password(db)
    here = client_key(substate(make_root(), LoginState).router.session.client_ip)
    for n in range(20):
        with pytest.raises(AccountError):
            log_in(f"guess{n}@example.com", "wrong one", here)
    form = {"email": "anna@example.com", "password": PASSWORD}
    stranger = substate(make_root(), LoginState)
    assert scripts(await run(stranger.submit(form))) == []
    assert stranger.errors[""] == gettext("en", TOO_MANY_LOGIN_ATTEMPTS, minutes=15)
    own = substate(make_root(cookie=f"auth.device={issue(member, utcnow())}"), LoginState)
    (script,) = scripts(await run(own.submit(form)))
    assert script.startswith("window.siteSession.handoff(") and own.errors == {}


async def test_a_language_chosen_on_the_page_wins_at_login_and_is_saved(make_root, db) -> None:
    member = make_member_with_password(db, language="de")
    root = make_root(url="/login")
    i18n = substate(root, I18nState)
    await i18n.switch("fi")
    login = substate(root, LoginState)
    events = await run(login.submit({"email": "anna@example.com", "password": PASSWORD}))
    assert scripts(events)[0].startswith("window.siteSession.handoff(")
    assert (i18n.locale, i18n.locale_cookie) == ("fi", "fi")
    db.refresh(member)
    assert member.language == "fi"


async def _reload(root, cookie: str) -> None:
    """The tab loads the page afresh with the browser's locale cookie ('': none)."""
    browser_delivers(root, I18nState, locale_cookie=cookie, reload=True)
    await substate(root, ShellState).on_page_load()


async def _log_in(root) -> None:
    await run(
        substate(root, LoginState).submit({"email": "anna@example.com", "password": PASSWORD})
    )


async def test_a_pick_still_wins_at_login_after_its_tab_reloaded(make_root, db) -> None:
    member = make_member_with_password(db, language="de")
    root = make_root(url="/login")
    await _reload(root, "")
    await substate(root, I18nState).switch("fi")
    await _reload(root, "fi")
    await _log_in(root)
    db.refresh(member)
    assert (member.language, substate(root, I18nState).locale) == ("fi", "fi")


async def test_a_pick_another_tab_replaced_is_not_saved_at_login(make_root, db) -> None:
    """Tab 1 picked Finnish, tab 2 then Norwegian: tab 1, reloaded, shows Norwegian, and
    logging in there saves neither its old pick nor a language picked in another tab."""
    member = make_member_with_password(db, language="de")
    first, second = make_root(url="/login"), make_root(url="/login")
    for tab in (first, second):
        await _reload(tab, "")
    await substate(first, I18nState).switch("fi")
    await substate(second, I18nState).switch("nb")
    await _reload(first, "nb")
    assert substate(first, I18nState).locale == "nb"
    await _log_in(first)
    db.refresh(member)
    assert (member.language, substate(first, I18nState).locale) == ("de", "de")


async def test_an_account_awaiting_deletion_gets_no_session(make_root, db: Session) -> None:
    make_member_with_password(db, status="deleted_pending")
    login = substate(make_root(), LoginState)
    events = await run(login.submit({"email": "anna@example.com", "password": PASSWORD}))
    assert login.awaiting_deletion and scripts(events) == []
    assert row_count(db, AuthSession) == 0


@pytest.mark.parametrize(
    ("query", "expected"),
    [("?next=//evil.com", "/members"), ("?next=https://evil.com", "/members"),
     ("?next=/%5Cevil.com", "/members"), ("?next=/%09/evil.com", "/members"),
     ("?next=/%0A%5Cevil.com", "/members"), ("?next=/likes", "/likes"), ("", "/members")],
)  # fmt: skip
def test_next_path_stays_on_this_site(make_root, query: str, expected: str) -> None:
    login = substate(make_root(url=f"/login{query}"), LoginState)
    assert login._next_path() == expected
