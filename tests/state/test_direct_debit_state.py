"""The direct debit screens' state: the form with its errors beside the fields in the member's
language (what was typed kept, the IBAN never in the state), the mandate to review with the
IBAN and phone masked, the code by SMS with its throttle and 'Code ongeldig', and the order's
result page; the blocked and not-offered texts; /credits handing direct debit over; nothing for
a logged-out tab, nothing unbounded from the browser."""

import json
import re
from datetime import timedelta

import pytest
from sqlmodel import Session, select

import actions.direct_debit_flow
from actions.effects import settle
from models.direct_debit import SddMandate, SmsCode
from models.member import Member, utcnow
from models.orders import Order
from services.payments.mollie import MollieClient
from services.payments.types import ProviderError
from services.sms import sms_outbox_messages
from state.credits import CreditsState
from state.direct_debit import (
    BLOCKED,
    CODE,
    FIELD_LIMITS,
    FORM,
    MANDATE,
    NOT_AVAILABLE,
    DirectDebitState,
    code_digits,
    form_values,
)
from tests.factories import make_member
from tests.state.conftest import redirects, run, substate
from tests.state.payment_tabs import (  # noqa: F401 - fixtures
    old_member,
    paying,
    provider_client,
    tab,
    testpay,
    testpay_clock,
    testpay_webhooks,
)
from translations.catalog import gettext
from translations.errors import (
    SDD_DEBIT_REFUSED,
    SDD_INVALID_IBAN,
    SDD_INVALID_PHONE,
    SMS_CODE_EXPIRED,
    SMS_RESEND_TOO_SOON,
)

IBAN = "NL91ABNA0417164300"
FILLED = {
    "account_holder": "Anna de Vries",
    "iban": "NL91 ABNA 0417 1643 00",
    "street": "Keizersgracht",
    "house_number": "12a",
    "zip": "1015 cj",
    "city": "Amsterdam",
    "phone": "06 12345678",
}


@pytest.fixture
def debiting(
    paying: MollieClient,  # noqa: F811
    testpay_clock,  # noqa: F811
    outbox,
    monkeypatch: pytest.MonkeyPatch,
) -> MollieClient:
    """The direct debit flow talks to the built-in test provider, whose clock reads today (a
    mandate is signed today); SMS land in the outbox."""
    testpay_clock.now = utcnow()
    monkeypatch.setattr(actions.direct_debit_flow, "payment_client", lambda: paying)
    return paying


pytestmark = pytest.mark.usefixtures("debiting")


async def opened(
    make_root, db: Session, who: Member | None, url: str = "/directdebit?tier=p1", **tab_state
):
    """/directdebit loaded in a new tab of `who`; its state and the events its load gave."""
    root = await tab(make_root, db, who, url, tab_state.pop("locale", "en"))
    for name, value in tab_state.items():  # what /credits left in this tab
        setattr(substate(root, CreditsState), name, value)
    debit = substate(root, DirectDebitState)
    return debit, await run(debit.load_page())


async def at_code_step(make_root, db: Session, who: Member, locale: str = "en"):
    debit, _ = await opened(make_root, db, who, locale=locale)
    await run(debit.submit_form(FILLED))
    await run(debit.confirm_mandate())
    await settle()
    assert debit.step == CODE, debit.errors
    return debit


def sent_codes() -> list[str]:
    return [re.search(r"\b(\d{6})\b", sms.text).group(1) for sms in sms_outbox_messages()]


def orders(db: Session) -> list[Order]:
    db.rollback()
    db.expire_all()
    return db.exec(select(Order)).all()


def test_the_browser_sends_bounded_fields_and_digits() -> None:
    values = form_values({**FILLED, "iban": "X" * 5000, "evil": "y", "phone": None})
    assert set(values) == set(FIELD_LIMITS)
    assert len(values["iban"]) == FIELD_LIMITS["iban"] + 1 and values["phone"] == ""
    assert code_digits({"code": " 12 34-56 "}) == "123456"
    assert code_digits({"code": "1" * 5000}) == "1" * 20
    assert code_digits({}) == ""


