"""Which site settings an admin edits in the console, grouped by theme, each with its label,
its kind (its editor and its rules, models/setting_kinds.py) and maybe a one-line hint.
`cdn_prefix` is the one setting left out: it is deployment configuration (where the photo route
is served), changed with the deployment.
A test proves every other SiteSettings field is here."""

from dataclasses import dataclass

from models.attributes import INTERESTS
from models.lander_variants import LANDER_OPTION_LABELS, LanderVariants
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
from models.setting_postbacks import PostbackTemplates
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
TRAFFIC = N_("Traffic sources")
FICTIONAL = N_("Fictional profiles")
MODERATION = N_("Moderation")
COMPANY = N_("Company and support")
DIRECT_DEBIT = N_("Direct debit")
GROUPS = (
    SITE, COSTS, PRICES, COUNTRIES, MEMBERS, TRAFFIC, FICTIONAL, MODERATION, COMPANY, DIRECT_DEBIT
)  # fmt: skip

SEARCH_FIELDS = ("gender", "country", "countryregion", "min_age", "max_age")
SIGNUPS = ("all", "with_trafficsource", "none")
EMAIL = r"[^@\s]+@[^@\s]+\.[^@\s]+"
PHONE = r"\+?[0-9][0-9 \-()]{5,30}"
VAT_NUMBER = r"[A-Z]{2}[0-9A-Z+*.]{2,13}"
KVK = r"[0-9]{8}"
PARTNER_LINK = r"https://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(/[^\s<>\"{}]*(\{placement\}[^\s<>\"{}]*)*)?"
CREDITOR_ID = r"[A-Z]{2}[0-9]{2}[A-Z0-9]{3}[A-Z0-9]{1,28}"

_countries = fixed(*TARGET_COUNTRIES)
_profile_fields = fixed(*SiteSettings().visible_profile_fields)  # the default: every field
_label = PerLanguage(LOCALES, Text(60))


def _tiers(settings) -> tuple[str, ...]:
    return tuple(settings.credit_bundles)


PER_IBAN = N_("The most collected from one IBAN, in cents.")

# The console names a setting by its label (its key beside it), a vocabulary's values of kind
# "option" by these labels (models/setting_fields.py).
OPTION_LABELS = {
    "all": N_("Everyone"),
    "with_trafficsource": N_("Only visitors with a traffic source"),
    "none": N_("Nobody"),
    "pre": N_("Before photos are shown (pre-moderation)"),
    "post": N_("After photos are shown (post-moderation)"),
    "yes": N_("Yes"),
    "no": N_("No"),
    **LANDER_OPTION_LABELS,
}


@dataclass(frozen=True)
class Editable:
    key: str
    group: str
    label: str
    kind: Kind | PostbackTemplates | LanderVariants
    hint: str = ""  # one line under the label, where the label alone leaves a question


def _group(group: str, **entries: tuple[str, Kind] | tuple[str, Kind, str]) -> list[Editable]:
    return [Editable(key, group, *entry) for key, entry in entries.items()]


