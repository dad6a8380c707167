"""The purchase screens: the four bundles with the discount that applies, the country paid from
(`paymentCountry`, kept for the browser session), a discount code, the methods the provider
offers, and the hand-over to its checkout; the repeat order; the price list of /premium and
/pricing. Everything the browser sends is checked against what this page offered."""

import json
import logging
import re
from collections.abc import Awaitable
from dataclasses import asdict

import reflex as rx

from actions.checkout import MAX_CODE_LENGTH
from actions.code_tries import try_code
from actions.payment_flow import payment_methods, repeat_last_order, start_checkout
from actions.payment_reads import credits_offer, lookup_code, welcome_offer
from actions.payment_views import CheckoutResult, CreditsOffer
from actions.price_list import price_list
from actions.runner import act, read
from actions.time_bonus import start_time_bonus
from actions.viewer import Viewer
from models.payment_methods import DIRECT_DEBIT
from models.routes import url
from services.client_address import client_key
from services.outages import log_failure
from services.site_settings import site_settings
from state.forms import form_text
from state.i18n import I18nState, in_page_language
from state.session import current_viewer
from state.shell import ShellState
from state.time_bonus import TimeBonusState
from translations.catalog import gettext
from translations.errors import DISCOUNT_CODE_NOT_FOUND, GENERIC_ERROR

TIERS = ("p0", "p1", "p2", "p3")
METHOD_ID = re.compile(r"[a-z0-9]{1,20}")
CHECKOUT_URL = re.compile(r"https?://[^\s\"'<>\\]{1,500}")

log = logging.getLogger(__name__)


def tier_of(value: object) -> str | None:
    """A bundle tier as an address names it: "p2", or just "2"."""
    text = str(value or "").strip().lower()[:3]
    text = f"p{text}" if text.isdigit() else text
    return text if text in TIERS else None


def choice_from_path(path: str) -> tuple[str | None, str]:
    """/credits/{tier}/{method?}: the tier (None when unknown) and the method asked for."""
    parts = [*path.strip("/").split("/"), "", ""]
    method = parts[2].lower()
    return tier_of(parts[1]), method if METHOD_ID.fullmatch(method) else ""


def go_to_checkout(checkout_url: str) -> rx.event.EventSpec | None:
    """The provider's hosted checkout in this tab: a full page load, not a route of the app."""
    if not CHECKOUT_URL.fullmatch(checkout_url):
        return None
    return rx.call_script(f"window.location.assign({json.dumps(checkout_url)})")