async def test_the_form_opens_for_a_euro_bundle(make_root, db: Session) -> None:
    debit, events = await opened(make_root, db, old_member(db))
    assert events == [] and debit.step == FORM and debit.tier == "p1"
    assert debit.bundle["tier"] == "p1" and debit.bundle["price"].startswith("€")


async def test_an_unknown_bundle_goes_back_to_credits(make_root, db: Session) -> None:
    debit, events = await opened(make_root, db, old_member(db), "/directdebit?tier=p9")
    assert redirects(events) == ["/credits"] and debit.step != FORM


async def test_blocked_and_not_offered(make_root, db: Session) -> None:
    anna = old_member(db, sdd_blocked_at=utcnow(), sdd_block_reason="AC04")
    debit, _ = await opened(make_root, db, anna)
    assert debit.step == BLOCKED
    await run(debit.submit_form(FILLED))
    assert debit.step == BLOCKED and debit.mandate == {}
    bob = old_member(db, "bob@example.com")
    debit, _ = await opened(make_root, db, bob, payment_country="PL")  # paid in zloty
    assert debit.step == NOT_AVAILABLE


async def test_errors_beside_their_fields_in_the_members_language(make_root, db: Session) -> None:
    anna = old_member(db, language="nl")
    debit, _ = await opened(make_root, db, anna, locale="nl")
    await run(debit.submit_form({**FILLED, "iban": "NL91 ABNA 0417 1643 01", "phone": "12"}))
    assert debit.step == FORM and set(debit.errors) == {"iban", "phone"}
    assert debit.errors == {
        "iban": gettext("nl", SDD_INVALID_IBAN),
        "phone": gettext("nl", SDD_INVALID_PHONE),
    }
    assert debit.errors["iban"] != SDD_INVALID_IBAN  # in Dutch
    kept = {name: value for name, value in FILLED.items() if name != "iban"}
    assert debit.values == {**kept, "phone": "12"}  # typed values back, never the IBAN
    await run(debit.submit_form({}))
    assert set(debit.errors) == set(FIELD_LIMITS)


async def test_the_mandate_shows_the_iban_masked_only(make_root, db: Session) -> None:
    anna = old_member(db)
    debit, _ = await opened(make_root, db, anna)
    await run(debit.submit_form(FILLED))
    assert debit.step == MANDATE and debit.errors == {}
    mandate = debit.mandate
    assert mandate["iban_masked"].startswith("NL91") and mandate["iban_masked"].endswith("4300")
    assert mandate["holder"] == "Anna de Vries" and mandate["amount"].startswith("€")
    assert mandate["creditor_identifier"] and mandate["reference"]
    assert "8" in mandate["refund_right"] and mandate["authorisation"]
    assert "12345678" not in mandate["phone_masked"]
    shown = json.dumps(debit.dict(), default=str).replace(" ", "")
    assert IBAN not in shown and IBAN[4:] not in shown  # nowhere in what the browser gets
    assert "iban" not in debit.values


async def test_the_whole_flow_to_the_pending_order(make_root, db: Session) -> None:
    anna = old_member(db)
    debit = await at_code_step(make_root, db, anna)
    [sms] = sms_outbox_messages()
    assert sms.to == "+31612345678"
    [code] = sent_codes()
    events = await run(debit.submit_code({"code": code}))
    [order] = orders(db)
    assert redirects(events) == [f"/transactions/{order.id}"]
    assert (order.member_id, order.method, order.tier) == (anna.id, "directdebit", "p1")
    assert order.status in ("open", "pending") and order.paid_at is None
    mandate = db.exec(select(SddMandate)).one()
    assert (mandate.status, mandate.order_id, mandate.iban) == ("signed", order.id, IBAN)
    assert debit.mandate == {} and debit.busy  # busy while the page leaves
    assert await run(debit.submit_code({"code": code})) == []


async def test_a_wrong_code_is_code_ongeldig(make_root, db: Session) -> None:
    debit = await at_code_step(make_root, db, old_member(db, language="nl"), locale="nl")
    [code] = sent_codes()
    wrong = "000000" if code != "000000" else "111111"
    events = await run(debit.submit_code({"code": wrong}))
    assert events == [] and debit.code_error == "Code ongeldig" and not debit.busy
    await run(debit.submit_code({"code": "12"}))
    assert debit.code_error == "Code ongeldig" and orders(db) == []


