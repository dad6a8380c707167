"""The bundles at list price for anyone, logged out too (/pricing): no member, no discount."""

from actions.payment_views import BundleView
from models.pricing import Bundle, bundles_for
from models.site_settings import currency_for
from services.site_settings import current_settings


def price_list(country: str | None) -> tuple[BundleView, ...]:
    """The four bundles in the currency of `country` (EUR when we do not price in its own)."""
    settings = current_settings()
    currency = currency_for(settings, country)
    return tuple(bundle_view(listed) for listed in bundles_for(settings, currency))


def bundle_view(shown: Bundle, percentage: int = 0) -> BundleView:
    """A bundle as the screens show it; a discounted one with its list price beside."""
    discounted = shown.cents < shown.list_cents
    return BundleView(
        tier=shown.tier,
        credits=shown.credits,
        messages=shown.messages,
        popular=shown.popular,
        cents=shown.cents,
        list_cents=shown.list_cents,
        per_message_cents=shown.per_message_cents,
        currency=shown.currency,
        discounted=discounted,
        percentage=percentage if discounted else 0,
    )
