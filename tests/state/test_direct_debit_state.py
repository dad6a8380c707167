"""The direct debit screens' state: the form with its errors beside the fields in the member's
language (what was typed kept, the IBAN never in the state), the mandate to review with the
IBAN and phone masked, the code by SMS with its throttle and 'Code ongeldig', and the order's
result page; the texts the page shows kept as keys with their values, so a switch of language
in place rewrites them, and the mandate stored in the language it was signed in; the blocked and
not-offered texts; /credits handing direct debit over; nothing for
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
from models.sdd_mandate_text import ONE_OFF, REFUND_RIGHT, mandate_text
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
    REFUSED,
    DirectDebitState,
    code_digits,
    form_values,
)
from state.i18n import I18nState
from tests.factories import make_member
from tests.state.conftest import handle, redirects, run, substate
from tests.state.payment_tabs import (  # noqa: F401 - fixtures
    code_from_500_euro,
    old_member,
    paying,
    provider_client,
    tab,
    testpay,
    testpay_clock,
    testpay_webhooks,
)
from translations.catalog import BrowserMessage, browser_catalogue, gettext
from translations.errors import (
    DISCOUNT_CODE_MINIMUM,
    INVALID_SMS_CODE,
    SDD_DEBIT_REFUSED,
    SDD_IBAN_REFUSED,
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
    await run(handle(debit, "submit_form", FILLED))
    await run(handle(debit, "confirm_mandate"))
    await settle()
    assert debit.step == CODE, debit.errors
    return debit


def sent_codes(to: str = "+31612345678") -> list[str]:
    return [
        re.search(r"\b(\d{6})\b", sms.text).group(1)
        for sms in sms_outbox_messages()
        if sms.to == to
    ]


def written(locale: str, message: BrowserMessage) -> str:
    """A text the state holds as the browser writes it in `locale` (components/i18n)."""
    text = browser_catalogue(locale)[message["key"]]
    for name, value in message["params"].items():
        text = text.replace("{" + name + "}", value)
    return text


def held(debit: DirectDebitState) -> str:
    """Everything the state gives the browser."""
    return json.dumps(debit.dict(), default=str, ensure_ascii=False)


async def switch(debit: DirectDebitState, locale: str) -> None:
    """The member picks another language in the menu: the page switches in place."""
    await run((await debit.get_state(I18nState)).switch(locale))


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
    assert debit.bundle["tier"] == "p1" and debit.bundle["currency"] == "EUR"


async def test_an_unknown_bundle_goes_back_to_credits(make_root, db: Session) -> None:
    debit, events = await opened(make_root, db, old_member(db), "/directdebit?tier=p9")
    assert redirects(events) == ["/credits"] and debit.step != FORM


async def test_blocked_and_not_offered(make_root, db: Session) -> None:
    anna = old_member(db, sdd_blocked_at=utcnow(), sdd_block_reason="AC04")
    debit, _ = await opened(make_root, db, anna)
    assert debit.step == BLOCKED
    await run(handle(debit, "submit_form", FILLED))
    assert debit.step == BLOCKED and debit.mandate == {}
    bob = old_member(db, "bob@example.com")
    debit, _ = await opened(make_root, db, bob, payment_country="PL")  # paid in zloty
    assert debit.step == NOT_AVAILABLE


async def test_errors_beside_their_fields_in_the_members_language(make_root, db: Session) -> None:
    anna = old_member(db, language="nl")
    debit, _ = await opened(make_root, db, anna, locale="nl")
    await run(
        handle(debit, "submit_form", {**FILLED, "iban": "NL91 ABNA 0417 1643 01", "phone": "12"})
    )
    assert debit.step == FORM and set(debit.errors) == {"iban", "phone"}
    assert {name: written("nl", error) for name, error in debit.errors.items()} == {
        "iban": gettext("nl", SDD_INVALID_IBAN),
        "phone": gettext("nl", SDD_INVALID_PHONE),
    }
    assert written("nl", debit.errors["iban"]) != SDD_INVALID_IBAN  # in Dutch
    kept = {name: value for name, value in FILLED.items() if name != "iban"}
    assert debit.values == {**kept, "phone": "12"}  # typed values back, never the IBAN
    await run(handle(debit, "submit_form", {}))
    assert set(debit.errors) == set(FIELD_LIMITS)


async def test_a_refusal_carries_its_values(make_root, db: Session) -> None:
    """A discount code from /credits that no longer applies to the bundle: the form says why,
    with the order value the code needs."""
    code_from_500_euro(db)
    debit, _ = await opened(make_root, db, old_member(db), code="BIG10")
    await run(handle(debit, "submit_form", FILLED))
    assert debit.step == FORM and debit.mandate == {}
    assert written("en", debit.errors[""]) == gettext("en", DISCOUNT_CODE_MINIMUM, amount="€500.00")


async def test_the_mandate_shows_the_iban_masked_only(make_root, db: Session) -> None:
    anna = old_member(db)
    debit, _ = await opened(make_root, db, anna)
    await run(handle(debit, "submit_form", FILLED))
    assert debit.step == MANDATE and debit.errors == {}
    mandate = debit.mandate
    assert mandate["iban_masked"].startswith("NL91") and mandate["iban_masked"].endswith("4300")
    assert mandate["holder"] == "Anna de Vries"
    assert (mandate["amount_cents"], mandate["currency"]) == (3995, "EUR")
    assert mandate["creditor_identifier"] and mandate["reference"]
    assert "12345678" not in mandate["phone_masked"]
    shown = json.dumps(debit.dict(), default=str).replace(" ", "")
    assert IBAN not in shown and IBAN[4:] not in shown  # nowhere in what the browser gets
    assert "iban" not in debit.values


async def test_the_code_follows_the_page_not_the_account(make_root, db: Session) -> None:
    """A member whose account speaks German, reading the page in English, gets the code in
    English."""
    await at_code_step(make_root, db, old_member(db, language="de"), locale="en")
    [sms] = sms_outbox_messages()
    assert "is your" in sms.text and "Code" not in sms.text


DUTCH_MANDATE = ("Nederland", "€ 39,95", gettext("nl", ONE_OFF), gettext("nl", REFUND_RIGHT))


async def test_the_mandate_holds_no_language_and_is_stored_as_signed(
    make_root, db: Session
) -> None:
    """The mandate reviewed on the Dutch page holds the amount, the creditor's country and no
    wording, so a switch of language rewrites it all (the page writes them); what is stored
    with the signed mandate is what the member read when they signed: English, the page's
    language by then, neither the review's nor the account's."""
    debit, _ = await opened(make_root, db, old_member(db, language="de"), locale="nl")
    await run(handle(debit, "submit_form", FILLED))
    mandate = debit.mandate
    assert (mandate["amount_cents"], mandate["currency"]) == (3995, "EUR")
    assert (mandate["creditor_address"], mandate["creditor_country"]) == (
        "Keizersgracht 123, 1015 CJ Amsterdam",
        "NL",
    )
    assert not [text for text in DUTCH_MANDATE if text in held(debit)]
    await switch(debit, "en")
    await run(handle(debit, "confirm_mandate"))
    await settle()
    [code] = sent_codes()
    assert redirects(await run(handle(debit, "submit_code", {"code": code})))
    signed = db.exec(select(SddMandate)).one()
    english = mandate_text("en", mandate["creditor_name"])
    for text in ("Netherlands", "€39.95", english.authorisation, english.refund_right):
        assert text in signed.mandate_text
    assert english.payment_type in signed.mandate_text and signed.language == "en"
    assert not [text for text in DUTCH_MANDATE if text in signed.mandate_text]


async def test_the_whole_flow_to_the_pending_order(make_root, db: Session) -> None:
    anna = old_member(db)
    debit = await at_code_step(make_root, db, anna)
    [sms] = sms_outbox_messages()
    assert sms.to == "+31612345678"
    [code] = sent_codes()
    events = await run(handle(debit, "submit_code", {"code": code}))
    [order] = orders(db)
    assert redirects(events) == [f"/transactions/{order.id}"]
    assert (order.member_id, order.method, order.tier) == (anna.id, "directdebit", "p1")
    assert order.status in ("open", "pending") and order.paid_at is None
    mandate = db.exec(select(SddMandate)).one()
    assert (mandate.status, mandate.order_id, mandate.iban) == ("signed", order.id, IBAN)
    assert debit.mandate == {} and debit.busy  # busy while the page leaves
    assert await run(handle(debit, "submit_code", {"code": code})) == []


async def test_a_wrong_code_is_code_ongeldig(make_root, db: Session) -> None:
    debit = await at_code_step(make_root, db, old_member(db, language="nl"), locale="nl")
    [code] = sent_codes()
    wrong = "000000" if code != "000000" else "111111"
    events = await run(handle(debit, "submit_code", {"code": wrong}))
    assert events == [] and written("nl", debit.code_error) == "Code ongeldig" and not debit.busy
    await run(handle(debit, "submit_code", {"code": "12"}))
    assert written("nl", debit.code_error) == "Code ongeldig" and orders(db) == []


async def test_errors_and_notices_follow_a_switch_of_language(make_root, db: Session) -> None:
    """The state holds which text to show, not the text: after a switch of language in place
    the page writes the field errors, the code's error and the notice in the new language."""
    debit, _ = await opened(make_root, db, old_member(db, language="nl"), locale="nl")
    await run(
        handle(debit, "submit_form", {**FILLED, "iban": "NL91 ABNA 0417 1643 01", "phone": "12"})
    )
    await switch(debit, "de")
    assert {name: written("de", error) for name, error in debit.errors.items()} == {
        "iban": gettext("de", SDD_INVALID_IBAN),
        "phone": gettext("de", SDD_INVALID_PHONE),
    }
    assert gettext("nl", SDD_INVALID_IBAN) not in held(debit)
    await run(handle(debit, "submit_form", FILLED))
    await run(handle(debit, "confirm_mandate"))
    await settle()
    await run(handle(debit, "submit_code", {"code": "12"}))
    await switch(debit, "en")
    assert written("en", debit.code_error) == gettext("en", INVALID_SMS_CODE)
    assert "ongeldig" not in held(debit) and "ungültig" not in held(debit).lower()


