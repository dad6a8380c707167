"""Which payment provider the site talks to: Mollie when MOLLIE_API_KEY is set, otherwise the
built-in test provider that our own server serves under TEST_PROVIDER_PATH.

MOLLIE_API_URL overrides the API's address (a Mollie mock, or the test provider reached at an
internal address)."""

import logging
from functools import cache
from urllib.parse import urlsplit

from services.config import get_config
from services.payments.mollie import LIVE_API_URL, MollieClient
from services.payments.types import MOLLIE_LOCALES

log = logging.getLogger(__name__)
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})

TEST_PROVIDER_PATH = "/testpay"
TEST_PROVIDER_KEY = "test_builtin"
WEBHOOK_PATH = "/api/payments/webhook"

# Mollie's locale for each interface language; a regional one of MOLLIE_LOCALES ("nl_BE")
# where the buyer's country makes one.
_MOLLIE_LOCALES = {
    "nl": "nl_NL", "en": "en_US", "de": "de_DE", "it": "it_IT", "fr": "fr_FR", "es": "es_ES",
    "pl": "pl_PL", "da": "da_DK", "fi": "fi_FI", "nb": "nb_NO", "sv": "sv_SE",
}  # fmt: skip


def uses_test_provider() -> bool:
    return get_config().mollie_api_key is None


def test_provider_serves() -> bool:
    """Whether our server serves the built-in test provider: without a Mollie key, on a
    developer's machine (PUBLIC_URL on localhost) or where TEST_PAYMENTS=1 says so. Anyone can
    'pay' on its checkout page, so a public site without a key takes no payments at all."""
    config = get_config()
    local = urlsplit(config.public_url).hostname in _LOCAL_HOSTS
    return uses_test_provider() and (local or config.test_payments)


def warn_about_payments() -> None:
    """Say at start-up what a site without a Mollie key does about payments."""
    if not uses_test_provider():
        return
    if not test_provider_serves():
        log.error("payments are off: set MOLLIE_API_KEY (TEST_PAYMENTS=1 for the test provider)")
    elif get_config().test_payments:
        log.warning("payments: the built-in test provider hands out credits for no money")


def provider_name() -> str:
    """What orders record as their provider."""
    return "testpay" if uses_test_provider() else "mollie"


def api_url() -> str:
    config = get_config()
    if config.mollie_api_url:
        return config.mollie_api_url.rstrip("/")
    if config.mollie_api_key:
        return LIVE_API_URL
    return f"{test_provider_url()}/v2"


def payment_client() -> MollieClient:
    """The process's one client for the configured provider."""
    return _client(get_config().mollie_api_key or TEST_PROVIDER_KEY, api_url())


@cache
def _client(api_key: str, base_url: str) -> MollieClient:
    return MollieClient(api_key, base_url)


def mollie_locale(language: str, country: str | None = None) -> str:
    """The checkout's language for ours ("nl" -> "nl_NL"; with country BE -> "nl_BE")."""
    regional = f"{language}_{(country or '').upper()}"
    return regional if regional in MOLLIE_LOCALES else _MOLLIE_LOCALES.get(language, "en_US")


def test_provider_url() -> str:
    """Where browsers reach the built-in test provider (its checkout pages)."""
    return f"{get_config().public_url}{TEST_PROVIDER_PATH}"


def webhook_url() -> str:
    """Where the provider reports a payment's change (the POST carries only its id)."""
    return f"{get_config().public_url}{WEBHOOK_PATH}"
