"""Site settings (spec section 3, Settings): database rows over typed, sensible defaults."""

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, Session, SQLModel, select

from models.attributes import INTERESTS

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

_CURRENCY_BY_COUNTRY = {
    "GB": ("GBP", 0.25), "US": ("USD", 0.29), "CA": ("CAD", 0.39), "AU": ("AUD", 0.45),
    "NZ": ("NZD", 0.49), "CH": ("CHF", 0.29), "PL": ("PLN", 1.19), "DK": ("DKK", 2.19),
    "NO": ("NOK", 3.19), "SE": ("SEK", 3.19),
}  # fmt: skip


def _default_message_costs() -> dict[str, dict[str, Any]]:
    return {
        country: {"costs": costs, "currency": currency}
        for country in TARGET_COUNTRIES
        for currency, costs in [_CURRENCY_BY_COUNTRY.get(country, ("EUR", 0.25))]
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
    signup_credits: int = 10
    photo_credits: int = 10
    gift_credits: int = 25
    message_length: int = 1000
    minimum_message_costs: dict[str, dict[str, Any]] = field(default_factory=_default_message_costs)
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
    signups: str = "all"
    logged_out_search: bool = True
    logged_out_search_trafficsource: bool = False
    member_resell: bool = False
    niche: int = 1
    min_age: int = 18

    @property
    def niche_slug_prefix(self) -> str:
        return NICHE_SLUG_PREFIXES.get(self.niche, "")

    def photo_url(self, filename: str) -> str:
        """Where browsers fetch a stored photo (the photo route checks who may see it)."""
        return f"{self.cdn_prefix}photos/{filename}"


SETTING_NAMES = frozenset(f.name for f in dataclasses.fields(SiteSettings))


class SiteSetting(SQLModel, table=True):
    key: str = Field(primary_key=True, max_length=64)
    value: Any = Field(sa_column=Column(JSON, nullable=False))


def load_settings(db: Session) -> SiteSettings:
    stored = {row.key: row.value for row in db.exec(select(SiteSetting))}
    return SiteSettings(**{k: v for k, v in stored.items() if k in SETTING_NAMES})


def save_setting(db: Session, key: str, value: Any) -> None:
    if key not in SETTING_NAMES:
        raise KeyError(f"unknown setting {key!r}")
    expected = type(getattr(SiteSettings(), key))
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise TypeError(f"setting {key!r} takes {expected.__name__}")
    db.merge(SiteSetting(key=key, value=value))
    db.flush()


def seed_default_settings(db: Session) -> None:
    """Write every default that has no row yet, so each setting is an editable row."""
    present = set(db.exec(select(SiteSetting.key)))
    for f in dataclasses.fields(SiteSettings):
        if f.name not in present:
            db.add(SiteSetting(key=f.name, value=getattr(SiteSettings(), f.name)))
    db.flush()


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


def terms_version_date(settings: SiteSettings) -> date:
    """2023-12-01, unless the company was added later."""
    try:
        added = date.fromisoformat(settings.company_added)
    except ValueError:
        return TERMS_VERSION_DATE
    return max(added, TERMS_VERSION_DATE)
