"""The mails about an order, in the language the member bought in (the order's locale, else
their account language), in the shared mail frame.

The receipt of a paid order lists the order number ("A-" and the order id with at least six
digits: A-000123), the payment date, the bundle and its credits, the price before and the
discount if any, the amount paid with the VAT it includes (the rate of the buyer's country,
`vat_rates`), the method (for a direct debit with its mandate reference and the creditor
identifier), the seller's details, and the right of withdrawal within `refund_days` with a pro
rata refund.

The pre-notification of a direct debit, sent once the debit is on its way, states the amount,
the date of the debit (or "in the next few working days" when the provider did not say), the
mandate reference, the creditor's name and identifier, the masked IBAN, the order number and the
8-week refund right. Dates are UTC calendar days.
"""

from datetime import date, timedelta
from functools import partial

from babel.dates import format_date

from models.member import Member
from models.orders import Order, order_number
from models.payment_methods import method_label
from models.pricing import format_money
from models.routes import transaction_url, url
from models.site_settings import SiteSettings, company_info
from models.vat import vat_included, vat_rate
from services.mail import OutgoingMail
from services.mail_frame import (
    CHAMBER_OF_COMMERCE,
    MailBody,
    Recipient,
    Section,
    public_link,
    render,
)
from translations.catalog import N_, N_plural, gettext
from translations.locales import DEFAULT_LOCALE, supported
from translations.numbers import country_name, written_number, written_percent

SUBJECT = N_("Your receipt for order {number}")
LEAD = N_("Thank you for your purchase, {name}!")
BODY = N_plural(
    "We have received your payment: {credits} credit has been added to your account.",
    "We have received your payment: {credits} credits have been added to your account.",
)
BUTTON = N_("View your purchases")
WITHDRAWAL = N_plural(
    "You may withdraw from this purchase until {date} ({days} day) on your purchases page. "
    "We then refund the price you paid pro rata for the credits you have not used yet, "
    "to the same payment method.",
    "You may withdraw from this purchase until {date} ({days} days) on your purchases page. "
    "We then refund the price you paid pro rata for the credits you have not used yet, "
    "to the same payment method.",
    "days",
)
ORDER_TITLE = N_("Your order")
SELLER_TITLE = N_("Sold by")
ORDER_NUMBER = N_("Order number")
DATE = N_("Date")
BUNDLE = N_("Bundle")
BUNDLE_VALUE = N_plural("{count} credit", "{count} credits")
PRICE = N_("Price")
DISCOUNT = N_("Discount")
AMOUNT_PAID = N_("Amount paid")
VAT_PART = N_("Including VAT ({rate})")
METHOD = N_("Payment method")
COMPANY = N_("Company")
ADDRESS = N_("Address")
VAT_NUMBER = N_("VAT number")
EMAIL = N_("E-mail")
MANDATE_REFERENCE = N_("Mandate reference")
CREDITOR = N_("Creditor")
CREDITOR_IDENTIFIER = N_("Creditor identifier")
AMOUNT = N_("Amount")
IBAN = N_("IBAN")
DEBIT_SUBJECT = N_("Your direct debit for order {number}")
DEBIT_LEAD = N_("Thank you for your order, {name}!")
DEBIT_ON = N_plural(
    "On {date} we will collect {amount} from your account {iban} by SEPA direct debit. "
    "Your {credits} credit is added as soon as the amount has been collected.",
    "On {date} we will collect {amount} from your account {iban} by SEPA direct debit. "
    "Your {credits} credits are added as soon as the amount has been collected.",
)
DEBIT_SOON = N_plural(
    "In the next few working days we will collect {amount} from your account {iban} by SEPA "
    "direct debit. Your {credits} credit is added as soon as the amount has been collected.",
    "In the next few working days we will collect {amount} from your account {iban} by SEPA "
    "direct debit. Your {credits} credits are added as soon as the amount has been collected.",
)
DEBIT_BUTTON = N_("View your order")
DEBIT_TITLE = N_("Your direct debit")
DEBIT_DATE = N_("Debit date")
DEBIT_DATE_SOON = N_("In the next few working days")
DEBIT_REFUND_RIGHT = N_(
    "You can ask your bank to refund this direct debit within 8 weeks of the date your account "
    "was debited, under the terms of your agreement with your bank."
)


def receipt_mail(
    order: Order,
    member: Member,
    name: str,
    settings: SiteSettings,
    mandate_reference: str | None = None,
) -> OutgoingMail:
    """The receipt of a paid order, addressed to the member by `name` (their profile name);
    `mandate_reference` for an order paid by direct debit."""
    locale = _locale(order, member)
    paid_on = (order.paid_at or order.created_at).date()
    credits = written_number(order.credits, locale)
    order_section = _order_section(order, paid_on, settings, locale, mandate_reference)
    body = MailBody(
        subject=gettext(locale, SUBJECT, number=order_number(order.id)),
        lead=gettext(locale, LEAD, name=name),
        body=gettext(locale, BODY, count=order.credits, credits=credits),
        button=gettext(locale, BUTTON),
        link=public_link(url("transactions")),
        note=_withdrawal_note(paid_on, settings.refund_days, locale),
        sections=(order_section, _seller(settings, locale)),
    )
    return render(body, Recipient(member.email, name, locale), settings)


