"""The gift catalogue's names, translated (keys in models/gifts.py)."""

from translations.catalog import N_

GIFT_LABELS = {
    "rose": N_("Red rose"),
    "heart": N_("Heart"),
    "chocolates": N_("Chocolates"),
    "teddy": N_("Teddy bear"),
    "champagne": N_("Champagne"),
    "coffee": N_("Coffee date"),
    "star": N_("Star"),
    "ring": N_("Ring"),
}
