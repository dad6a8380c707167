"""Direct debit (issue 13) in Chromium against the production build: the whole flow from /credits
with the code read from the SMS outbox, collected by the test provider; 'Code ongeldig' and then
the right code; an expired code; the resend throttle; an invalid IBAN and phone; a returned debit
that blocks direct debit, with the blocked text afterwards; another account's IBAN refused before
any code, with the other payment methods; a switch of language in place rewrites a field's error
and the mandate, which is stored as signed. English and Dutch."""

import re
import uuid
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest
from journeys import (
    Account,
    NewMember,
    NewPage,
    arrive,
    eventually,
    expect,
    logged_in_page,
    open_page,
    past_the_welcome_window,
)
from playwright.sync_api import Page
from schwifty import IBAN
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.pages.transactions import DEBIT_PENDING_NOTE
from models.direct_debit import SddMandate, SmsCode, masked_iban
from models.member import Member, utcnow
from models.orders import Order
from models.sdd_mandate_text import ONE_OFF, REFUND_RIGHT, mandate_text
from services.payments.provider import TEST_PROVIDER_KEY
from services.sms import sms_outbox_messages
from translations.catalog import gettext
from translations.errors import (
    INVALID_SMS_CODE,
    SDD_ACCOUNT_BLOCKED,
    SDD_INVALID_IBAN,
    SDD_INVALID_PHONE,
    SMS_CODE_EXPIRED,
    SMS_RESEND_TOO_SOON,
)

LOCALES = ["en", "nl"]
TIER = "p1"
DIRECT_DEBIT = f"/directdebit?tier={TIER}"


@dataclass(frozen=True)
class Payer:
    """What a member types into the form: an IBAN and a mobile number of their own, since the
    site allows one member per IBAN and throttles codes per number."""

    iban: str  # compact
    phone: str  # as typed, Dutch
    e164: str

    def form(self) -> dict[str, str]:
        return {
            "account_holder": "Anna de Vries",
            "iban": IBAN(self.iban).formatted,
            "street": "Keizersgracht",
            "house_number": "12a",
            "zip": "1015 CJ",
            "city": "Amsterdam",
            "phone": self.phone,
        }


def new_payer() -> Payer:
    number = uuid.uuid4().int
    iban = IBAN.generate("NL", bank_code="ABNA", account_code=f"{number % 10**10:010d}")
    mobile = f"61{number // 10**10 % 10**7:07d}"  # 06-1xxxxxxx: a Dutch mobile number
    return Payer(iban.compact, f"0{mobile}", f"+31{mobile}")


# ----- the site's database, outbox and test provider -----


def orders_of(engine: Engine, account: Account) -> list[Order]:
    with Session(engine) as db:
        query = select(Order).where(Order.member_id == account.member_id).order_by(Order.id)
        return list(db.exec(query))


def member_of(engine: Engine, account: Account) -> Member:
    with Session(engine, expire_on_commit=False) as db:
        return db.get(Member, account.member_id)


def mandates_of(engine: Engine, account: Account) -> list[SddMandate]:
    with Session(engine) as db:
        return list(db.exec(select(SddMandate).where(SddMandate.member_id == account.member_id)))


def codes_to(site: Server, e164: str) -> list[str]:
    """The codes texted to this number so far, oldest first."""
    assert site.data_dir is not None, "the site fixture's server has no data dir"
    texts = [m.text for m in sms_outbox_messages(site.data_dir / "sms_outbox") if m.to == e164]
    return [re.search(r"\b\d{6}\b", text).group() for text in texts]


def texted_code(site: Server, payer: Payer) -> str:
    return eventually(lambda: codes_to(site, payer.e164), "the code in the SMS outbox")[-1]


def expire_codes(engine: Engine, account: Account) -> None:
    with Session(engine) as db:
        for row in db.exec(select(SmsCode).where(SmsCode.member_id == account.member_id)):
            row.expires_at = utcnow() - timedelta(minutes=1)
            db.add(row)
        db.commit()