async def test_a_new_code_waits_a_minute(make_root, db: Session) -> None:
    debit = await at_code_step(make_root, db, old_member(db))
    await run(handle(debit, "resend_code"))
    await settle()
    assert written("en", debit.code_error) == SMS_RESEND_TOO_SOON and debit.notice == {}
    assert len(sent_codes()) == 1
    for row in db.exec(select(SmsCode)).all():  # the first code's minute has passed
        row.created_at -= timedelta(minutes=2)
        db.add(row)
    db.commit()
    await run(handle(debit, "resend_code"))
    await settle()
    assert debit.code_error == {} and debit.notice and len(sent_codes()) == 2
    first, second = sent_codes()
    if first != second:  # the earlier code stopped working
        await run(handle(debit, "submit_code", {"code": first}))
        assert debit.code_error
    assert redirects(await run(handle(debit, "submit_code", {"code": second})))


async def test_an_expired_code_asks_for_a_new_one(make_root, db: Session) -> None:
    debit = await at_code_step(make_root, db, old_member(db))
    [code] = sent_codes()
    row = db.exec(select(SmsCode)).one()
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.add(row)
    db.commit()
    assert await run(handle(debit, "submit_code", {"code": code})) == []
    assert written("en", debit.code_error) == SMS_CODE_EXPIRED and orders(db) == []


