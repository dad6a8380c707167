"""Password reset: the request answers alike for every address, at most three mails a day, and
the link is checked on the server before and while it is used."""

from sqlmodel import Session

from actions.effects import settle
from models.auth_session import member_id_for_token, start_session
from models.member import Member
from models.password_reset import request_reset, reset_link_usable
from models.passwords import verify_password
from state.i18n import I18nState
from state.password_reset import ResetPasswordState, ResetRequestState
from tests.factories import PASSWORD, committed, make_member_with_password
from tests.state.conftest import run, scripts, substate
from translations.catalog import gettext
from translations.errors import PASSWORDS_DIFFER, TOO_MANY_PASSWORD_RESETS

NEW = "a brand new passphrase"


async def request(make_root, email: str, locale: str = "en") -> ResetRequestState:
    """One visit to /reset-password and one submit; waits for the mail sent in the background."""
    root = make_root(url="/reset-password")
    substate(root, I18nState).locale = locale
    page = substate(root, ResetRequestState)
    page.reset_form()
    await run(page.submit({"email": email}))
    await settle()
    return page


async def test_known_and_unknown_addresses_get_the_same_answer(make_root, db, outbox) -> None:
    make_member_with_password(db)
    known = await request(make_root, "anna@example.com")
    unknown = await request(make_root, "nobody@example.com")
    assert (known.sent_to, known.errors) == ("anna@example.com", {})
    assert (unknown.sent_to, unknown.errors) == ("nobody@example.com", {})
    (mail,) = outbox()
    assert mail["To"].addresses[0].addr_spec == "anna@example.com"


async def test_the_fourth_request_of_a_day_is_refused(make_root, db, outbox) -> None:
    make_member_with_password(db)
    for _ in range(3):
        assert (await request(make_root, "anna@example.com")).sent_to
    fourth = await request(make_root, "anna@example.com", "de")
    assert fourth.errors == {"": gettext("de", TOO_MANY_PASSWORD_RESETS)}
    assert fourth.sent_to == "" and len(outbox()) == 3


async def test_a_bad_link_shows_no_form(make_root, db) -> None:
    page = substate(make_root(url="/reset-password/do?token=forged"), ResetPasswordState)
    await page.check_link()
    assert page.checked and not page.link_ok


async def test_mismatched_passwords_keep_the_link_usable(make_root, db: Session) -> None:
    member = make_member_with_password(db)
    _, token = committed(db, request_reset, member.email)
    page = substate(make_root(url=f"/reset-password/do?token={token}"), ResetPasswordState)
    await page.check_link()
    assert page.link_ok
    events = await run(page.submit({"password": NEW, "repeat": NEW + "!"}))
    assert page.errors == {"repeat": gettext("en", PASSWORDS_DIFFER)} and scripts(events) == []
    assert reset_link_usable(db, token)


async def test_a_good_reset_ends_every_session_and_logs_in(make_root, db: Session) -> None:
    member = make_member_with_password(db)
    old_session = committed(db, start_session, member.id)
    _, token = committed(db, request_reset, member.email)
    page = substate(make_root(url=f"/reset-password/do?token={token}"), ResetPasswordState)
    events = await run(page.submit({"password": NEW, "repeat": NEW}))
    assert any("siteSession.handoff(" in script for script in scripts(events))
    db.rollback()
    db.expire_all()
    assert verify_password(db.get(Member, member.id).password_hash, NEW)
    assert not verify_password(db.get(Member, member.id).password_hash, PASSWORD)
    assert member_id_for_token(db, old_session) is None
    assert not reset_link_usable(db, token)