def signed_elsewhere(engine: Engine, account: Account, iban: str) -> None:
    """Another member's signed mandate for `iban`, its debit pending."""
    with Session(engine) as db:
        order = Order(
            member_id=account.member_id,
            tier=TIER,
            credits=250,
            list_cents=3995,
            amount_cents=3995,
            currency="EUR",
            country="NL",
            method="directdebit",
            provider="test",
            status="pending",
        )
        db.add(order)
        db.flush()
        db.add(
            SddMandate(
                member_id=account.member_id,
                order_id=order.id,
                tier=TIER,
                payment_country="NL",
                amount_cents=3995,
                reference=f"AMR-E2E-{uuid.uuid4().hex[:12].upper()}",
                account_holder="Bob Jansen",
                iban=iban,
                street="Prinsengracht",
                house_number="7",
                zip="1015 DK",
                city="Amsterdam",
                country="NL",
                phone_e164="+31611111111",
                mandate_text="",
                status="signed",
                signed_at=utcnow(),
            )
        )
        db.commit()


def settle_debit(site: Server, order: Order, outcome: dict[str, str]) -> None:
    """The test provider's control: the bank collects the debit, or returns it."""
    answer = httpx.post(
        f"{site.url}/testpay/v2/payments/{order.provider_payment_id}/test-outcome",
        json=outcome,
        headers={"Authorization": f"Bearer {TEST_PROVIDER_KEY}"},
    )
    assert answer.status_code == 200, answer.text


# ----- the steps in the browser -----


def payer_page(
    new_page: NewPage, site: Server, engine: Engine, member: NewMember, locale: str
) -> tuple[Account, Page]:
    """A member past the welcome window, logged in, in their language."""
    account = past_the_welcome_window(engine, member(locale))
    return account, logged_in_page(new_page, site, account)


def open_form(page: Page, site: Server) -> None:
    open_page(page, site, DIRECT_DEBIT)
    expect(page.get_by_test_id("sdd-form")).to_be_visible()


