"""Site settings (spec section 3, Settings): database rows over typed, sensible defaults.

The default credit economy tells one story. A message costs 5 credits and a gift 20, so a gift is
worth four messages. A new member gets 20 credits: four messages or one gift, enough to try
either. Four bundles (p0 to p3: 100, 250, 600 and 1500 credits, that is 20 to 300 messages) are
priced in each country's currency, VAT included; the bigger the bundle, the cheaper a message
(in euros from 1.00 down to 0.50). `minimum_message_costs` is that lowest price per message in
each country's currency: derived from the bundles whenever the stored value is empty (as seeded),
so editing the bundles or `message_credits` keeps it right; a non-empty value overrides it.
"""

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, Session, SQLModel, select

from models.attributes import INTERESTS
from models.pricing import bundles_for
from models.vat import DEFAULT_VAT_RATES
from translations.numbers import country_name

TARGET_COUNTRIES = (
    "NL", "BE", "DE", "AT", "CH", "LU", "IT", "FR", "ES", "PL", "DK", "FI", "NO", "SE",
    "GB", "IE", "US", "CA", "AU", "NZ",
)  # fmt: skip

_PROFILE_FIELDS = (
    "gender", "sexuality", "hair_colour", "eye_colour", "body_type",
    "relationship_status", "tattoos", "interests", "living_area",
)  # fmt: skip

# Niche 1..7 selects the landing-page slug prefix.
NICHE_SLUG_PREFIXES = {1: "", 2: "she-", 3: "bdsm-", 4: "bbw-", 5: "gilf-", 6: "milf-", 7: "gay-"}

TERMS_VERSION_DATE = date(2023, 12, 1)

# The words the fictional-profile disclaimer uses, per interface language.
_FICTIONAL_SINGULAR = {
    "nl": "fictief profiel", "en": "fictional profile", "de": "fiktives Profil",
    "it": "profilo fittizio", "fr": "profil fictif", "es": "perfil ficticio",
    "pl": "fikcyjny profil", "da": "fiktiv profil", "fi": "fiktiivinen profiili",
    "nb": "fiktiv profil", "sv": "fiktiv profil",
}  # fmt: skip
_FICTIONAL_PLURAL = {
    "nl": "fictieve profielen", "en": "fictional profiles", "de": "fiktive Profile",
    "it": "profili fittizi", "fr": "profils fictifs", "es": "perfiles ficticios",
    "pl": "fikcyjne profile", "da": "fiktive profiler", "fi": "fiktiiviset profiilit",
    "nb": "fiktive profiler", "sv": "fiktiva profiler",
}  # fmt: skip

DEFAULT_CURRENCY = "EUR"
COUNTRY_CURRENCY = {
    "GB": "GBP", "US": "USD", "CA": "CAD", "AU": "AUD", "NZ": "NZD", "CH": "CHF", "PL": "PLN",
    "DK": "DKK", "NO": "NOK", "SE": "SEK",
}  # fmt: skip

_BUNDLE_CREDITS = {"p0": 100, "p1": 250, "p2": 600, "p3": 1500}
# Prices in cents, VAT included, for p0..p3: rounded to what shoppers expect in each currency.
_BUNDLE_PRICES = {
    "EUR": (1995, 3995, 7995, 14995),
    "GBP": (1795, 3495, 6995, 12995),
    "USD": (2195, 4495, 8995, 16995),
    "CAD": (2995, 5995, 11995, 22995),
    "AUD": (3495, 6995, 13995, 25995),
    "NZD": (3695, 7495, 14995, 27995),
    "CHF": (1995, 3995, 7995, 14995),
    "PLN": (8900, 17900, 34900, 64900),
    "DKK": (14900, 29900, 59900, 109900),
    "NOK": (22900, 45900, 89900, 169900),
    "SEK": (22900, 44900, 89900, 164900),
}


def _default_bundles() -> dict[str, dict[str, Any]]:
    return {
        tier: {
            "credits": credits,
            "prices": {currency: prices[index] for currency, prices in _BUNDLE_PRICES.items()},
        }
        for index, (tier, credits) in enumerate(_BUNDLE_CREDITS.items())
    }


