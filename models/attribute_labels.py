"""Translated labels (msgids) of the profile vocabularies: each vocabulary of
models/attributes.py gets its labels in its own order, so a value cannot lack a label."""

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
from translations.catalog import N_


def _labelled(vocabulary: tuple[str, ...], *labels: str) -> dict[str, str]:
    return dict(zip(vocabulary, labels, strict=True))


FIELD_LABELS = {
    "hair_colour": N_("Hair colour"),
    "eye_colour": N_("Eye colour"),
    "body_type": N_("Body type"),
    "relationship_status": N_("Relationship status"),
    "tattoos": N_("Tattoos"),
}
VALUE_LABELS = {
    "hair_colour": _labelled(
        HAIR_COLOURS, N_("Black"), N_("Brown"), N_("Blond"), N_("Red"), N_("Grey"), N_("Other")
    ),
    "eye_colour": _labelled(
        EYE_COLOURS, N_("Brown"), N_("Blue"), N_("Green"), N_("Grey"), N_("Hazel")
    ),
    "body_type": _labelled(
        BODY_TYPES, N_("Slim"), N_("Athletic"), N_("Average"), N_("Curvy"),
        N_("A few extra pounds"),
    ),
    "relationship_status": _labelled(
        RELATIONSHIP_STATUSES, N_("Single"), N_("Divorced"), N_("Widowed"),
        N_("In a relationship"), N_("Married"),
    ),
    "tattoos": _labelled(TATTOOS, N_("None"), N_("One"), N_("Several")),
}  # fmt: skip
INTEREST_LABELS = _labelled(
    INTERESTS, N_("Travel"), N_("Music"), N_("Cooking"), N_("Sports"), N_("Films"),
    N_("Reading"), N_("Nature"), N_("Dancing"), N_("Art"), N_("Gaming"), N_("Fitness"),
    N_("Wine"), N_("Photography"), N_("Animals"),
)  # fmt: skip
REGION_KIND_LABELS = {
    "Province": N_("Province"), "Region": N_("Region"), "Metropolitan region": N_("Region"),
    "Land": N_("State"), "State": N_("State"), "Canton": N_("Canton"),
    "Voivodship": N_("Voivodeship"), "County": N_("County"),
    "Autonomous community": N_("Autonomous community"), "Country": N_("Country"),
}  # fmt: skip
GENDER_LABELS = _labelled(GENDERS, N_("Man"), N_("Woman"))
SEXUALITY_LABELS = _labelled(SEXUALITIES, N_("Straight"), N_("Gay"), N_("Lesbian"), N_("Bisexual"))
DETAIL_LABELS = {
    "gender": N_("Gender"), "sexuality": N_("Sexuality"), **FIELD_LABELS,
    "interests": N_("Interests"), "living_area": N_("Lives in"),
}  # fmt: skip
_FIELD_VALUES = {"gender": GENDER_LABELS, "sexuality": SEXUALITY_LABELS, **VALUE_LABELS}


def value_label(field: str, value: str) -> str | None:
    """The msgid naming `value` of a profile field, if the vocabulary knows it."""
    return _FIELD_VALUES.get(field, {}).get(value)


def every_label() -> dict[str, str]:
    """Every label msgid, keyed by itself: for showing a msgid chosen at runtime."""
    groups = [DETAIL_LABELS, INTEREST_LABELS, *_FIELD_VALUES.values()]
    return {msgid: msgid for group in groups for msgid in group.values()}