def prenotification_mail(
    order: Order,
    member: Member,
    name: str,
    settings: SiteSettings,
    mandate_reference: str,
    iban_masked: str,
    due_date: date | None,
) -> OutgoingMail:
    """The notice of a direct debit on its way: what, when, under which mandate, from which
    account (masked), and the right to a refund from the bank."""
    locale = _locale(order, member)
    t = partial(gettext, locale)
    amount = _amount(order, locale)
    when = _long_date(due_date, locale) if due_date else t(DEBIT_DATE_SOON)
    credits = written_number(order.credits, locale)
    rows = (
        (t(ORDER_NUMBER), order_number(order.id)),
        (t(AMOUNT), amount),
        (t(DEBIT_DATE), when),
        (t(CREDITOR), settings.creditor_name),
        *_mandate_rows(mandate_reference, settings, locale),
        (t(IBAN), iban_masked),
    )
    body = MailBody(
        subject=t(DEBIT_SUBJECT, number=order_number(order.id)),
        lead=t(DEBIT_LEAD, name=name),
        body=t(
            DEBIT_ON if due_date else DEBIT_SOON,
            date=when,
            amount=amount,
            iban=iban_masked,
            count=order.credits,
            credits=credits,
        ),
        button=t(DEBIT_BUTTON),
        link=public_link(transaction_url(order.id)),
        note=t(DEBIT_REFUND_RIGHT),
        sections=(Section(t(DEBIT_TITLE), rows),),
    )
    return render(body, Recipient(member.email, name, locale), settings)


def _locale(order: Order, member: Member) -> str:
    return supported(order.locale) or supported(member.language) or DEFAULT_LOCALE


def _long_date(day: date, locale: str) -> str:
    return format_date(day, format="long", locale=locale)


def _amount(order: Order, locale: str) -> str:
    return format_money(order.amount_cents, order.currency, locale)


def _order_section(
    order: Order, paid_on: date, settings: SiteSettings, locale: str, mandate_reference: str | None
) -> Section:
    t = partial(gettext, locale)
    percentage = vat_rate(settings.vat_rates, order.country, settings.company_country)
    rate = written_percent(percentage, locale)
    vat = vat_included(order.amount_cents, percentage)
    rows = (
        (t(ORDER_NUMBER), order_number(order.id)),
        (t(DATE), _long_date(paid_on, locale)),
        (t(BUNDLE), t(BUNDLE_VALUE, count=order.credits)),
        *_discount_rows(order, locale),
        (t(AMOUNT_PAID), _amount(order, locale)),
        (t(VAT_PART, rate=rate), format_money(vat, order.currency, locale)),
        (t(METHOD), method_label(order.method, locale)),
        *(_mandate_rows(mandate_reference, settings, locale) if mandate_reference else ()),
    )
    return Section(t(ORDER_TITLE), rows)


def _mandate_rows(
    reference: str, settings: SiteSettings, locale: str
) -> tuple[tuple[str, str], ...]:
    """What names a direct debit on the payer's bank statement."""
    return (
        (gettext(locale, MANDATE_REFERENCE), reference),
        (gettext(locale, CREDITOR_IDENTIFIER), settings.creditor_identifier),
    )


def _discount_rows(order: Order, locale: str) -> tuple[tuple[str, str], ...]:
    if not order.discount_percentage:
        return ()
    saved = format_money(order.amount_cents - order.list_cents, order.currency, locale)
    percentage = written_percent(order.discount_percentage, locale)
    label = f"{order.discount_code}, {percentage}" if order.discount_code else percentage
    return (
        (gettext(locale, PRICE), format_money(order.list_cents, order.currency, locale)),
        (gettext(locale, DISCOUNT), f"{saved} ({label})"),
    )


def _seller(settings: SiteSettings, locale: str) -> Section:
    t = partial(gettext, locale)
    info = company_info(settings)
    rows = (
        (t(COMPANY), info.name),
        (t(ADDRESS), f"{info.address}, {info.city}, {country_name(info.country, locale)}"),
        (t(CHAMBER_OF_COMMERCE), info.kvk),
        (t(VAT_NUMBER), ", ".join(info.vat_numbers)),
        (t(EMAIL), info.support_email),
    )
    return Section(t(SELLER_TITLE), rows)


def _withdrawal_note(paid_on: date, days: int, locale: str) -> str:
    until = _long_date(paid_on + timedelta(days=days), locale)
    return gettext(locale, WITHDRAWAL, date=until, days=days)