EDITABLE: dict[str, Editable] = {
    e.key: e
    for e in [
        *_group(
            SITE,
            name=(N_("Site name"), Text(60)),
            index_title=(N_("Home page title"), Text(120)),
            description=(N_("Site description"), Text(300)),
            domain=(N_("Domain"), Text(253, pattern=r"[a-z0-9.\-]+")),
            domain_language=(N_("Language of the domain"), Choice(fixed("", *LOCALES), "language")),
            mail_name=(N_("Sender name of e-mails"), Text(60)),
            niche=(
                N_("Niche (1 to 7)"),
                WholeNumber(min(NICHE_SLUG_PREFIXES), max(NICHE_SLUG_PREFIXES)),
                N_("Sets the prefix of the profiles' web addresses."),
            ),
        ),
        *_group(
            COSTS,
            message_credits=(N_("Credits per message"), WholeNumber(1, 1000)),
            gift_credits=(N_("Credits per gift"), WholeNumber(1, 10_000)),
            photo_credits=(N_("Credits per photo"), WholeNumber(0, 10_000)),
            signup_credits=(N_("Free credits at signup"), WholeNumber(0, 10_000)),
            message_length=(
                N_("Maximum length of a message (characters)"),
                WholeNumber(100, MESSAGE_LENGTH_MAX),
            ),
            delete_discount=(
                N_("Discount offered instead of deleting the account (%)"),
                WholeNumber(0, 90),
                N_("Offered once, as a personal code, to a member about to delete the account."),
            ),
        ),
        *_group(
            PRICES,
            credit_bundles=(N_("Credit bundles"), Bundles()),
            popular_bundle=(N_("Bundle marked as popular"), Choice(_tiers)),
            minimum_message_costs=(
                N_("Lowest price of a message per country"),
                MessageCosts(),
                N_("Derived from the bundle prices unless set here."),
            ),
            vat_rates=(N_("VAT rates per country (%)"), Rates(_countries)),
        ),
        *_group(
            COUNTRIES,
            countries=(N_("Countries of the site"), Subset(_countries, "country", low=1)),
            enable_site_entry_popup=(
                N_("Entry notice on the first visit"),
                Choice(fixed("yes", "no"), "option"),
            ),
            site_entry_popup_countries=(
                N_("Countries that see the entry notice"),
                Subset(_countries, "country"),
            ),
        ),
        *_group(
            MEMBERS,
            signups=(N_("Who can sign up"), Choice(fixed(*SIGNUPS), "option")),
            min_age=(N_("Minimum age"), WholeNumber(18, 99)),
            logged_out_search=(N_("Search without logging in"), YesNo()),
            logged_out_search_trafficsource=(
                N_("Search without logging in, only with a traffic source"),
                YesNo(),
            ),
            search_fields=(N_("Search filters"), Subset(fixed(*SEARCH_FIELDS))),
            visible_profile_fields=(N_("Visible profile fields"), Subset(_profile_fields)),
            visible_profile_notes=(N_("Show profile notes"), YesNo()),
            interests=(N_("Interests to choose from"), Subset(fixed(*INTERESTS), low=1)),
            member_resell=(N_("Resale by members"), YesNo()),
        ),
        *_group(
            TRAFFIC,
            postback_urls=(
                N_("Postback addresses of the traffic networks"),
                PostbackTemplates(),
                N_(
                    "Per network, the address each conversion is reported to. The placeholders "
                    "clickid, sub1, sub2, sub3, ref, event, amount, currency and tid, each in "
                    "braces, are replaced by their values. An empty row is left out."
                ),
            ),
            cam_promotion=(N_("Cam promotion cards"), YesNo()),
            cam_partner_name=(N_("Name of the cam partner"), Text(60, low=0)),
            cam_partner_url=(
                N_("Link to the cam partner"),
                Text(500, low=0, pattern=PARTNER_LINK),
                N_(
                    "An https address with our partner code. {placement} in it is replaced by "
                    "where the card was shown. The cards show only with a name and a link."
                ),
            ),
            lander_variants=(
                N_("Variants of the landers"),
                LanderVariants(),
                N_(
                    "A visitor is given one of a lander's variants by weight and keeps it. A "
                    "weight of 0 stops a variant; a row without a name is left out."
                ),
            ),
        ),
        *_group(
            FICTIONAL,
            fictional_warning=(N_("Warning about fictional profiles"), YesNo()),
            fictional_singular=(N_("Name of a fictional profile (singular)"), _label),
            fictional_plural=(N_("Name of fictional profiles (plural)"), _label),
        ),
        *_group(
            MODERATION,
            photo_moderation=(N_("Photo moderation"), Choice(fixed("pre", "post"), "option")),
        ),
        *_group(
            COMPANY,
            company_name=(N_("Company name"), Text(120)),
            company_address=(N_("Company address"), Text(200)),
            company_city=(N_("Postcode and city of the company"), Text(120)),
            company_country=(N_("Country of the company"), Choice(_countries, "country")),
            company_kvk=(N_("Chamber of Commerce number"), Text(8, pattern=KVK)),
            company_vat_numbers=(N_("VAT numbers"), Lines(Text(15, pattern=VAT_NUMBER))),
            company_tradenames=(N_("Trade names"), Lines(Text(120))),
            company_added=(N_("Company since (date)"), Day()),
            company_id=(N_("Company number (internal)"), WholeNumber(1, 1_000_000)),
            support_email=(N_("Support e-mail address"), Text(254, pattern=EMAIL)),
            support_phone=(N_("Support phone number"), Text(32, pattern=PHONE)),
            refund_days=(
                N_("Right of withdrawal (days)"),
                WholeNumber(14, 365),
                N_("At least 14 days, as the law requires."),
            ),
        ),
        *_group(
            DIRECT_DEBIT,
            creditor_name=(N_("Creditor name"), Text(70)),
            creditor_identifier=(N_("Creditor identifier"), Text(35, pattern=CREDITOR_ID)),
            creditor_address=(N_("Creditor address"), Text(140)),
            creditor_country=(
                N_("Creditor country"),
                Choice(fixed("", *TARGET_COUNTRIES), "country"),
            ),
            sdd_limit_day_cents=(
                N_("Direct debit limit per day (cents)"),
                WholeNumber(0, 10_000_000),
                PER_IBAN,
            ),
            sdd_limit_30d_cents=(
                N_("Direct debit limit per 30 days (cents)"),
                WholeNumber(0, 100_000_000),
                PER_IBAN,
            ),
            sdd_accounts_per_iban=(
                N_("Accounts per IBAN"),
                WholeNumber(1, 10),
                N_("How many accounts may pay by direct debit from the same IBAN."),
            ),
        ),
    ]
}
