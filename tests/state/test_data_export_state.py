"""Settings → account → "Download my data": the password, once a day, the mail after the build."""

from sqlmodel import select

from actions.effects import settle
from models.attempts import ClientFailure
from models.auth_session import start_session
from models.data_export import ONE_A_DAY, DataExport
from models.login import WRONG_PASSWORD
from services.mail import links_in
from state.account_settings import LOGIN_REDIRECT, AccountSettingsState
from state.i18n import I18nState
from tests.factories import PASSWORD, committed, make_member_with_password
from tests.state.conftest import redirects, run, substate
from translations.catalog import gettext


async def _settings(make_root, db, locale: str = "en") -> AccountSettingsState:
    member = make_member_with_password(db)
    root = make_root(
        url="/settings", cookie=f"auth.session={committed(db, start_session, member.id)}"
    )
    substate(root, I18nState).locale = locale
    return substate(root, AccountSettingsState)


async def test_a_wrong_password_is_refused_in_the_pages_language(make_root, db, outbox) -> None:
    account = await _settings(make_root, db, "pl")
    await run(account.request_export({"export_password": "not my password"}))
    assert account.errors == {"export_password": gettext("pl", WRONG_PASSWORD)}
    assert not account.export_requested and not account.busy
    assert db.exec(select(DataExport)).all() == [] and outbox() == []
    assert len(db.exec(select(ClientFailure)).all()) == 1  # counted as a log-in's would be


async def test_a_request_mails_the_link_once_built(make_root, db, outbox) -> None:
    account = await _settings(make_root, db)
    await run(account.request_export({"export_password": PASSWORD}))
    assert account.export_requested and account.errors == {}
    await settle()  # the build and the mail run after the commit
    (mail,) = outbox()
    assert "/api/data-export.php?token=" in links_in(mail)[0]


async def test_a_second_request_the_same_day_is_refused(make_root, db, outbox) -> None:
    account = await _settings(make_root, db, "de")
    await run(account.request_export({"export_password": PASSWORD}))
    await settle()
    await run(account.request_export({"export_password": PASSWORD}))
    assert account.errors == {"export_password": gettext("de", ONE_A_DAY)}
    assert gettext("de", ONE_A_DAY) != ONE_A_DAY
    assert not account.export_requested
    assert len(db.exec(select(DataExport)).all()) == 1 and len(outbox()) == 1


async def test_a_visitor_is_sent_to_the_log_in(make_root, db, outbox) -> None:
    account = substate(make_root(url="/settings"), AccountSettingsState)
    events = await run(account.request_export({"export_password": PASSWORD}))
    assert redirects(events) == [LOGIN_REDIRECT]
    assert db.exec(select(DataExport)).all() == []
