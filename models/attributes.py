"""The closed vocabularies of profile attributes (spec section 3); labels live in translations."""

GENDERS = ("male", "female")
SEXUALITIES = ("hetero", "gay", "lesbian", "bi")
HAIR_COLOURS = ("black", "brown", "blond", "red", "grey", "other")
EYE_COLOURS = ("brown", "blue", "green", "grey", "hazel")
BODY_TYPES = ("slim", "athletic", "average", "curvy", "large")
RELATIONSHIP_STATUSES = ("single", "divorced", "widowed", "relationship", "married")
TATTOOS = ("none", "one", "several")
INTERESTS = (
    "travel",
    "music",
    "cooking",
    "sports",
    "movies",
    "reading",
    "nature",
    "dancing",
    "art",
    "gaming",
    "fitness",
    "wine",
    "photography",
    "animals",
)
