"""Which site settings an admin edits in the console, grouped by theme, each with its kind (its
editor and its rules, models/setting_kinds.py). `cdn_prefix` is the one setting left out: it
is deployment configuration (where the photo route is served), changed with the deployment.
A test proves every other SiteSettings field is here."""

from dataclasses import dataclass

from models.attributes import INTERESTS
from models.setting_kinds import (
    Bundles,
    Choice,
    Day,
    Kind,
    Lines,
    MessageCosts,
    PerLanguage,
    Rates,
    Subset,
    Text,
    WholeNumber,
    YesNo,
    fixed,
)
from models.site_settings import NICHE_SLUG_PREFIXES, TARGET_COUNTRIES, SiteSettings
from translations.catalog import N_
from translations.locales import LOCALES

DEPLOYMENT_ONLY = frozenset({"cdn_prefix"})
# A signup's first message is stored whole in a column of 2000 characters
# (models/signup.SignupSource), a chat message in one of 4000.
MESSAGE_LENGTH_MAX = 2000

SITE = N_("Site")
COSTS = N_("Credits and costs")
PRICES = N_("Bundles, prices and VAT")
COUNTRIES = N_("Countries")
MEMBERS = N_("Members, search and signups")
FICTIONAL = N_("Fictional profiles")
MODERATION = N_("Moderation")
COMPANY = N_("Company and support")
DIRECT_DEBIT = N_("Direct debit")
GROUPS = (SITE, COSTS, PRICES, COUNTRIES, MEMBERS, FICTIONAL, MODERATION, COMPANY, DIRECT_DEBIT)

SEARCH_FIELDS = ("gender", "country", "countryregion", "min_age", "max_age")
SIGNUPS = ("all", "with_trafficsource", "none")
EMAIL = r"[^@\s]+@[^@\s]+\.[^@\s]+"
PHONE = r"\+?[0-9][0-9 \-()]{5,30}"
VAT_NUMBER = r"[A-Z]{2}[0-9A-Z+*.]{2,13}"
KVK = r"[0-9]{8}"
CREDITOR_ID = r"[A-Z]{2}[0-9]{2}[A-Z0-9]{3}[A-Z0-9]{1,28}"

_countries = fixed(*TARGET_COUNTRIES)
_profile_fields = fixed(*SiteSettings().visible_profile_fields)  # the default: every field
_label = PerLanguage(LOCALES, Text(60))


def _tiers(settings) -> tuple[str, ...]:
    return tuple(settings.credit_bundles)


@dataclass(frozen=True)
class Editable:
    key: str
    group: str
    kind: Kind


def _group(group: str, **kinds: Kind) -> list[Editable]:
    return [Editable(key, group, kind) for key, kind in kinds.items()]


EDITABLE: dict[str, Editable] = {
    e.key: e
    for e in [
        *_group(
            SITE,
            name=Text(60),
            index_title=Text(120),
            description=Text(300),
            domain=Text(253, pattern=r"[a-z0-9.\-]+"),
            domain_language=Choice(fixed("", *LOCALES), "language"),
            mail_name=Text(60),
            niche=WholeNumber(min(NICHE_SLUG_PREFIXES), max(NICHE_SLUG_PREFIXES)),
        ),
        *_group(
            COSTS,
            message_credits=WholeNumber(1, 1000),
            gift_credits=WholeNumber(1, 10_000),
            photo_credits=WholeNumber(0, 10_000),
            signup_credits=WholeNumber(0, 10_000),
            message_length=WholeNumber(100, MESSAGE_LENGTH_MAX),
            delete_discount=WholeNumber(0, 90),
        ),
        *_group(
            PRICES,
            credit_bundles=Bundles(),
            popular_bundle=Choice(_tiers),
            minimum_message_costs=MessageCosts(),
            vat_rates=Rates(_countries),
        ),
        *_group(
            COUNTRIES,
            countries=Subset(_countries, "country", low=1),
            enable_site_entry_popup=Choice(fixed("yes", "no")),
            site_entry_popup_countries=Subset(_countries, "country"),
        ),
        *_group(
            MEMBERS,
            signups=Choice(fixed(*SIGNUPS)),
            min_age=WholeNumber(18, 99),
            logged_out_search=YesNo(),
            logged_out_search_trafficsource=YesNo(),
            search_fields=Subset(fixed(*SEARCH_FIELDS)),
            visible_profile_fields=Subset(_profile_fields),
            visible_profile_notes=YesNo(),
            interests=Subset(fixed(*INTERESTS), low=1),
            member_resell=YesNo(),
        ),
        *_group(
            FICTIONAL,
            fictional_warning=YesNo(),
            fictional_singular=_label,
            fictional_plural=_label,
        ),
        *_group(MODERATION, photo_moderation=Choice(fixed("pre", "post"))),
        *_group(
            COMPANY,
            company_name=Text(120),
            company_address=Text(200),
            company_city=Text(120),
            company_country=Choice(_countries, "country"),
            company_kvk=Text(8, pattern=KVK),
            company_vat_numbers=Lines(Text(15, pattern=VAT_NUMBER)),
            company_tradenames=Lines(Text(120)),
            company_added=Day(),
            company_id=WholeNumber(1, 1_000_000),
            support_email=Text(254, pattern=EMAIL),
            support_phone=Text(32, pattern=PHONE),
            refund_days=WholeNumber(14, 365),
        ),
        *_group(
            DIRECT_DEBIT,
            creditor_name=Text(70),
            creditor_identifier=Text(35, pattern=CREDITOR_ID),
            creditor_address=Text(140),
            creditor_country=Choice(fixed("", *TARGET_COUNTRIES), "country"),
            sdd_limit_day_cents=WholeNumber(0, 10_000_000),
            sdd_limit_30d_cents=WholeNumber(0, 100_000_000),
            sdd_accounts_per_iban=WholeNumber(1, 10),
        ),
    ]
}
