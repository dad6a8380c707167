"""The receipt mail for a paid order, in the language the member bought in (the order's locale,
else their account language), in the shared mail frame.

It lists the order number ("A-" and the order id with at least six digits: A-000123), the
payment date, the bundle and its credits, the price before and the discount if any, the amount
paid with the VAT it includes (the rate of the buyer's country, `vat_rates`), the method, the
seller's details, and the right of withdrawal within `refund_days` with a pro rata refund.
Dates are UTC calendar days.
"""

from datetime import date, timedelta
from decimal import Decimal
from functools import partial

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from models.member import Member
from models.orders import Order, order_number
from models.payment_methods import method_label
from models.pricing import format_money
from models.routes import url
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
from translations.catalog import N_, gettext
from translations.locales import DEFAULT_LOCALE, supported

SUBJECT = N_("Your receipt for order {number}")
LEAD = N_("Thank you for your purchase, {name}!")
BODY = N_("We have received your payment: {credits} credits have been added to your account.")
BUTTON = N_("View your purchases")
WITHDRAWAL = N_(
    "You may withdraw from this purchase until {date} ({days} days) on your purchases page. "
    "We then refund the price you paid pro rata for the credits you have not used yet, "
    "to the same means of payment."
)
ORDER_TITLE = N_("Your order")
SELLER_TITLE = N_("Sold by")
ORDER_NUMBER = N_("Order number")
DATE = N_("Date")
BUNDLE = N_("Bundle")
BUNDLE_VALUE = N_("{credits} credits ({tier})")
PRICE = N_("Price")
DISCOUNT = N_("Discount")
AMOUNT_PAID = N_("Amount paid")
VAT_PART = N_("Including VAT ({rate})")
METHOD = N_("Payment method")
COMPANY = N_("Company")
ADDRESS = N_("Address")
VAT_NUMBER = N_("VAT number")
EMAIL = N_("E-mail")


def receipt_mail(order: Order, member: Member, name: str, settings: SiteSettings) -> OutgoingMail:
    """The receipt of a paid order, addressed to the member by `name` (their profile name)."""
    locale = supported(order.locale) or supported(member.language) or DEFAULT_LOCALE
    to = Recipient(member.email, name, locale)
    paid_on = (order.paid_at or order.created_at).date()
    credits = format_decimal(order.credits, locale=locale)
    body = MailBody(
        subject=gettext(locale, SUBJECT, number=order_number(order.id)),
        lead=gettext(locale, LEAD, name=name),
        body=gettext(locale, BODY, credits=credits),
        button=gettext(locale, BUTTON),
        link=public_link(url("transactions")),
        note=_withdrawal_note(paid_on, settings.refund_days, locale),
        sections=(_order_section(order, paid_on, settings, locale), _seller(settings, locale)),
    )
    return render(body, to, settings)


def _percent(percentage: Decimal, locale: str) -> str:
    return format_percent(percentage / 100, locale=locale, format="#,##0.#%")


def _order_section(order: Order, paid_on: date, settings: SiteSettings, locale: str) -> Section:
    t = partial(gettext, locale)
    credits = format_decimal(order.credits, locale=locale)
    percentage = vat_rate(settings.vat_rates, order.country, settings.company_country)
    rate = _percent(percentage, locale)
    vat = vat_included(order.amount_cents, percentage)
    rows = (
        (t(ORDER_NUMBER), order_number(order.id)),
        (t(DATE), format_date(paid_on, format="long", locale=locale)),
        (t(BUNDLE), t(BUNDLE_VALUE, credits=credits, tier=order.tier.upper())),
        *_discount_rows(order, locale),
        (t(AMOUNT_PAID), format_money(order.amount_cents, order.currency, locale)),
        (t(VAT_PART, rate=rate), format_money(vat, order.currency, locale)),
        (t(METHOD), method_label(order.method, locale)),
    )
    return Section(t(ORDER_TITLE), rows)


def _discount_rows(order: Order, locale: str) -> tuple[tuple[str, str], ...]:
    if not order.discount_percentage:
        return ()
    saved = format_money(order.amount_cents - order.list_cents, order.currency, locale)
    percentage = _percent(order.discount_percentage, locale)
    label = f"{order.discount_code}, {percentage}" if order.discount_code else percentage
    return (
        (gettext(locale, PRICE), format_money(order.list_cents, order.currency, locale)),
        (gettext(locale, DISCOUNT), f"{saved} ({label})"),
    )


def _seller(settings: SiteSettings, locale: str) -> Section:
    t = partial(gettext, locale)
    info = company_info(settings)
    country = Locale.parse(locale).territories.get(info.country, info.country)
    rows = (
        (t(COMPANY), info.name),
        (t(ADDRESS), f"{info.address}, {info.city}, {country}"),
        (t(CHAMBER_OF_COMMERCE), info.kvk),
        (t(VAT_NUMBER), ", ".join(info.vat_numbers)),
        (t(EMAIL), info.support_email),
    )
    return Section(t(SELLER_TITLE), rows)


def _withdrawal_note(paid_on: date, days: int, locale: str) -> str:
    until = format_date(paid_on + timedelta(days=days), format="long", locale=locale)
    return gettext(locale, WITHDRAWAL, date=until, days=days)
