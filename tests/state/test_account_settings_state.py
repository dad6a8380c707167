"""Settings → account: each handler asks the database who the cookie belongs to, so a page left
open after a log-out elsewhere changes nothing."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from models.auth_session import AuthSession, end_session, member_id_for_token, start_session
from models.discount_codes import DiscountCode, redeem
from models.email_tokens import EmailToken
from models.member import Member, utcnow
from models.orders import Order
from models.passwords import verify_password
from models.site_settings import save_setting
from services.site_settings import forget_cached_settings
from state.account_settings import LOGIN_REDIRECT, AccountSettingsState
from state.i18n import I18nState
from state.session import SessionState
from state.shell import ShellState
from tests.factories import PASSWORD, committed, make_member_with_password, row_counts
from tests.state.conftest import handle, redirects, run, scripts, substate
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
    events = await run(handle(account, handler, *([] if form is None else [form])))
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
    assert scripts(await run(account.change_password(form))) == []
    assert account.errors == {"current_password": gettext("fr", CHECK_OLD_PASSWORD)}
    assert not account.password_saved
    assert verify_password(fresh(db).get(Member, member.id).password_hash, PASSWORD)


async def test_a_new_password_ends_the_other_sessions_only(make_root, db) -> None:
    member = make_member_with_password(db)
    mine, other = committed(db, start_session, member.id), committed(db, start_session, member.id)
    account = await settings_tab(make_root, mine)
    form = {"current_password": PASSWORD, "new_password": NEW, "repeat": NEW}
    events = await run(account.change_password(form))
    assert account.password_saved and account.errors == {}
    assert scripts(events) == ["window.siteSession.renewDevice()"]  # the new password voided it
    fresh(db)
    assert verify_password(db.get(Member, member.id).password_hash, NEW)
    assert member_id_for_token(db, mine) == member.id
    assert member_id_for_token(db, other) is None


async def test_an_email_change_mails_the_new_address(make_root, db, outbox) -> None:
    member = make_member_with_password(db)
    account = await settings_tab(make_root, committed(db, start_session, member.id))
    await run(
        handle(account, "change_email", {"email_password": PASSWORD, "email": "New@Example.com"})
    )
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


async def in_the_deletion_flow(account: AccountSettingsState) -> None:
    """The member opens the deletion flow, names a reason and reaches the alternatives."""
    await run(account.delete_go(1))
    account.choose_reason("too_expensive")
    await run(account.delete_go(2))
    assert account.delete_step == 2


def stay_codes(db: Session) -> list[DiscountCode]:
    return fresh(db).exec(select(DiscountCode)).all()


async def test_the_deletion_flow_offers_one_discount_code(make_root, db) -> None:
    member = make_member_with_password(db)
    token = committed(db, start_session, member.id)
    account = await settings_tab(make_root, token)
    await in_the_deletion_flow(account)
    assert not account.discount_gone
    await run(account.claim_discount())
    (code,) = stay_codes(db)
    assert account.discount_code == code.code
    assert (code.member_id, code.value_percentage) == (member.id, 50)  # settings' delete_discount
    await run(account.claim_discount())  # again in this tab
    again = await settings_tab(make_root, token)  # and in the flow in another tab
    await in_the_deletion_flow(again)
    assert again.discount_gone and again.discount_code == code.code  # shown, not a second one
    await run(again.claim_discount())
    assert again.discount_code == code.code and len(stay_codes(db)) == 1


async def test_a_claimed_code_still_usable_is_shown_again_with_its_expiry(
    make_root, db, fresh_settings
) -> None:
    """Back in the flow later, a member whose code is neither used nor run out sees that code
    and its last day, at its own percentage, instead of only hearing they had it."""
    member = make_member_with_password(db)
    token = committed(db, start_session, member.id)
    first = await settings_tab(make_root, token)
    await in_the_deletion_flow(first)
    await run(first.claim_discount())
    (code,) = stay_codes(db)
    save_setting(db, "delete_discount", 30)  # the offer changed since
    db.commit()
    forget_cached_settings()
    later = await settings_tab(make_root, token)
    await in_the_deletion_flow(later)
    assert (later.discount_code, later.delete_discount) == (code.code, 50)
    assert later.discount_expires == (utcnow() + timedelta(days=30)).date().isoformat()


@pytest.mark.parametrize("after", ["paid an order", "ran out", "other tab"])
async def test_no_second_code_after_the_first_was_used_or_ran_out(make_root, db, after) -> None:
    member = make_member_with_password(db)
    token = committed(db, start_session, member.id)
    first = await settings_tab(make_root, token)
    await in_the_deletion_flow(first)
    second = await settings_tab(make_root, token)  # in the flow before the first tab claims
    await in_the_deletion_flow(second)
    await run(first.claim_discount())
    (code,) = stay_codes(db)
    if after == "paid an order":
        order = Order(
            member_id=member.id, tier="p0", credits=100, list_cents=1995, amount_cents=998,
            currency="EUR", country="NL", method="ideal", provider="test", paid_at=utcnow(),
        )  # fmt: skip
        db.add(order)
        db.commit()
        assert committed(db, redeem, code.id, member.id, order.id, True)
    elif after == "ran out":
        code.expires_at = utcnow() - timedelta(days=1)
        db.add(code)
        db.commit()
    later = second if after == "other tab" else await settings_tab(make_root, token)
    if after != "other tab":
        await in_the_deletion_flow(later)
        assert later.discount_gone  # the page says so instead of offering it
    await run(later.claim_discount())
    if after == "other tab":  # the code the first tab made, still usable: shown here too
        assert later.discount_code == code.code
    else:
        assert later.discount_code == "" and later.discount_gone
    assert [c.id for c in stay_codes(db)] == [code.id]


async def test_no_discount_code_outside_the_deletion_flow(make_root, db) -> None:
    """The claim counts only at the flow's alternatives step, which the server sets itself after
    a reason: asking for that step first, or claiming at another step, gives nothing."""
    member = make_member_with_password(db)
    account = await settings_tab(make_root, committed(db, start_session, member.id))
    await run(account.claim_discount())  # the flow closed
    for step in (2, 3, 9, "2"):  # skipping the reason
        await run(account.delete_go(step))
        assert account.delete_step == 0
    await run(account.delete_go(1))
    await run(account.delete_go(2))  # no reason chosen
    assert account.delete_step == 1
    await run(account.claim_discount())
    account.choose_reason("privacy")
    await run(account.delete_go(2))
    await run(account.delete_go(3))
    assert account.delete_step == 3
    await run(account.claim_discount())  # past the offer
    assert stay_codes(db) == [] and account.discount_code == ""
    assert fresh(db).get(Member, member.id).retention_offered_at is None


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    """Site settings read from this test's database, and not left cached for the next."""
    forget_cached_settings()
    yield
    forget_cached_settings()


@pytest.mark.parametrize("discount", [0, 30])
async def test_an_offer_changed_while_the_page_is_open_shows_as_it_stands(
    make_root, db, fresh_settings, discount
) -> None:
    """An admin switches the offer off (0) or changes it while the member is at the
    alternatives: switched off, the page offers nothing and never says the member already had
    it; changed, the page shows the percentage of the code they got."""
    member = make_member_with_password(db)
    account = await settings_tab(make_root, committed(db, start_session, member.id))
    await in_the_deletion_flow(account)
    assert account.delete_discount == 50  # the default offer
    save_setting(db, "delete_discount", discount)
    db.commit()
    forget_cached_settings()
    await run(account.claim_discount())
    assert not account.discount_gone and account.delete_discount == discount
    assert [code.value_percentage for code in stay_codes(db)] == ([discount] if discount else [])
    assert (account.discount_code != "") == (discount > 0)
