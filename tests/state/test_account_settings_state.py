"""Settings → account: each handler asks the database who the cookie belongs to, so a page left
open after a log-out elsewhere changes nothing."""

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from models.auth_session import AuthSession, end_session, member_id_for_token, start_session
from models.discount_codes import DiscountCode
from models.email_tokens import EmailToken
from models.member import Member
from models.passwords import verify_password
from state.account_settings import LOGIN_REDIRECT, AccountSettingsState
from state.i18n import I18nState
from state.session import SessionState
from state.shell import ShellState
from tests.factories import PASSWORD, committed, make_member_with_password, row_counts
from tests.state.conftest import redirects, run, scripts, substate
from translations.catalog import gettext
from translations.errors import CHECK_OLD_PASSWORD

NEW = "a brand new passphrase"
GUARDED = [
    ("claim_discount", None),
    ("change_password", {"current_password": PASSWORD, "new_password": NEW, "repeat": NEW}),
    ("change_email", {"email_password": PASSWORD, "email": "new@example.com"}),
    ("delete_account", {"password": PASSWORD, "note": ""}),
]


def fresh(db: Session) -> Session:
    db.rollback()
    db.expire_all()
    return db


async def settings_tab(make_root, token: str | None) -> AccountSettingsState:
    """The settings page as loaded with this session cookie (or none)."""
    cookie = {"cookie": f"auth.session={token}"} if token else {}
    root = make_root(url="/settings", **cookie)
    await substate(root, SessionState)._load()
    account = substate(root, AccountSettingsState)
    await account.reset_form()
    return account


@pytest.mark.parametrize(("handler", "form"), GUARDED, ids=[name for name, _ in GUARDED])
@pytest.mark.parametrize("cookie", ["missing", "ended"])
async def test_without_a_live_session_nothing_changes(
    make_root, db, outbox, handler, form, cookie
) -> None:
    member = make_member_with_password(db)
    token = committed(db, start_session, member.id)
    account = await settings_tab(make_root, token if cookie == "ended" else None)
    if cookie == "ended":  # logged out elsewhere after this page loaded
        assert (await account.get_state(SessionState)).logged_in
        committed(db, end_session, token)
    account.delete_reason = "privacy"
    before = fresh(db).get(Member, member.id).model_dump()
    method = getattr(account, handler)
    events = await run(method(form) if form is not None else method())
    assert redirects(events) == [LOGIN_REDIRECT]
    assert fresh(db).get(Member, member.id).model_dump() == before
    assert row_counts(db, DiscountCode, EmailToken) == {"DiscountCode": 0, "EmailToken": 0}
    assert outbox() == [] and account.discount_code == "" and account.email_sent_to == ""


async def test_the_settings_page_sends_visitors_to_the_log_in(make_root, db) -> None:
    events = await run(substate(make_root(url="/settings"), ShellState).on_page_load(True))
    assert redirects(events) == ["/login?next=%2Fsettings"]


async def test_a_wrong_current_password_is_refused(make_root, db) -> None:
    member = make_member_with_password(db)
    root = make_root(cookie=f"auth.session={committed(db, start_session, member.id)}")
    substate(root, I18nState).locale = "fr"
    account = substate(root, AccountSettingsState)
    form = {"current_password": "not my password", "new_password": NEW, "repeat": NEW}
    await run(account.change_password(form))
    assert account.errors == {"current_password": gettext("fr", CHECK_OLD_PASSWORD)}
    assert not account.password_saved
    assert verify_password(fresh(db).get(Member, member.id).password_hash, PASSWORD)


async def test_a_new_password_ends_the_other_sessions_only(make_root, db) -> None:
    member = make_member_with_password(db)
    mine, other = committed(db, start_session, member.id), committed(db, start_session, member.id)
    account = await settings_tab(make_root, mine)
    form = {"current_password": PASSWORD, "new_password": NEW, "repeat": NEW}
    await run(account.change_password(form))
    assert account.password_saved and account.errors == {}
    fresh(db)
    assert verify_password(db.get(Member, member.id).password_hash, NEW)
    assert member_id_for_token(db, mine) == member.id
    assert member_id_for_token(db, other) is None


async def test_an_email_change_mails_the_new_address(make_root, db, outbox) -> None:
    member = make_member_with_password(db)
    account = await settings_tab(make_root, committed(db, start_session, member.id))
    await run(account.change_email({"email_password": PASSWORD, "email": "New@Example.com"}))
    assert account.email_sent_to == "new@example.com" and account.errors == {}
    (mail,) = outbox()
    assert mail["To"].addresses[0].addr_spec == "new@example.com"
    assert fresh(db).get(Member, member.id).email == "anna@example.com"  # until confirmed


async def test_deleting_needs_the_password(make_root, db, outbox) -> None:
    member = make_member_with_password(db)
    token = committed(db, start_session, member.id)
    account = await settings_tab(make_root, token)
    account.choose_reason("privacy")
    events = await run(account.delete_account({"password": "wrong", "note": ""}))
    assert scripts(events) == [] and account.errors["password"]
    assert fresh(db).get(Member, member.id).status == "active"
    assert member_id_for_token(db, token) == member.id and outbox() == []


async def test_deleting_hides_the_account_and_logs_out(make_root, db, outbox) -> None:
    member = make_member_with_password(db)
    account = await settings_tab(make_root, committed(db, start_session, member.id))
    account.choose_reason("taking_break")
    events = await run(account.delete_account({"password": PASSWORD, "note": "back soon"}))
    assert scripts(events) == ['window.location.assign("/api/logout.php?next=/account-deleted")']
    stored = fresh(db).get(Member, member.id)
    assert (stored.status, stored.delete_reason) == ("deleted_pending", "taking_break")
    assert db.exec(select(AuthSession)).all() == []
    await settle()  # the reactivation link goes out after the commit
    assert len(outbox()) == 1


@pytest.mark.parametrize(("cookie", "saved"), [("live", "pl"), ("ended", "en"), ("none", "en")])
async def test_a_language_switch_is_saved_for_a_logged_in_member(
    make_root, db, cookie, saved
) -> None:
    member = make_member_with_password(db, language="en")
    token = committed(db, start_session, member.id)
    root = make_root(**({"cookie": f"auth.session={token}"} if cookie != "none" else {}))
    await substate(root, SessionState)._load()
    if cookie == "ended":
        committed(db, end_session, token)
    i18n = substate(root, I18nState)
    await i18n.switch("pl")
    assert (i18n.locale, i18n.locale_cookie) == ("pl", "pl")
    assert fresh(db).get(Member, member.id).language == saved