async def test_changing_details_starts_a_new_mandate(make_root, db: Session) -> None:
    debit, _ = await opened(make_root, db, old_member(db))
    await run(handle(debit, "submit_form", FILLED))
    await run(debit.edit())
    assert debit.step == FORM and debit.mandate == {}
    assert debit.values["city"] == "Amsterdam" and "iban" not in debit.values


async def test_credits_hands_direct_debit_over(make_root, db: Session) -> None:
    root = await tab(make_root, db, old_member(db), "/credits")
    credits = substate(root, CreditsState)
    await run(handle(credits, "load_page"))
    await run(handle(credits, "choose_tier", "p2"))
    if "directdebit" not in [method["id"] for method in credits.methods]:
        credits.methods = [*credits.methods, {"id": "directdebit", "label": "", "image_url": ""}]
    credits.choose_method("directdebit")
    events = await run(handle(credits, "buy"))
    assert redirects(events) == ["/directdebit?tier=p2"] and orders(db) == []
    assert not credits.busy


async def test_a_logged_out_tab_gets_nothing(make_root, db: Session) -> None:
    debit, events = await opened(make_root, db, None)
    assert events == [] and debit.step != FORM and debit.bundle == {}
    debit.step, debit.tier = FORM, "p1"
    await run(handle(debit, "submit_form", FILLED))
    assert debit.mandate == {} and debit.errors == {}
    debit.step = CODE
    await run(handle(debit, "resend_code"))
    await run(handle(debit, "submit_code", {"code": "123456"}))
    assert sms_outbox_messages() == [] and orders(db) == []
    assert db.exec(select(SddMandate)).all() == []


