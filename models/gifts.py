"""The gift catalogue: each gift is sent as a special chat message costing `gift_credits`.
Pictures are `assets/gifts/<key>.svg`; names are translated in components/gift_labels.py."""

GIFTS = ("rose", "heart", "chocolates", "teddy", "champagne", "coffee", "star", "ring")


def gift_picture(key: str) -> str:
    return f"/gifts/{key}.svg"
