"""The receipt mail: translated, with the order, the VAT it includes, the seller and the right
of withdrawal, HTML-escaped. The pre-notification of a direct debit: amount, date, mandate
reference, creditor, masked IBAN and the refund right, never the full IBAN."""

from datetime import date, datetime

import pytest

from models.member import Member
from models.orders import Order, order_number
from models.payment_methods import METHOD_LABELS, method_label
from models.site_settings import SiteSettings
from models.vat import vat_included
from services.mail import OutgoingMail
from services.mail_frame import public_link
from services.receipt_mail import prenotification_mail, receipt_mail
from translations.locales import LOCALES

SETTINGS = SiteSettings()
PAID_AT = datetime(2025, 3, 1, 14, 30)
IBAN = "NL91ABNA0417164300"
MASKED = "NL91 **** **** **** 4300"
REFERENCE = "AMR-000042-7K2Q9XZB"


def _order(**fields) -> Order:
    values = {
        "id": 123,
        "member_id": 7,
        "tier": "p2",
        "credits": 1200,
        "list_cents": 1995,
        "amount_cents": 1995,
        "currency": "EUR",
        "country": "NL",
        "method": "ideal",
        "locale": "nl",
        "provider": "mollie",
        "status": "paid",
        "created_at": PAID_AT,
        "paid_at": PAID_AT,
    }
    return Order(**(values | fields))


def _text(mail: OutgoingMail) -> str:
    """The text part with Babel's no-break spaces (as in "€ 19,95") made plain."""
    return mail.text.replace("\xa0", " ")


def _member(language: str = "nl") -> Member:
    return Member(id=7, email="ann@example.com", language=language)


def test_order_numbers_are_padded_ids() -> None:
    assert order_number(123) == "A-000123"
    assert order_number(12345678) == "A-12345678"


@pytest.mark.parametrize(("gross", "vat"), [(1995, 346), (121, 21), (100, 17), (0, 0)])
def test_vat_is_the_gross_minus_the_net_rounded_half_up(gross: int, vat: int) -> None:
    assert vat_included(gross, 21) == vat


def test_english_receipt() -> None:
    mail = receipt_mail(_order(locale="en"), _member(), "Ann", SETTINGS)
    assert mail.subject == "Your receipt for order A-000123 – Amorly"
    assert mail.to == "ann@example.com"
    for line in (
        "Thank you for your purchase, Ann!",
        "Order number: A-000123",
        "Date: March 1, 2025",
        "Bundle: 1,200 credits",
        "Amount paid: €19.95",
        "Including VAT (21%): €3.46",
        "Payment method: iDEAL",
        "until March 15, 2025 (14 days)",
    ):
        assert line in mail.text, line
    assert "Discount" not in mail.text
    assert mail.links == (public_link("/transactions"),)
    assert f"View your purchases:\n{public_link('/transactions')}" in mail.text


def test_dutch_receipt() -> None:
    mail = receipt_mail(_order(), _member("en"), "Ann", SETTINGS)
    assert mail.subject == "Je betaalbewijs voor bestelling A-000123 – Amorly"
    for line in (
        "Bedankt voor je aankoop, Ann!",
        "Bestelnummer: A-000123",
        "Datum: 1 maart 2025",
        "Pakket: 1.200 credits",
        "Betaald bedrag: € 19,95",
        "Inclusief btw (21%): € 3,46",
        "Betaalmethode: iDEAL",
        "tot en met 15 maart 2025 (14 dagen)",
    ):
        assert line in _text(mail), line
    assert "<td" in mail.html and "Bestelnummer</td>" in mail.html
    assert "A-000123</td>" in mail.html and "15 maart 2025" in mail.html


def test_the_discount_shows_the_list_price_code_and_percentage() -> None:
    order = _order(
        locale="en",
        amount_cents=1496,
        discount_code="TIMEBONUS25",
        discount_percentage=25,
        method="creditcard",
    )
    mail = receipt_mail(order, _member(), "Ann", SETTINGS)
    assert "Price: €19.95" in mail.text
    assert "Discount: -€4.99 (TIMEBONUS25, 25%)" in mail.text
    assert "Amount paid: €14.96" in mail.text
    assert "Including VAT (21%): €2.60" in mail.text  # 14.96 = 12.36 + 21 %
    assert "Payment method: Credit card" in mail.text


