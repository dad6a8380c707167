"""Translated labels of the profile vocabularies (models/attributes.py) and region kinds."""

from translations.catalog import N_

FIELD_LABELS = {
    "hair_colour": N_("Hair colour"),
    "eye_colour": N_("Eye colour"),
    "body_type": N_("Body type"),
    "relationship_status": N_("Relationship status"),
    "tattoos": N_("Tattoos"),
}
VALUE_LABELS = {
    "hair_colour": {
        "black": N_("Black"), "brown": N_("Brown"), "blond": N_("Blond"), "red": N_("Red"),
        "grey": N_("Grey"), "other": N_("Other"),
    },
    "eye_colour": {
        "brown": N_("Brown"), "blue": N_("Blue"), "green": N_("Green"), "grey": N_("Grey"),
        "hazel": N_("Hazel"),
    },
    "body_type": {
        "slim": N_("Slim"), "athletic": N_("Athletic"), "average": N_("Average"),
        "curvy": N_("Curvy"), "large": N_("A few extra pounds"),
    },
    "relationship_status": {
        "single": N_("Single"), "divorced": N_("Divorced"), "widowed": N_("Widowed"),
        "relationship": N_("In a relationship"), "married": N_("Married"),
    },
    "tattoos": {"none": N_("None"), "one": N_("One"), "several": N_("Several")},
}  # fmt: skip
INTEREST_LABELS = {
    "travel": N_("Travel"), "music": N_("Music"), "cooking": N_("Cooking"),
    "sports": N_("Sports"), "movies": N_("Films"), "reading": N_("Reading"),
    "nature": N_("Nature"), "dancing": N_("Dancing"), "art": N_("Art"), "gaming": N_("Gaming"),
    "fitness": N_("Fitness"), "wine": N_("Wine"), "photography": N_("Photography"),
    "animals": N_("Animals"),
}  # fmt: skip
REGION_KIND_LABELS = {
    "Province": N_("Province"), "Region": N_("Region"), "Metropolitan region": N_("Region"),
    "Land": N_("State"), "State": N_("State"), "Canton": N_("Canton"),
    "Voivodship": N_("Voivodeship"), "County": N_("County"),
    "Autonomous community": N_("Autonomous community"), "Country": N_("Country"),
}  # fmt: skip
GENDER_LABELS = {"male": N_("Man"), "female": N_("Woman")}
SEXUALITY_LABELS = {
    "hetero": N_("Straight"), "gay": N_("Gay"), "lesbian": N_("Lesbian"), "bi": N_("Bisexual"),
}  # fmt: skip
DETAIL_LABELS = {
    "gender": N_("Gender"), "sexuality": N_("Sexuality"), **FIELD_LABELS,
    "interests": N_("Interests"), "living_area": N_("Lives in"),
}  # fmt: skip


def value_label(field: str, value: str) -> str | None:
    """The msgid naming `value` of a profile field, if the vocabulary knows it."""
    labels = {"gender": GENDER_LABELS, "sexuality": SEXUALITY_LABELS, **VALUE_LABELS}
    return labels.get(field, {}).get(value)


def every_label() -> dict[str, str]:
    """Every label msgid, keyed by itself: for showing a msgid chosen at runtime."""
    groups = [
        GENDER_LABELS,
        SEXUALITY_LABELS,
        DETAIL_LABELS,
        INTEREST_LABELS,
        *VALUE_LABELS.values(),
    ]
    return {msgid: msgid for group in groups for msgid in group.values()}
