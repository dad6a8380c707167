"""What every page's frame needs: the settings the page has not (state/site_info.py), the entry
warning, the app mode."""

from collections.abc import Mapping
from datetime import UTC, datetime

import reflex as rx

from models.routes import login_url
from models.site_settings import terms_version_date
from services.site_settings import site_settings
from state.i18n import I18nState
from state.live import register_tab
from state.session import SessionState
from translations.locales import country_from_accept_language

ENTRY_WARNING_LOCALES = ("nl", "de")  # the chat, lander and empty layouts warn only in these
# Reverse proxies and CDNs that know the visitor's country put it in one of these headers.
COUNTRY_HEADERS = ("cf-ipcountry", "x-country-code", "x-geoip-country")


MAX_GENERATION = 2**31 - 1  # a new wait per second for 68 years


def next_generation(generation: int) -> int:
    """The number of a new wait: callbacks carrying an older one are void."""
    return generation % MAX_GENERATION + 1


def country_of_request(headers: Mapping[str, str], accept_language: str | None) -> str:
    """The visitor's country: a proxy's country header (lower-case names), else the region of
    the browser's language."""
    for header in COUNTRY_HEADERS:
        if value := headers.get(header, "").strip().upper():
            return value[:2]
    return country_from_accept_language(accept_language) or ""


def wait_script(milliseconds: int, answer: str = "true") -> str:
    """Browser code that resolves to `answer` (a JavaScript value) after `milliseconds`."""
    return f"new Promise(resolve => setTimeout(() => resolve({answer}), {milliseconds}))"


class ShellState(rx.State):
    terms_date: str = ""
    fictional_warning: bool = False
    fictional_plural: dict[str, str] = {}
    refund_days: int = 14
    visitor_country: str = ""
    entry_warning_enabled: bool = False
    entry_warning_dismissed_at: str = rx.LocalStorage("", name="entry_warning_dismissed", sync=True)
    in_app: bool | None = None  # unknown until the page reports how it was opened
    # The cam partner's name and link (components/cam_promotion.py); "" while switched off.
    cam_partner: str = ""
    cam_link: str = ""

    @rx.event
    async def on_page_load(self, login_required: bool = False) -> list[rx.event.EventSpec]:
        """Fill the frame: who is logged in, which language, which settings apply. A page that
        needs a log-in sends a visitor to the log-in prompt, and back there afterwards."""
        session = await self.get_state(SessionState)
        await session._load()
        await register_tab(self, session._member_id)
        settings = await site_settings()
        self.terms_date = terms_version_date(settings).isoformat()
        self.refund_days = settings.refund_days
        self.fictional_warning = settings.fictional_warning
        self.fictional_plural = dict(settings.fictional_plural)
        self.visitor_country = self._country_of_request()
        promoted = settings.cam_promotion and settings.cam_partner_name and settings.cam_partner_url
        self.cam_partner = settings.cam_partner_name if promoted else ""
        self.cam_link = settings.cam_partner_url if promoted else ""
        self.entry_warning_enabled = (
            settings.enable_site_entry_popup != "no"
            and self.visitor_country in settings.site_entry_popup_countries
        )
        i18n = await self.get_state(I18nState)
        events = [i18n._resolve(session._language, settings.domain_language)]
        if login_required and not session.logged_in:
            events.append(rx.redirect(login_url(self.router.url)))
        return events

    def _country_of_request(self) -> str:
        headers = self.router.headers
        return country_of_request(headers.raw_headers, headers.accept_language)

    @rx.event
    def dismiss_entry_warning(self) -> None:
        self.entry_warning_dismissed_at = datetime.now(UTC).isoformat(timespec="seconds")

    @rx.event
    def set_in_app(self, standalone: bool) -> None:
        self.in_app = bool(standalone)

    @rx.var
    def show_entry_warning(self) -> bool:
        """Logged-out visitors outside the app, where configured, until they dismiss it; not
        before the page said whether it is the installed app, so the app never sees it."""
        return (
            self.entry_warning_enabled
            and self.in_app is False
            and not self.entry_warning_dismissed_at
        )