def test_dutch_discount_and_card_label() -> None:
    order = _order(
        amount_cents=1496, discount_code="WELCOME10", discount_percentage=25, method="creditcard"
    )
    mail = receipt_mail(order, _member(), "Ann", SETTINGS)
    text = _text(mail)
    assert "Prijs: € 19,95" in text
    assert "Korting: € -4,99 (WELCOME10, 25%)" in text
    assert "Betaalmethode: Creditcard" in text


@pytest.mark.parametrize("locale", ["en", "nl"])
def test_the_seller_is_named_with_kvk_and_vat_numbers(locale: str) -> None:
    settings = SiteSettings(company_vat_numbers=["NL862345678B01", "BE0123456789"])
    mail = receipt_mail(_order(locale=locale), _member(), "Ann", settings)
    country = {"en": "Netherlands", "nl": "Nederland"}[locale]
    address = f"{settings.company_address}, {settings.company_city}, {country}"
    for value in (settings.company_name, address, settings.company_kvk, settings.support_email):
        assert value in mail.text and value in mail.html
    assert "NL862345678B01, BE0123456789" in mail.text


def test_the_html_escapes_the_member_name_and_the_text_keeps_it() -> None:
    mail = receipt_mail(_order(locale="en"), _member(), "<b>Ann</b> & co", SETTINGS)
    assert "<b>Ann</b>" not in mail.html
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in mail.html
    assert "Thank you for your purchase, <b>Ann</b> & co!" in mail.text


def test_the_member_language_is_used_when_the_order_locale_is_unknown() -> None:
    mail = receipt_mail(_order(locale="xx"), _member("de"), "Ann", SETTINGS)
    assert "Bestellnummer: A-000123" in mail.text
    assert mail.language == "de"
    assert '<html lang="de">' in mail.html


def test_the_vat_rate_comes_from_the_settings() -> None:
    mail = receipt_mail(_order(locale="en"), _member(), "Ann", SiteSettings(vat_rates={"NL": 9}))
    assert "Including VAT (9%): €1.65" in mail.text  # 19.95 = 18.30 + 9 %


def test_the_vat_is_the_buyers_countrys() -> None:
    """A buyer in Finland pays Finnish VAT (25.5 %): € 19.95 holds € 4.05 of it."""
    mail = receipt_mail(_order(locale="en", country="FI"), _member(), "Ann", SETTINGS)
    assert "Including VAT (25.5%): €4.05" in mail.text


@pytest.mark.parametrize("locale", LOCALES)
def test_every_language_fills_every_placeholder_and_translates(locale: str) -> None:
    order = _order(locale=locale, amount_cents=1496, discount_code="X", discount_percentage=25)
    mail = receipt_mail(order, _member(), "Zoë", SETTINGS)
    assert "{" not in mail.text and "}" not in mail.text
    if locale != "en":
        english = receipt_mail(_order(locale="en"), _member(), "Zoë", SETTINGS)
        assert mail.subject != english.subject
        assert "Order number" not in mail.text and "Payment method" not in mail.text


def test_every_method_has_a_label() -> None:
    for method in ("ideal", "creditcard", "paypal", "bancontact", "blik", "przelewy24"):
        assert method in METHOD_LABELS
    for method in ("mobilepay", "vipps", "swish", "twint"):
        assert method_label(method, "nl") == METHOD_LABELS[method]
    assert method_label("creditcard", "de") == "Kreditkarte"
    assert method_label("unknown", "en") == "unknown"


def _debit(locale: str = "en", due: date | None = date(2025, 3, 4)) -> OutgoingMail:
    order = _order(locale=locale, method="directdebit", status="pending", paid_at=None)
    return prenotification_mail(order, _member(), "Ann", SETTINGS, REFERENCE, MASKED, due)


def _never_the_full_iban(mail: OutgoingMail) -> None:
    for part in (mail.subject, mail.text, mail.html):
        assert IBAN not in "".join(part.split())


