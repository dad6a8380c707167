"""Translated labels of the profile vocabularies: each vocabulary of models/attributes.py gets
its labels in its own order, so a value cannot lack a label.

A label is a msgid or (context, msgid): hair and eye colours each have their context ("Brown"
hair and eyes differ in many languages), and the labels that describe the person (sexuality,
body type, relationship status) take the person's gender as context, so Polish writes
"Wysportowany" for a man and "Wysportowana" for a woman. The region field is named the way its
country names its regions (a German Bundesland, a Swiss canton, a US state)."""

from models.attributes import (
    BODY_TYPES,
    EYE_COLOURS,
    GENDERS,
    HAIR_COLOURS,
    INTERESTS,
    RELATIONSHIP_STATUSES,
    SEXUALITIES,
    TATTOOS,
)
from models.regions import region_kind
from translations.catalog import N_, NC_, N_gendered

Label = str | tuple[str | None, str]  # a msgid, or (context, msgid)


def _labelled(vocabulary: tuple[str, ...], *labels: Label) -> dict[str, Label]:
    return dict(zip(vocabulary, labels, strict=True))


FIELD_LABELS = {
    "hair_colour": N_("Hair colour"),
    "eye_colour": N_("Eye colour"),
    "body_type": N_("Body type"),
    "relationship_status": N_("Relationship status"),
    "tattoos": N_("Tattoos"),
}
# The fields whose value labels take the member's gender as context.
GENDERED_FIELDS = ("sexuality", "body_type", "relationship_status")
VALUE_LABELS: dict[str, dict[str, Label]] = {
    "hair_colour": _labelled(
        HAIR_COLOURS, NC_("hair colour", "Black"), NC_("hair colour", "Brown"),
        NC_("hair colour", "Blond"), NC_("hair colour", "Red"), NC_("hair colour", "Grey"),
        NC_("hair colour", "Other"),
    ),
    "eye_colour": _labelled(
        EYE_COLOURS, NC_("eye colour", "Brown"), NC_("eye colour", "Blue"),
        NC_("eye colour", "Green"), NC_("eye colour", "Grey"), NC_("eye colour", "Hazel"),
    ),
    "body_type": _labelled(
        BODY_TYPES, N_gendered("Slim"), N_gendered("Athletic"), N_gendered("Average"),
        N_gendered("Curvy"), N_gendered("A few extra pounds"),
    ),
    "relationship_status": _labelled(
        RELATIONSHIP_STATUSES, N_gendered("Single"), N_gendered("Divorced"),
        N_gendered("Widowed"), N_gendered("In a relationship"), N_gendered("Married"),
    ),
    "tattoos": _labelled(TATTOOS, N_("None"), N_("One tattoo"), N_("Several tattoos")),
}  # fmt: skip
INTEREST_LABELS = _labelled(
    INTERESTS, N_("Travel"), N_("Music"), N_("Cooking"), N_("Sports"), N_("Films"),
    N_("Reading"), N_("Nature"), N_("Dancing"), N_("Art"), N_("Gaming"), N_("Fitness"),
    N_("Wine"), N_("Photography"), N_("Animals"),
)  # fmt: skip
GENDER_LABELS = _labelled(GENDERS, N_("Man"), N_("Woman"))
SEXUALITY_LABELS = _labelled(
    SEXUALITIES, N_gendered("Straight"), N_gendered("Gay"), N_gendered("Lesbian"),
    N_gendered("Bisexual"),
)  # fmt: skip
DETAIL_LABELS = {
    "gender": N_("Gender"), "sexuality": N_("Sexuality"), **FIELD_LABELS,
    "interests": N_("Interests"), "living_area": N_("Lives in"),
}  # fmt: skip
_FIELD_VALUES = {"gender": GENDER_LABELS, "sexuality": SEXUALITY_LABELS, **VALUE_LABELS}

# What the region field is called, by label key: pycountry's kind of the country's regions, or
# the country's own key where its kind would name it wrongly (REGION_KEYS).
REGION_LABELS: dict[str, Label] = {
    "Province": NC_("region field", "Province"),
    "Region": NC_("region field", "Region"),
    "State": NC_("region field", "State"),
    "Land": NC_("region field of Germany and Austria", "State"),
    "Canton": NC_("region field", "Canton"),
    "Voivodship": NC_("region field", "Voivodeship"),
    "County": NC_("region field", "County"),
    "Län": NC_("region field of Sweden", "County"),
    "Autonomous community": NC_("region field", "Autonomous community"),
    "Nation": NC_("region field of the United Kingdom", "Nation"),
}
# Countries whose regions pycountry's kind names wrongly for the label: Austria's are Länder
# like Germany's, the UK's are its nations (not "Country" beside the country field), Sweden's
# are län (Norway's fylke keep the general "County").
REGION_KEYS = {"AT": "Land", "GB": "Nation", "SE": "Län"}


def region_label_key(country: str) -> str:
    """The REGION_LABELS key naming the region field of `country` ("" without regions)."""
    kind = region_kind(country) if country else ""
    if not kind:
        return ""
    key = REGION_KEYS.get(country, kind)
    return key if key in REGION_LABELS else "Region"


def label_key(label: Label) -> str:
    """A label as one string a state can hold (gettext's own "context\\x04msgid" form)."""
    return label if isinstance(label, str) else f"{label[0]}\x04{label[1]}"


def value_label(field: str, value: str, gender: str) -> Label | None:
    """The label of `value` of a profile field for a member of `gender`, if the vocabulary
    knows it; a gendered label of an unknown gender takes the first."""
    label = _FIELD_VALUES.get(field, {}).get(value)
    if label is None or field not in GENDERED_FIELDS:
        return label
    return (gender if gender in GENDERS else GENDERS[0], label)


def every_label() -> dict[str, Label]:
    """Every label by its label_key: for showing a label chosen at runtime."""
    fixed = [DETAIL_LABELS, INTEREST_LABELS, GENDER_LABELS]
    fixed += [labels for field, labels in VALUE_LABELS.items() if field not in GENDERED_FIELDS]
    labels = [label for group in fixed for label in group.values()]
    labels += [
        value_label(field, value, gender)
        for field in GENDERED_FIELDS
        for value in _FIELD_VALUES[field]
        for gender in GENDERS
    ]
    return {label_key(label): label for label in labels if label is not None}