class CreditsState(rx.State):
    loaded: bool = False
    bundles: list[dict] = []  # BundleView as dicts, p0 first
    tier: str = ""  # the chosen bundle
    discount: dict = {}  # ActiveDiscount as a dict; {} without one
    balance: int = 0
    country: str = ""  # the country the offer is priced for
    countries: list[str] = []
    payment_country: str = rx.SessionStorage("", name="paymentCountry")
    code: str = ""  # the discount code the member entered and that applies
    code_error: str = ""
    methods: list[dict] = []  # MethodView as dicts
    method: str = ""
    methods_loaded: bool = False
    busy: bool = False
    error: str = ""
    last_tier: str = ""
    last_method: str = ""
    message_credits: int = 0

    # The handlers that show the payment methods ask the provider for them: background events,
    # which hold the tab's state lock only inside `async with self` (docs/deploy.md).

    @rx.event(background=True)
    async def load_page(self) -> None:
        """On load of /credits; `?welcome` applies the welcome code (silently, if any)."""
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            if "welcome" in self.router.url.query_parameters and not self.code:
                await self._welcome(viewer)
            await self._open(viewer, None, "")
        await self._load_methods(viewer)

    @rx.event(background=True)
    async def load_choice(self) -> rx.event.EventSpec | None:
        """On load of /credits/{tier}/{method?}: that bundle, that method preselected."""
        if (viewer := await current_viewer(self)) is None:
            return None
        tier, method = choice_from_path(self.router.url.path)
        if tier is None:
            return rx.redirect(url("credits"), replace=True)
        async with self:
            await self._open(viewer, tier, method)
        await self._load_methods(viewer)
        return None

    @rx.event
    async def load_repeat(self) -> None:
        """On load of /credits/repeat-order: the last bundle and method, to confirm."""
        if (viewer := await current_viewer(self)) is None:
            return
        self._reset_page()
        await self._offer(viewer)
        self.tier, self.method = self.last_tier, self.last_method
        self.loaded = True

    @rx.event(background=True)
    async def choose_tier(self, tier: str) -> None:
        if (viewer := await current_viewer(self)) is None or tier_of(tier) is None:
            return
        async with self:
            self.tier, self.error = tier_of(tier) or "", ""
        await self._load_methods(viewer)

    @rx.event
    def choose_method(self, method: str) -> None:
        if method in self._method_ids():
            self.method, self.error = method, ""

    @rx.event(background=True)
    async def choose_country(self, country: str) -> None:
        if (viewer := await current_viewer(self)) is None or country not in self.countries:
            return
        async with self:
            self.payment_country = country
            await self._offer(viewer)
        await self._load_methods(viewer)

    @rx.event(background=True)
    async def apply_code(self, form: dict) -> None:
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            applied = await self._apply_code(viewer, form)
        if applied:
            await self._load_methods(viewer)

    async def _apply_code(self, viewer: Viewer, form: dict) -> bool:
        """The code the member typed, if it applies, and the offer with it; False when not."""
        text = form_text(form, "code", MAX_CODE_LENGTH + 1).strip()
        if not text or len(text) > MAX_CODE_LENGTH:
            self.code_error = await self._text(DISCOUNT_CODE_NOT_FOUND)
            return False
        locale = (await self.get_state(I18nState)).locale
        client = client_key(self.router.session.client_ip)
        answer = await act(try_code, viewer, text, self._chosen_country(), locale, client)
        if answer.error:
            self.code_error = await self._text(answer.error, **dict(answer.error_params))
            return False
        self.code, self.code_error = answer.code, ""
        await self._offer(viewer)
        return True

    @rx.event(background=True)
    async def remove_code(self) -> None:
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            self.code = self.code_error = ""
            await self._offer(viewer)
        await self._load_methods(viewer)

    @rx.event(background=True)
    async def buy(self):
        """The chosen bundle with the chosen method: an order, then the provider's checkout,
        whose answers are awaited outside the tab's state lock."""
        viewer = await current_viewer(self)
        if viewer is None:
            return
        async with self:
            if self.busy or self.tier not in TIERS:
                return
            if self.method not in self._method_ids():
                self.error = await self._text(GENERIC_ERROR)
                return
            tier, method, country = self.tier, self.method, self._chosen_country()
            if method != DIRECT_DEBIT:
                self.busy, self.error = True, ""
            buyer, code = await in_page_language(self, viewer), self.code or None
        if method == DIRECT_DEBIT:  # its own form, mandate and code first
            yield rx.redirect(url("directdebit", tier=tier))
            return
        yield await self._hand_over_once(start_checkout(buyer, tier, method, country, code))

    @rx.event(background=True)
    async def repeat(self):
        """/credits/repeat-order: the last bundle with the last method, in one step."""
        viewer = await current_viewer(self)
        if viewer is None:
            return
        async with self:
            if self.busy or not self.last_tier:
                return
            tier, direct_debit = self.last_tier, self.last_method == DIRECT_DEBIT
            if not direct_debit:
                self.busy, self.error = True, ""
            buyer = await in_page_language(self, viewer)
        if direct_debit:  # a new mandate signed with a new code
            yield rx.redirect(url("directdebit", tier=tier))
            return
        yield await self._hand_over_once(repeat_last_order(buyer))

    @rx.event
    async def load_price_list(self) -> None:
        """On load of /premium and /pricing: the member's offer, or the list prices for a
        visitor in the currency of the country they visit from."""
        viewer = await current_viewer(self)
        self.message_credits = (await site_settings()).message_credits
        if viewer is not None:
            await self._offer(viewer)
        else:
            shell = await self.get_state(ShellState)
            views = await read(price_list, shell.visitor_country or None)
            self.bundles, self.discount = [asdict(view) for view in views], {}
        self.loaded = True

    async def _hand_over_once(
        self, checkout: Awaitable[CheckoutResult]
    ) -> rx.event.EventSpec | None:
        """`_hand_over` once the provider answered (this tab's state lock not held meanwhile)."""
        result = await checkout
        async with self:
            return await self._hand_over(result)

    async def _hand_over(self, result: CheckoutResult) -> rx.event.EventSpec | None:
        """To the checkout, staying busy while the page leaves (a second click queued behind
        the first orders nothing); or the reason in the member's language."""
        found = None if result.error else go_to_checkout(result.checkout_url)
        if found is not None:
            return found
        if not result.error:
            log.error("checkout url of order %s refused: %r", result.order_id, result.checkout_url)
        self.busy = False
        self.error = await self._text(result.error or GENERIC_ERROR, **dict(result.error_params))
        return None

    async def _open(self, viewer: Viewer, tier: str | None, method: str) -> None:
        """The page afresh but for the payment methods, with the method to preselect."""
        self._reset_page()
        if not viewer.paid_user:  # straight to /credits from a link: the bonus starts here too
            await act(start_time_bonus, viewer)
        await self._keep_code_if_valid(viewer)
        await self._offer(viewer)
        self.tier = tier or self._default_tier()
        self.method = method or self.method or self.last_method
        self.loaded = True

    def _reset_page(self) -> None:
        self.loaded = self.busy = self.methods_loaded = False
        self.error = self.code_error = ""

    async def _keep_code_if_valid(self, viewer: Viewer) -> None:
        """A code entered earlier in this tab that no longer applies (used by the purchase it
        discounted, expired since) is dropped when the page opens again."""
        if self.code:
            locale = (await self.get_state(I18nState)).locale
            answer = await read(lookup_code, viewer, self.code, self._chosen_country(), locale)
            self.code = "" if answer.error else answer.code

    async def _welcome(self, viewer: Viewer) -> None:
        """A welcome code that cannot be loaded is left out without a word (spec section 8)."""
        try:
            answer = await read(welcome_offer, viewer)
        except Exception:
            log_failure(log, "welcome code not loaded")
            return
        if answer is not None and not answer.error:
            self.code = answer.code

    async def _offer(self, viewer: Viewer) -> None:
        self.countries = list((await site_settings()).countries)
        offer = await read(credits_offer, viewer, self._chosen_country(), self.code or None)
        if offer is not None:
            await self._show(offer)

    async def _show(self, offer: CreditsOffer) -> None:
        self.bundles = [asdict(view) for view in offer.bundles]
        self.discount = asdict(offer.discount) if offer.discount else {}
        self.balance, self.country = offer.balance, offer.country
        self.last_tier, self.last_method = offer.last_tier, offer.last_method
        if offer.discount and offer.discount.kind == "time_bonus":
            (await self.get_state(TimeBonusState))._show_deadline(offer.discount.deadline_ms)

    async def _load_methods(self, viewer: Viewer) -> None:
        """The provider's methods for the chosen bundle and country, asked outside the tab's
        state lock; left unshown when the member chose another bundle or country meanwhile.
        The method chosen when they land stays chosen (also one picked while they loaded)."""
        asked = (self.tier, self._chosen_country())
        found = await payment_methods(viewer, *asked)
        async with self:
            if (self.tier, self._chosen_country()) != asked:
                return
            self.methods = [asdict(method) for method in found]
            ids = self._method_ids()
            self.method = self.method if self.method in ids else (ids[0] if ids else "")
            self.methods_loaded = True

    def _method_ids(self) -> list[str]:
        return [method["id"] for method in self.methods]

    def _default_tier(self) -> str:
        popular = [bundle["tier"] for bundle in self.bundles if bundle["popular"]]
        return self.tier if self.tier in TIERS else (popular or [TIERS[0]])[0]

    def _chosen_country(self) -> str | None:
        """The country the member picked in this browser session, if it is one we serve."""
        chosen = str(self.payment_country or "")
        return chosen if chosen in self.countries else None

    async def _text(self, msgid: str, **params: object) -> str:
        return gettext((await self.get_state(I18nState)).locale, msgid, **params)

    @rx.var
    def chosen(self) -> dict:
        """The chosen bundle; {} before one is."""
        return next((bundle for bundle in self.bundles if bundle["tier"] == self.tier), {})
