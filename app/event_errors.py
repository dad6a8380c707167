"""What a member sees when an event fails: the site's own "try again" text in their language,
never Reflex's English "An error occurred. Contact the website administrator."

Reflex calls `event_failed` for every exception an event raises, also before our handler runs:
during a Redis outage the tab's state lock cannot be taken, so neither the handler nor the
tab's state (its resolved locale) is there. The text's language therefore comes from what the
websocket itself carried when it connected: its locale cookie, else the browser's languages.
A language picked on the page since then reaches the toast only once the socket reconnects
(a page load, a lost connection); until then the toast speaks the language the tab connected
in. An outage (services/outages.py) is logged in one line; anything else with its traceback.
"""

import logging

import reflex as rx
from reflex_base.event.context import EventContext

from services.outages import log_failure
from services.site_settings import settings_at_hand
from translations.catalog import gettext
from translations.errors import GENERIC_ERROR
from translations.locales import cookie_locale, resolve_locale

log = logging.getLogger(__name__)


def event_failed(exception: Exception) -> rx.event.EventSpec:
    """Reflex's backend exception handler (rx.App(backend_exception_handler=...))."""
    headers, page = _event_headers_and_page()
    log_failure(log, "an event on %s failed", page, error=exception)
    locale = resolve_locale(
        cookie_locale(headers.get("cookie")),
        None,
        headers.get("accept-language"),
        settings_at_hand().domain_language,
    )
    return rx.toast.error(gettext(locale, GENERIC_ERROR), position="top-center")


def _event_headers_and_page() -> tuple[dict[str, str], str]:
    """The failed event's websocket headers and page address (none outside an event)."""
    try:
        router_data = EventContext.get().router_data
    except LookupError:
        return {}, "-"
    headers = router_data.get("headers")
    return (headers if isinstance(headers, dict) else {}), str(router_data.get("pathname", "-"))
