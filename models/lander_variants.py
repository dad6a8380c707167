"""The landers' variants (docs/acquisition.md, "Variants"): setting `lander_variants`, rows of
a lander, a variant's name, its weight and its design options (which headline, which accent
colour). A visitor of a lander with variants is given one by weight and keeps it (cookie
`lander.variant`, one entry per lander); the click records it, so the console can show each
variant's visits, signups, confirmed signups and first purchases. Every headline a variant may
choose is an honest text in the catalogues, in every language: a variant never writes its own."""

import random
import re
from dataclasses import dataclass

from models.form_input import field_text
from models.routes import LANDER_NAMES
from models.setting_fields import NUMBER, SELECT, Group, Input, SettingRefused
from models.setting_kinds import one_of, whole
from models.site_settings import SiteSettings
from translations.catalog import N_

LANDERS = ("tinderswipe", *LANDER_NAMES)
# A variant's headline in place of the niche's own (components/landers/common.HEADLINES); each
# claims nothing about who the members are, so it fits every niche.
HEADLINE_TEXTS = {
    "invite": N_("Create your free profile and see who is near you"),
    "chat": N_("Start a conversation with someone near you"),
}
HEADLINES = ("niche", *HEADLINE_TEXTS)
ACCENTS = ("coral", "purple", "green")
# How the settings editor names the options (models/setting_catalogue.OPTION_LABELS).
LANDER_OPTION_LABELS = {
    "niche": N_("The niche's own headline"),
    **HEADLINE_TEXTS,
    "coral": N_("Coral red"),
    "purple": N_("Purple"),
    "green": N_("Green"),
}
NAME_PATTERN = re.compile(r"[a-z0-9-]{1,20}")
WEIGHT_MAX = 100
ROWS_MAX = 40
BLANK_ROWS = 3
VARIANT_COOKIE = "lander.variant"
COOKIE_MAX_AGE = 90 * 24 * 3600
LANDER = N_("Lander")
VARIANT = N_("Variant")
WEIGHT = N_("Weight")
HEADLINE = N_("Headline")
ACCENT = N_("Accent colour")
NAME_RULE = N_("Enter a name of 1 to 20 lower-case letters, digits or dashes.")
TWICE = N_("This lander already has a variant of this name.")


@dataclass(frozen=True)
class Variant:
    lander: str
    name: str
    weight: int
    headline: str = "niche"
    accent: str = "coral"


PLAIN = Variant("", "", 0)  # a lander without variants


def variants_of(settings: SiteSettings, lander: str) -> list[Variant]:
    """The lander's variants a visitor may be given (weight above 0)."""
    return [
        Variant(**row)
        for row in settings.lander_variants
        if row.get("lander") == lander and row.get("weight", 0) > 0
    ]


def kept_variants(cookie: str | None) -> dict[str, str]:
    """The variant the visitor keeps per lander, from the cookie (entries that are not a known
    lander and a valid name are ignored)."""
    kept: dict[str, str] = {}
    for entry in (cookie or "").split(".")[: len(LANDERS)]:
        lander, _, name = entry.partition(":")
        if lander in LANDERS and NAME_PATTERN.fullmatch(name):
            kept[lander] = name
    return kept


def cookie_value(kept: dict[str, str]) -> str:
    return ".".join(f"{lander}:{name}" for lander, name in kept.items())


def choose(variants: list[Variant], kept: str | None, rng: random.Random) -> Variant:
    """The variant `kept` names if it is still offered, else one drawn by weight; PLAIN when
    the lander has none."""
    for variant in variants:
        if variant.name == kept:
            return variant
    if not variants:
        return PLAIN
    return rng.choices(variants, weights=[v.weight for v in variants])[0]


def variant_named(settings: SiteSettings, lander: str, name: str) -> Variant:
    """The variant the page was given (PLAIN when none or no longer offered)."""
    return next((v for v in variants_of(settings, lander) if v.name == name), PLAIN)


@dataclass(frozen=True)
class LanderVariants:
    """The setting's editor: a row per variant (lander, name, weight, headline, accent) and a
    few empty rows for new ones; a row without a name is left out."""

    def groups(self, value: list[dict], settings: SiteSettings) -> list[Group]:
        rows = [*value, *[{}] * BLANK_ROWS][:ROWS_MAX]
        return [_row_group(i, row) for i, row in enumerate(rows)]

    def parse(self, form: dict, settings: SiteSettings) -> list[dict]:
        rows: list[dict] = []
        for i in range(ROWS_MAX):
            name = field_text(form, f"name.{i}", 21)
            if not name:
                continue
            if not NAME_PATTERN.fullmatch(name):
                raise SettingRefused(f"name.{i}", NAME_RULE)
            row = {
                "lander": one_of(form, f"lander.{i}", LANDERS),
                "name": name,
                "weight": whole(form, f"weight.{i}", 0, WEIGHT_MAX),
                "headline": one_of(form, f"headline.{i}", HEADLINES),
                "accent": one_of(form, f"accent.{i}", ACCENTS),
            }
            if any((r["lander"], r["name"]) == (row["lander"], name) for r in rows):
                raise SettingRefused(f"name.{i}", TWICE)
            rows.append(row)
        return rows


def _row_group(i: int, row: dict) -> Group:
    def select(key: str, label: str, options: tuple[str, ...], kind: str) -> Input:
        value = row.get(key, options[0])
        return Input(f"{key}.{i}", label, input=SELECT, value=value, options=list(options),
                     option_kind=kind)  # fmt: skip

    return Group(
        "",
        [
            select("lander", LANDER, LANDERS, "raw"),
            Input(f"name.{i}", VARIANT, value=row.get("name", "")),
            Input(f"weight.{i}", WEIGHT, input=NUMBER, value=str(row.get("weight", 50))),
            select("headline", HEADLINE, HEADLINES, "option"),
            select("accent", ACCENT, ACCENTS, "option"),
        ],
    )