async def test_another_members_mandate_is_not_reachable(make_root, db: Session) -> None:
    anna = old_member(db)
    debit = await at_code_step(make_root, db, anna)
    bob = make_member(db, "bob@example.com", signup_date=utcnow() - timedelta(days=1))
    other, _ = await opened(make_root, db, bob)
    other.step, other._mandate_id = CODE, debit._mandate_id  # a tampered tab
    [code] = sent_codes()
    assert await run(handle(other, "submit_code", {"code": code})) == [] and other.code_error
    assert orders(db) == []


async def test_a_debit_the_provider_refuses_starts_again_from_the_form(
    make_root, db: Session, debiting: MollieClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    debit = await at_code_step(make_root, db, old_member(db, language="nl"), locale="nl")
    [code] = sent_codes()

    async def refused(request):
        raise ProviderError(422, "Unprocessable Entity", "The mandate is not valid")

    monkeypatch.setattr(debiting, "create_payment", refused)
    assert await run(handle(debit, "submit_code", {"code": code})) == []
    assert (debit.step, debit.mandate, debit.code_error, debit.busy) == (FORM, {}, {}, False)
    assert written("nl", debit.errors[""]) == gettext("nl", SDD_DEBIT_REFUSED)
    assert debit.values["account_holder"] == "Anna de Vries"  # what was typed is kept
    assert [order.status for order in orders(db)] == ["failed"]


ANNAS_PHONE = {"phone": "06 87654321"}  # the IBAN of FILLED, another member's phone


async def signed_by_bob(make_root, db: Session) -> None:
    """Bob signs a mandate for the IBAN of FILLED: it is his account now."""
    debit = await at_code_step(make_root, db, old_member(db, "bob@example.com"))
    [code] = sent_codes()
    assert redirects(await run(handle(debit, "submit_code", {"code": code})))


def refused_without_a_code(debit: DirectDebitState, locale: str) -> None:
    """The account's own refusal, the bundle's other methods, no code sent to Anna."""
    assert (debit.step, debit.mandate, debit.code_error) == (REFUSED, {}, {})
    assert written(locale, debit.refusal) == gettext(locale, SDD_IBAN_REFUSED)
    assert debit.other_methods and "directdebit" not in debit.other_methods
    assert sent_codes("+31687654321") == []
    shown = json.dumps(debit.dict(), default=str).lower()
    assert "bob" not in shown and "limi" not in shown  # nothing of Bob, no "limit"


async def test_another_accounts_iban_is_refused_before_any_code(make_root, db: Session) -> None:
    await signed_by_bob(make_root, db)
    debit, _ = await opened(make_root, db, old_member(db, language="nl"), locale="nl")
    await run(handle(debit, "submit_form", {**FILLED, **ANNAS_PHONE}))
    refused_without_a_code(debit, "nl")
    dutch = "Deze bankrekening kan niet worden gebruikt voor automatische incasso."
    assert written("nl", debit.refusal) == dutch
    await switch(debit, "en")  # the heading follows a switch of language in place
    assert written("en", debit.refusal) == "This bank account cannot be used for direct debit."
    assert dutch not in held(debit)
    assert (
        await run(handle(debit, "confirm_mandate")) == []
        and await run(handle(debit, "resend_code")) == []
    )
    assert sent_codes("+31687654321") == []
    await run(debit.edit())  # another bank account: the form again, what was typed kept
    assert debit.step == FORM and debit.values["phone"] == ANNAS_PHONE["phone"]


async def test_an_iban_taken_after_the_review_gets_no_code(make_root, db: Session) -> None:
    debit, _ = await opened(make_root, db, old_member(db))
    await run(handle(debit, "submit_form", {**FILLED, **ANNAS_PHONE}))
    assert debit.step == MANDATE
    await signed_by_bob(make_root, db)
    await run(handle(debit, "confirm_mandate"))
    await settle()
    refused_without_a_code(debit, "en")


async def test_an_iban_taken_after_the_code_offers_the_other_methods(
    make_root, db: Session
) -> None:
    debit, _ = await opened(make_root, db, old_member(db))
    await run(handle(debit, "submit_form", {**FILLED, **ANNAS_PHONE}))
    await run(handle(debit, "confirm_mandate"))
    await settle()
    [code] = sent_codes("+31687654321")
    await signed_by_bob(make_root, db)
    assert await run(handle(debit, "submit_code", {"code": code})) == []
    assert (debit.step, written("en", debit.refusal)) == (REFUSED, SDD_IBAN_REFUSED)
    assert [order.member_id for order in orders(db)] == [
        db.exec(select(Member.id).where(Member.email == "bob@example.com")).one()
    ]