@dataclass(frozen=True)
class SiteSettings:
    name: str = "Amorly"
    index_title: str = "Amorly"
    description: str = "Amorly"
    domain: str = "localhost"
    domain_language: str = ""
    countries: list[str] = field(default_factory=lambda: list(TARGET_COUNTRIES))
    visible_profile_fields: list[str] = field(default_factory=lambda: list(_PROFILE_FIELDS))
    visible_profile_notes: bool = True
    search_fields: list[str] = field(
        default_factory=lambda: ["gender", "country", "countryregion", "min_age", "max_age"]
    )
    interests: list[str] = field(default_factory=lambda: list(INTERESTS))
    cdn_prefix: str = "/media/"
    message_credits: int = 5
    signup_credits: int = 20
    photo_credits: int = 10
    gift_credits: int = 20
    message_length: int = 1000
    credit_bundles: dict[str, dict[str, Any]] = field(default_factory=_default_bundles)
    popular_bundle: str = "p2"
    # Empty means derived from the bundles (see the module docstring).
    minimum_message_costs: dict[str, dict[str, Any]] = field(default_factory=dict)
    support_email: str = "support@amorly.example"
    support_phone: str = "+31 20-123 45 67"
    company_name: str = "Amorly Media B.V."
    company_address: str = "Keizersgracht 123"
    company_kvk: str = "87654321"
    company_city: str = "1015 CJ Amsterdam"
    company_country: str = "NL"
    company_tradenames: list[str] = field(default_factory=lambda: ["Amorly"])
    company_vat_numbers: list[str] = field(default_factory=lambda: ["NL862345678B01"])
    company_added: str = "2023-06-15"
    company_id: int = 1
    mail_name: str = "Amorly"
    delete_discount: int = 50
    enable_site_entry_popup: str = "yes"
    site_entry_popup_countries: list[str] = field(
        default_factory=lambda: ["NL", "BE", "DE", "AT", "CH", "LU"]
    )
    fictional_warning: bool = True
    fictional_singular: dict[str, str] = field(default_factory=lambda: dict(_FICTIONAL_SINGULAR))
    fictional_plural: dict[str, str] = field(default_factory=lambda: dict(_FICTIONAL_PLURAL))
    refund_days: int = 14
    # SEPA direct debit: the creditor on the mandate, and limits per IBAN (amounts in cents).
    creditor_name: str = "Amorly Media B.V."
    creditor_identifier: str = "NL98ZZZ999999999999"
    creditor_address: str = "Keizersgracht 123, 1015 CJ Amsterdam"  # street and city
    creditor_country: str = "NL"  # named in the reader's language after the address; "" none
    sdd_limit_day_cents: int = 20000
    sdd_limit_30d_cents: int = 50000
    sdd_accounts_per_iban: int = 1
    vat_rates: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_VAT_RATES))
    signups: str = "all"
    logged_out_search: bool = True
    logged_out_search_trafficsource: bool = False
    # Network (the tracking record's `network`) -> the address its conversions are reported to
    # (models/setting_postbacks.py).
    postback_urls: dict[str, str] = field(default_factory=dict)
    # The landers' weighted variants, rows of models/lander_variants.Variant's fields.
    lander_variants: list[dict] = field(default_factory=list)
    # Cam promotion cards (components/cam_promotion.py): a partner site's card, its link
    # carrying our tracking ({placement}: where the card was shown).
    cam_promotion: bool = False
    cam_partner_name: str = ""
    cam_partner_url: str = ""
    member_resell: bool = False
    niche: int = 1
    min_age: int = 18
    photo_moderation: str = "post"  # "pre": new photos wait for approval; "post": reviewed after

    def __post_init__(self) -> None:
        if not self.minimum_message_costs:
            object.__setattr__(self, "minimum_message_costs", derived_message_costs(self))

    @property
    def niche_slug_prefix(self) -> str:
        return NICHE_SLUG_PREFIXES.get(self.niche, "")

    def photo_url(self, filename: str) -> str:
        """Where browsers fetch a stored photo (the photo route checks who may see it)."""
        return f"{self.cdn_prefix}photos/{filename}"


