"""The facts a legal text names, from the site's settings, in one place: every {placeholder} of
models/legal/*.py is one of `FACT_NAMES`. Counts stay numbers (a counted text picks its form by
them); everything else is written the reader's language's way."""

from babel.dates import format_date

from models.orders import Order, pro_rata_refund
from models.pricing import Bundle, bundles_for, format_money
from models.site_settings import DEFAULT_CURRENCY, SiteSettings, company_info, terms_version_date
from translations.numbers import country_name

EXAMPLE_MESSAGES = 12  # the withdrawal example's member sent this many messages first

# The counts among the facts (a counted text, N_plural, names one of them as its count): the
# settings' own, and the return policy's worked example's.
SETTING_COUNTS = (
    "refund_days",
    "message_credits",
    "gift_credits",
    "photo_credits",
    "signup_credits",
    "min_age",
)
COUNT_FACTS = (*SETTING_COUNTS, "example_credits", "example_used", "example_unused")

TEXT_FACTS = (
    "site",
    "domain",
    "company",
    "address",
    "city",
    "country",
    "kvk",
    "vat_numbers",
    "tradenames",
    "support_email",
    "support_phone",
    "creditor_identifier",
    "version_date",
    "fictional_singular",
    "fictional_plural",
    "example_price",
    "example_refund",
)

FACT_NAMES = frozenset(COUNT_FACTS + TEXT_FACTS)

Facts = dict[str, str | int]


def legal_facts(settings: SiteSettings, locale: str) -> Facts:
    """Every fact, as a page in `locale` shows it."""
    company = company_info(settings)
    texts = {
        "site": settings.name,
        "domain": settings.domain,
        "company": company.name,
        "address": company.address,
        "city": company.city,
        "country": country_name(company.country, locale),
        "kvk": company.kvk,
        "vat_numbers": ", ".join(company.vat_numbers),
        "tradenames": ", ".join(company.tradenames or [settings.name]),
        "support_email": company.support_email,
        "support_phone": company.support_phone,  # as the footer shows it
        "creditor_identifier": settings.creditor_identifier,
        "version_date": format_date(terms_version_date(settings), "long", locale=locale),
        "fictional_singular": settings.fictional_singular.get(locale, ""),
        "fictional_plural": settings.fictional_plural.get(locale, ""),
    }
    counts = {name: getattr(settings, name) for name in SETTING_COUNTS}
    return {**texts, **counts, **withdrawal_example(settings, locale)}


def withdrawal_example(settings: SiteSettings, locale: str) -> Facts:
    """The return policy's worked example: a euro bundle (the second, when there are several),
    some messages sent, the rest withdrawn; the refund worked out as the site works it out
    (models/orders.pro_rata_refund)."""
    bundles = bundles_for(settings, DEFAULT_CURRENCY)
    chosen = bundles[min(1, len(bundles) - 1)] if bundles else _NO_BUNDLE
    used = min(EXAMPLE_MESSAGES * settings.message_credits, chosen.credits // 2)
    order = Order(credits=chosen.credits, amount_cents=chosen.cents)
    refund = pro_rata_refund(order, chosen.credits - used) if chosen.credits else 0
    return {
        "example_credits": chosen.credits,
        "example_used": used,
        "example_unused": chosen.credits - used,
        "example_price": format_money(chosen.cents, DEFAULT_CURRENCY, locale),
        "example_refund": format_money(refund, DEFAULT_CURRENCY, locale),
    }


_NO_BUNDLE = Bundle("", 0, 0, False, 0, 0, 0, DEFAULT_CURRENCY)
