"""The built-in test provider: Mollie's v2 API and a hosted checkout page (see app.py)."""

from services.payments.test_provider.app import (
    TestProvider,
    default_test_provider,
    test_provider_app,
)
from services.payments.test_provider.webhooks import Deliver, Timing, post_webhook

__all__ = [
    "Deliver",
    "TestProvider",
    "Timing",
    "default_test_provider",
    "post_webhook",
    "test_provider_app",
]