def test_english_prenotification() -> None:
    mail = _debit()
    assert mail.subject == "Your direct debit for order A-000123 – Amorly"
    assert mail.to == "ann@example.com"
    for line in (
        "Thank you for your order, Ann!",
        f"On March 4, 2025 we will collect €19.95 from your account {MASKED} by SEPA direct "
        "debit. Your 1,200 credits are added as soon as the amount has been collected.",
        "Order number: A-000123",
        "Amount: €19.95",
        "Debit date: March 4, 2025",
        f"Creditor: {SETTINGS.creditor_name}",
        f"Mandate reference: {REFERENCE}",
        f"Creditor identifier: {SETTINGS.creditor_identifier}",
        f"IBAN: {MASKED}",
        "You can ask your bank to refund this direct debit within 8 weeks",
    ):
        assert line in mail.text, line
    assert f"{REFERENCE}</td>" in mail.html and f"{SETTINGS.creditor_identifier}</td>" in mail.html
    assert mail.links == (public_link("/transactions/123"),)
    _never_the_full_iban(mail)


def test_dutch_prenotification() -> None:
    mail = _debit("nl")
    assert mail.subject == "Je incasso voor bestelling A-000123 – Amorly"
    for line in (
        "Bedankt voor je bestelling, Ann!",
        f"Op 4 maart 2025 schrijven we € 19,95 af van je rekening {MASKED} via automatische "
        "incasso.",
        "Bestelnummer: A-000123",
        "Bedrag: € 19,95",
        "Afschrijvingsdatum: 4 maart 2025",
        f"Incassant: {SETTINGS.creditor_name}",
        f"Machtigingskenmerk: {REFERENCE}",
        f"Incassant-ID: {SETTINGS.creditor_identifier}",
        f"IBAN: {MASKED}",
        "binnen 8 weken na de afschrijvingsdatum",
    ):
        assert line in _text(mail), line
    _never_the_full_iban(mail)


@pytest.mark.parametrize("due", [date(2025, 3, 4), None])
def test_finnish_prenotification_keeps_the_account_apart_from_the_amount(due: date | None) -> None:
    """fi wrote "tililtäsi {iban} {amount}": the masked IBAN ran into the amount's digits."""
    text = _text(_debit("fi", due))
    assert f"tililtäsi {MASKED} suoraveloituksena." in text
    assert f"{MASKED} 19" not in text


@pytest.mark.parametrize(
    ("locale", "soon"), [("en", "In the next few working days"), ("nl", "In de komende werkdagen")]
)
def test_without_a_due_date_the_debit_comes_in_the_next_few_working_days(
    locale: str, soon: str
) -> None:
    mail = _debit(locale, None)
    body = mail.text.split("\n--\n")[0]
    assert f"\n{soon} " in body and f": {soon}\n" in body
    assert "2025" not in body


def test_a_direct_debit_receipt_names_the_mandate_and_the_creditor() -> None:
    for locale, reference, identifier in (
        ("en", "Mandate reference", "Creditor identifier"),
        ("nl", "Machtigingskenmerk", "Incassant-ID"),
    ):
        order = _order(locale=locale, method="directdebit")
        text = _text(receipt_mail(order, _member(), "Ann", SETTINGS, REFERENCE))
        assert f"{reference}: {REFERENCE}" in text
        assert f"{identifier}: {SETTINGS.creditor_identifier}" in text
    ideal = receipt_mail(_order(locale="en"), _member(), "Ann", SETTINGS)
    assert "Mandate reference" not in ideal.text and "Creditor" not in ideal.text


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("due", [date(2025, 3, 4), None])
def test_every_language_fills_and_translates_the_prenotification(
    locale: str, due: date | None
) -> None:
    mail = _debit(locale, due)
    assert "{" not in mail.text and "}" not in mail.text
    assert REFERENCE in mail.text and MASKED in mail.text
    assert " 8 " in mail.text.split("\n--\n")[0].splitlines()[-1]  # the refund right
    if locale != "en":
        english = _debit("en", due)
        assert mail.subject != english.subject
        assert "Debit date" not in mail.text and "within 8 weeks" not in mail.text


def test_a_german_receipt_names_the_bundle_by_its_credits_and_spaces_the_percentages() -> None:
    order = _order(locale="de", credits=1500, discount_percentage=25, discount_code="")
    text = receipt_mail(order, _member(), "Ann", SETTINGS).text
    assert "Paket: 1.500 Credits\n" in text and "(P" not in text  # no tier code
    assert "Inkl. MwSt. (21\u00a0%)" in text and "(25\u00a0%)" in text  # de: "21 %", no break
