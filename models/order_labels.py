"""Translated labels of an order's and a refund's status (models/orders.py), by stored value: the
one place the member's transactions page and the staff console (support's account page, the
payments queue) take them from. The wording is the one members see."""

from models.orders import OrderStatus
from translations.catalog import N_

ORDER_STATUS_LABELS = {
    OrderStatus.OPEN: N_("Waiting for payment"),
    OrderStatus.PENDING: N_("Being processed"),
    OrderStatus.PAID: N_("Paid"),
    OrderStatus.FAILED: N_("Failed"),
    OrderStatus.CANCELED: N_("Cancelled"),
    OrderStatus.EXPIRED: N_("Expired"),
    OrderStatus.REFUNDED: N_("Refunded"),
    OrderStatus.CHARGED_BACK: N_("Charged back"),
}
_UNDER_WAY = N_("Refund of {amount} under way")
_FAILED = N_("The refund failed; the credits are back on your balance")
# What a member reads about a refund of their order ({amount}: the refund's amount).
REFUND_LABELS = {
    "queued": _UNDER_WAY,
    "pending": _UNDER_WAY,
    "processing": _UNDER_WAY,
    "refunded": N_("{amount} refunded"),
    "failed": _FAILED,
    "canceled": _FAILED,
}
# A refund's status in the console's tables, which show its amount in a column of its own.
REFUND_STATUS_LABELS = {
    "queued": N_("Waiting for the provider"),
    "pending": N_("Under way"),
    "processing": N_("Under way"),
    "refunded": N_("Refunded"),
    "failed": N_("Failed"),
    "canceled": N_("Failed"),
}