SETTING_NAMES = frozenset(f.name for f in dataclasses.fields(SiteSettings))


def currency_for(settings: SiteSettings, country: str | None) -> str:
    """The currency a country pays in: its own when every bundle has a price in it, else EUR."""
    currency = COUNTRY_CURRENCY.get((country or "").upper(), DEFAULT_CURRENCY)
    priced = all(currency in spec["prices"] for spec in settings.credit_bundles.values())
    return currency if priced else DEFAULT_CURRENCY


def derived_message_costs(settings: SiteSettings) -> dict[str, dict[str, Any]]:
    """Per country: the lowest price of a message in any bundle, in major units of its currency."""
    costs: dict[str, dict[str, Any]] = {}
    for country in settings.countries:
        currency = currency_for(settings, country)
        if bundles := bundles_for(settings, currency):
            cheapest = min(b.per_message_cents for b in bundles)
            costs[country] = {"costs": cheapest / 100, "currency": currency}
    return costs


class SiteSetting(SQLModel, table=True):
    key: str = Field(primary_key=True, max_length=64)
    value: Any = Field(sa_column=Column(JSON, nullable=False))


def load_settings(db: Session) -> SiteSettings:
    stored = {row.key: row.value for row in db.exec(select(SiteSetting))}
    return SiteSettings(**{k: v for k, v in stored.items() if k in SETTING_NAMES})


# Set in a session's `info` once it wrote setting rows: what it reads may never be committed,
# so services/site_settings.py does not cache it.
SETTINGS_WRITTEN = "site_settings_written"


def save_setting(db: Session, key: str, value: Any) -> None:
    if key not in SETTING_NAMES:
        raise KeyError(f"unknown setting {key!r}")
    expected = type(getattr(SiteSettings(), key))
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise TypeError(f"setting {key!r} takes {expected.__name__}")
    db.info[SETTINGS_WRITTEN] = True
    db.merge(SiteSetting(key=key, value=value))
    db.flush()


def seed_default_settings(db: Session) -> None:
    """Write every default that has no row yet, so each setting is an editable row."""
    present = set(db.exec(select(SiteSetting.key)))
    for f in dataclasses.fields(SiteSettings):
        if f.name not in present:
            db.add(SiteSetting(key=f.name, value=_stored_default(f)))
    db.info[SETTINGS_WRITTEN] = True
    db.flush()


def _stored_default(f: dataclasses.Field) -> Any:
    """The field's own default, before `__post_init__` derives anything from it."""
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


@dataclass(frozen=True)
class CompanyInfo:
    name: str
    address: str
    kvk: str
    city: str
    country: str
    tradenames: list[str]
    vat_numbers: list[str]
    support_phone: str
    support_email: str
    delete_discount: int
    added: str


def company_info(settings: SiteSettings) -> CompanyInfo:
    return CompanyInfo(
        name=settings.company_name,
        address=settings.company_address,
        kvk=settings.company_kvk,
        city=settings.company_city,
        country=settings.company_country,
        tradenames=list(settings.company_tradenames),
        vat_numbers=list(settings.company_vat_numbers),
        support_phone=re.sub(r"[-\s]", "", settings.support_phone),
        support_email=settings.support_email,
        delete_discount=settings.delete_discount,
        added=settings.company_added,
    )


def creditor_address(settings: SiteSettings, locale: str) -> str:
    """The creditor's address as a mandate shows it, its country named in `locale`; with no
    country (one the address already holds, migrations/versions/0015) as it is stored."""
    if not settings.creditor_country:
        return settings.creditor_address
    return f"{settings.creditor_address}, {country_name(settings.creditor_country, locale)}"


def terms_version_date(settings: SiteSettings) -> date:
    """2023-12-01, unless the company was added later."""
    try:
        added = date.fromisoformat(settings.company_added)
    except ValueError:
        return TERMS_VERSION_DATE
    return max(added, TERMS_VERSION_DATE)