async def test_a_new_code_waits_a_minute(make_root, db: Session) -> None:
    debit = await at_code_step(make_root, db, old_member(db))
    await run(debit.resend_code())
    await settle()
    assert debit.code_error == SMS_RESEND_TOO_SOON and debit.notice == ""
    assert len(sent_codes()) == 1
    for row in db.exec(select(SmsCode)).all():  # the first code's minute has passed
        row.created_at -= timedelta(minutes=2)
        db.add(row)
    db.commit()
    await run(debit.resend_code())
    await settle()
    assert debit.code_error == "" and debit.notice and len(sent_codes()) == 2
    first, second = sent_codes()
    if first != second:  # the earlier code stopped working
        await run(debit.submit_code({"code": first}))
        assert debit.code_error
    assert redirects(await run(debit.submit_code({"code": second})))


async def test_an_expired_code_asks_for_a_new_one(make_root, db: Session) -> None:
    debit = await at_code_step(make_root, db, old_member(db))
    [code] = sent_codes()
    row = db.exec(select(SmsCode)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()
    assert await run(debit.submit_code({"code": code})) == []
    assert debit.code_error == SMS_CODE_EXPIRED and orders(db) == []


async def test_changing_details_starts_a_new_mandate(make_root, db: Session) -> None:
    debit, _ = await opened(make_root, db, old_member(db))
    await run(debit.submit_form(FILLED))
    await run(debit.edit())
    assert debit.step == FORM and debit.mandate == {}
    assert debit.values["city"] == "Amsterdam" and "iban" not in debit.values


async def test_credits_hands_direct_debit_over(make_root, db: Session) -> None:
    root = await tab(make_root, db, old_member(db), "/credits")
    credits = substate(root, CreditsState)
    await run(credits.load_page())
    await run(credits.choose_tier("p2"))
    if "directdebit" not in [method["id"] for method in credits.methods]:
        credits.methods = [*credits.methods, {"id": "directdebit", "label": "", "image_url": ""}]
    credits.choose_method("directdebit")
    events = await run(credits.buy())
    assert redirects(events) == ["/directdebit?tier=p2"] and orders(db) == []
    assert not credits.busy


async def test_a_logged_out_tab_gets_nothing(make_root, db: Session) -> None:
    debit, events = await opened(make_root, db, None)
    assert events == [] and debit.step != FORM and debit.bundle == {}
    debit.step, debit.tier = FORM, "p1"
    await run(debit.submit_form(FILLED))
    assert debit.mandate == {} and debit.errors == {}
    debit.step = CODE
    await run(debit.resend_code())
    await run(debit.submit_code({"code": "123456"}))
    assert sms_outbox_messages() == [] and orders(db) == []
    assert db.exec(select(SddMandate)).all() == []


async def test_another_members_mandate_is_not_reachable(make_root, db: Session) -> None:
    anna = old_member(db)
    debit = await at_code_step(make_root, db, anna)
    bob = make_member(db, "bob@example.com", signup_date=utcnow() - timedelta(days=1))
    other, _ = await opened(make_root, db, bob)
    other.step, other._mandate_id = CODE, debit._mandate_id  # a tampered tab
    [code] = sent_codes()
    assert await run(other.submit_code({"code": code})) == [] and other.code_error
    assert orders(db) == []


async def test_a_debit_the_provider_refuses_starts_again_from_the_form(
    make_root, db: Session, debiting: MollieClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    debit = await at_code_step(make_root, db, old_member(db, language="nl"), locale="nl")
    [code] = sent_codes()

    async def refused(request):
        raise ProviderError(422, "Unprocessable Entity", "The mandate is not valid")

    monkeypatch.setattr(debiting, "create_payment", refused)
    assert await run(debit.submit_code({"code": code})) == []
    assert (debit.step, debit.mandate, debit.code_error, debit.busy) == (FORM, {}, "", False)
    assert debit.errors == {"": gettext("nl", SDD_DEBIT_REFUSED)}
    assert debit.values["account_holder"] == "Anna de Vries"  # what was typed is kept
    assert [order.status for order in orders(db)] == ["failed"]