def fill_form(page: Page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.locator(f"#field-{name}").fill(value)
    page.get_by_test_id("sdd-continue").click()


def at_code_step(
    new_page: NewPage, site: Server, engine: Engine, member: NewMember, locale: str
) -> tuple[Account, Page, Payer, str]:
    """A new member at the code step of their own mandate, and the code the SMS brought."""
    account, page = payer_page(new_page, site, engine, member, locale)
    open_form(page, site)
    payer = new_payer()
    to_code_step(page, payer)
    return account, page, payer, texted_code(site, payer)


def to_code_step(page: Page, payer: Payer) -> None:
    """From the form, through the mandate, to the code the SMS brings."""
    fill_form(page, payer.form())
    expect(page.get_by_test_id("sdd-mandate")).to_be_visible()
    page.get_by_test_id("sdd-confirm-mandate").click()
    expect(page.get_by_test_id("sdd-code-step")).to_be_visible()


def enter_code(page: Page, code: str) -> None:
    page.locator('input[name="code"]').fill(code)
    page.get_by_test_id("sdd-confirm-code").click()


def code_error(page: Page, locale: str, msgid: str) -> None:
    expect(page.get_by_test_id("sdd-code-error")).to_have_text(gettext(locale, msgid))


def result_phase(page: Page, phase: str) -> None:
    expect(page.get_by_test_id("payment-result")).to_have_attribute("data-phase", phase)


def signed(page: Page, site: Server, engine: Engine, account: Account, code: str) -> Order:
    """The right code: the order's result page, pending until the bank collects."""
    enter_code(page, code)
    order = eventually(lambda: orders_of(engine, account), "the order")[-1]
    arrive(page, site, f"/transactions/{order.id}")
    result_phase(page, "pending")

    def debited() -> Order | None:
        latest = orders_of(engine, account)[-1]
        return latest if latest.provider_payment_id else None

    return eventually(debited, "the provider's debit")


# ----- the journeys -----


@pytest.mark.parametrize("locale", LOCALES)
def test_a_debit_signed_with_the_texted_code_is_pending_until_collected(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account, page = payer_page(new_page, site, site_db, member, locale)
    open_page(page, site, "/credits")
    page.get_by_test_id(f"bundle-{TIER}").click()
    page.get_by_test_id("method-directdebit").click()
    page.get_by_test_id("buy-button").click()
    arrive(page, site, DIRECT_DEBIT)

    payer = new_payer()
    fill_form(page, payer.form())
    expect(page.get_by_test_id("mandate-iban_masked")).to_have_text(masked_iban(payer.iban))
    expect(page.get_by_test_id("mandate-reference")).to_have_text(re.compile(r"^AMR-\d{6}-\w{8}$"))
    expect(page.locator(".sdd-payment-type")).to_have_text(gettext(locale, ONE_OFF))
    expect(page.locator(".sdd-legal").last).to_have_text(gettext(locale, REFUND_RIGHT))
    assert payer.iban not in page.content()  # masked once the form is accepted
    page.get_by_test_id("sdd-confirm-mandate").click()
    expect(page.get_by_test_id("sdd-code-step")).to_be_visible()

    order = signed(page, site, site_db, account, texted_code(site, payer))
    expect(page.get_by_test_id("pending-note")).to_have_text(gettext(locale, DEBIT_PENDING_NOTE))
    assert (order.status, order.method) == ("pending", "directdebit")
    (mandate,) = mandates_of(site_db, account)
    assert (mandate.status, mandate.iban, mandate.order_id) == ("signed", payer.iban, order.id)
    assert mandate.signed_user_agent and member_of(site_db, account).credits == 0

    settle_debit(site, order, {"status": "paid"})
    result_phase(page, "completed")  # the collection's webhook reached the open page
    expect(page.get_by_test_id("result-balance")).to_contain_text(str(order.credits))
    assert member_of(site_db, account).credits == order.credits


@pytest.mark.parametrize("locale", LOCALES)
def test_a_wrong_code_is_refused_and_the_texted_one_still_signs(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account, page, _payer, code = at_code_step(new_page, site, site_db, member, locale)
    enter_code(page, f"{(int(code) + 1) % 10**6:06d}")
    code_error(page, locale, INVALID_SMS_CODE)
    if locale == "nl":
        expect(page.get_by_test_id("sdd-code-error")).to_have_text("Code ongeldig")
    assert orders_of(site_db, account) == []

    signed(page, site, site_db, account, code)


@pytest.mark.parametrize("locale", LOCALES)
def test_an_expired_code_signs_nothing(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account, page, _payer, code = at_code_step(new_page, site, site_db, member, locale)
    expire_codes(site_db, account)
    enter_code(page, code)
    code_error(page, locale, SMS_CODE_EXPIRED)
    assert orders_of(site_db, account) == []
    assert [m.status for m in mandates_of(site_db, account)] == ["draft"]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_new_code_waits_a_minute(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account, page, payer, _code = at_code_step(new_page, site, site_db, member, locale)
    page.get_by_test_id("sdd-resend").click()
    code_error(page, locale, SMS_RESEND_TOO_SOON)
    expect(page.get_by_test_id("sdd-notice")).to_have_count(0)
    assert len(codes_to(site, payer.e164)) == 1
    with Session(site_db) as db:
        rows = db.exec(select(SmsCode).where(SmsCode.member_id == account.member_id)).all()
        assert [(row.superseded, row.used_at) for row in rows] == [(False, None)]


@pytest.mark.parametrize("locale", LOCALES)
def test_an_invalid_iban_and_phone_are_named_beside_their_fields(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account, page = payer_page(new_page, site, site_db, member, locale)
    open_form(page, site)
    payer = new_payer()
    typed = payer.form() | {"iban": payer.iban[:2] + "00" + payer.iban[4:], "phone": "12"}
    fill_form(page, typed)
    expect(page.get_by_test_id("error-iban")).to_have_text(gettext(locale, SDD_INVALID_IBAN))
    expect(page.get_by_test_id("error-phone")).to_have_text(gettext(locale, SDD_INVALID_PHONE))
    expect(page.locator('[data-testid^="error-"]')).to_have_count(2)
    for name, value in typed.items():  # nothing typed is lost
        expect(page.locator(f"#field-{name}")).to_have_value(value)
    assert mandates_of(site_db, account) == []

    fill_form(page, {"iban": payer.form()["iban"], "phone": payer.phone})
    expect(page.get_by_test_id("mandate-holder")).to_have_text(typed["account_holder"])
    expect(page.get_by_test_id("mandate-iban_masked")).to_have_text(masked_iban(payer.iban))


@pytest.mark.parametrize("locale", LOCALES)
def test_a_returned_debit_blocks_direct_debit_but_not_the_other_methods(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account, page, _payer, code = at_code_step(new_page, site, site_db, member, locale)
    order = signed(page, site, site_db, account, code)

    settle_debit(site, order, {"status": "failed", "reason": "MD06"})
    result_phase(page, "failed")
    eventually(lambda: member_of(site_db, account).sdd_blocked_at, "the direct debit block")
    blocked = member_of(site_db, account)
    assert blocked.sdd_block_reason == "MD06" and blocked.credits == 0

    open_page(page, site, DIRECT_DEBIT)
    expect(page.get_by_test_id("sdd-blocked")).to_contain_text(gettext(locale, SDD_ACCOUNT_BLOCKED))
    expect(page.get_by_test_id("sdd-form")).to_have_count(0)
    open_page(page, site, "/credits")
    page.get_by_test_id(f"bundle-{TIER}").click()
    expect(page.get_by_test_id("method-ideal")).to_be_visible()
    expect(page.get_by_test_id("method-directdebit")).to_have_count(0)


def test_another_accounts_iban_is_refused_before_any_code_with_the_other_methods(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember
) -> None:
    payer = new_payer()
    signed_elsewhere(site_db, past_the_welcome_window(site_db, member("en")), payer.iban)
    account, page = payer_page(new_page, site, site_db, member, "nl")
    open_form(page, site)
    fill_form(page, payer.form())

    expect(page.get_by_test_id("sdd-refusal")).to_have_text(
        "Deze bankrekening kan niet worden gebruikt voor automatische incasso."
    )
    for step in ("sdd-mandate", "sdd-code-step", "sdd-resend", "sdd-pay-with-directdebit"):
        expect(page.get_by_test_id(step)).to_have_count(0)
    shown = page.locator("body").inner_text()  # the page's HTML names its assets' hashes
    assert "Bob" not in shown and "limiet" not in shown
    assert codes_to(site, payer.e164) == [] and mandates_of(site_db, account) == []

    page.get_by_test_id("sdd-pay-with-ideal").click()
    arrive(page, site, f"/credits/{TIER}/ideal")
    expect(page.get_by_test_id("method-ideal")).to_have_attribute("aria-pressed", "true")


def switch_language(page: Page, locale: str) -> None:
    """The language menu: the page switches in place, without loading again."""
    page.get_by_test_id("language-menu").click()
    page.get_by_test_id(f"language-{locale}").click()


def test_a_switch_of_language_rewrites_the_errors_and_the_mandate(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember
) -> None:
    """What the server put on the page follows a switch of language in place (issue 28): a
    field's error, and on the mandate the amount, the creditor's country and the wording; the
    mandate is stored in the language of the page when it was signed."""
    account, page = payer_page(new_page, site, site_db, member, "nl")
    open_form(page, site)
    payer = new_payer()
    fill_form(page, {**payer.form(), "phone": "12"})
    expect(page.get_by_test_id("error-phone")).to_have_text(gettext("nl", SDD_INVALID_PHONE))
    switch_language(page, "de")
    expect(page.get_by_test_id("error-phone")).to_have_text(gettext("de", SDD_INVALID_PHONE))

    fill_form(page, payer.form())
    expect(page.get_by_test_id("mandate-amount")).to_have_text(re.compile(r"^39,95\s€$"))
    address = page.get_by_test_id("mandate-creditor_address")
    expect(address).to_have_text(re.compile(r", Niederlande$"))
    switch_language(page, "en")
    expect(page.get_by_test_id("mandate-amount")).to_have_text("€39.95")
    expect(address).to_have_text(re.compile(r", Netherlands$"))
    creditor = page.get_by_test_id("mandate-creditor_name").inner_text()
    english = mandate_text("en", creditor)
    expect(page.locator(".sdd-payment-type")).to_have_text(english.payment_type)
    expect(page.locator(".sdd-legal").first).to_have_text(english.authorisation)
    expect(page.locator(".sdd-legal").last).to_have_text(english.refund_right)

    page.get_by_test_id("sdd-confirm-mandate").click()
    expect(page.get_by_test_id("sdd-code-step")).to_be_visible()
    signed(page, site, site_db, account, texted_code(site, payer))
    (mandate,) = mandates_of(site_db, account)
    for text in ("Netherlands", "€39.95", english.authorisation, english.refund_right):
        assert text in mandate.mandate_text
    assert "Niederlande" not in mandate.mandate_text and mandate.language == "en"
