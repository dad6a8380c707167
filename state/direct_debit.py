"""/directdebit: the SEPA direct debit of one bundle in three steps. The form (account holder,
IBAN, address, phone; errors beside their fields, nothing typed lost), the mandate to review
(the IBAN masked: the full one never stays in this state), and the code sent by SMS that signs
it; then the order's result page. A member blocked for direct debit, or paying from where it is
not offered, sees why; a bank account that cannot be used for direct debit (another account's, or
over its limit) is refused before any code is sent, with the other payment methods for the
bundle. Every handler checks the viewer; the server checks everything else."""

from dataclasses import asdict

import reflex as rx

from actions.direct_debit import Prepared, prepare_mandate, sdd_start, send_code
from actions.direct_debit_flow import CODE_LENGTH, SddResult, confirm_direct_debit
from actions.payment_flow import payment_methods
from actions.runner import act, read
from actions.viewer import Viewer
from models.payment_methods import DIRECT_DEBIT
from models.routes import transaction_url, url
from models.sdd_form import MAX_LENGTHS
from state.credits import CreditsState, tier_of
from state.forms import form_text
from state.i18n import in_page_language
from state.session import current_viewer
from translations.catalog import N_, BrowserMessage, browser_message
from translations.errors import (
    GENERIC_ERROR,
    INVALID_SMS_CODE,
    SDD_ACCOUNT_BLOCKED,
    SDD_IBAN_REFUSED,
    SDD_LIMIT_REACHED,
)

LOADING, FORM, MANDATE, CODE, BLOCKED, NOT_AVAILABLE, REFUSED = (
    "loading", "form", "mandate", "code", "blocked", "not_offered", "refused",
)  # fmt: skip
# Refusals of the bank account itself: no code can sign with it, so the page offers the other
# payment methods (or another account) instead of the code.
ACCOUNT_REFUSALS = (SDD_IBAN_REFUSED, SDD_LIMIT_REACHED)
IBAN_SPACES = 8  # an IBAN is typed in groups of four
# What the browser may type into each field; the state cuts one past it, so a longer value from a
# tampered browser reaches the form's own rule and stays refused.
FIELD_LIMITS: dict[str, int] = {
    name: limit + (IBAN_SPACES if name == "iban" else 0) for name, limit in MAX_LENGTHS.items()
}
KEPT = tuple(name for name in FIELD_LIMITS if name != "iban")  # the IBAN is never kept
CODE_SENT = N_("A new code is on its way.")


def form_values(form: dict) -> dict[str, str]:
    """The form's fields as the browser sent them, each bounded; nothing else."""
    return {name: form_text(form, name, limit + 1) for name, limit in FIELD_LIMITS.items()}


def code_digits(form: dict) -> str:
    """The digits of the code field; anything else typed around them does not count."""
    return "".join(ch for ch in form_text(form, "code", 20) if ch.isdigit())


class DirectDebitState(rx.State):
    step: str = LOADING
    tier: str = ""
    bundle: dict = {}  # BundleView as a dict
    values: dict[str, str] = {}  # what was typed, to fill the form again; never the IBAN
    # The texts below are browser_messages, which the page writes in its language (a switch of
    # language in place rewrites them); {} for none.
    errors: dict[str, dict] = {}  # field ("" for the whole form) -> its error
    mandate: dict = {}  # MandateView as a dict: the IBAN and phone masked
    code_error: dict = {}
    notice: dict = {}
    refusal: dict = {}  # why this bank account cannot be used
    other_methods: list[str] = []  # the bundle's other payment methods, after a refusal
    busy: bool = False
    _mandate_id: int = 0

    @rx.event
    async def load_page(self) -> rx.event.EventSpec | None:
        """On load of /directdebit?tier=pX: the form, or why direct debit is not for this."""
        self._reset()
        if (viewer := await current_viewer(self)) is None:
            return None
        tier = tier_of(self.router.url.query_parameters.get("tier"))
        if tier is None:
            return rx.redirect(url("credits"), replace=True)
        start = await read(sdd_start, viewer, tier, await self._country())
        self.tier = tier
        self.bundle = asdict(start.bundle) if start.bundle else {}
        self.step = BLOCKED if start.blocked else FORM if start.offered else NOT_AVAILABLE
        return None

    # The steps' handlers are background events, which hold the tab's state lock only inside
    # `async with self` (docs/deploy.md): signing asks the provider, and a refusal of the bank
    # account asks it for the bundle's other methods.

    @rx.event(background=True)
    async def submit_form(self, form: dict):
        """The form checked on the server: the mandate to review, or the errors to correct."""
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            if self.busy or self.step != FORM:
                return
            values = form_values(form)
            self.values = {name: values[name] for name in KEPT}
            self.busy, self.errors = True, {}
            viewer, country = await self._buyer(viewer)
            asked = (viewer, self.tier, country, await self._code(), values)
        prepared = await act(prepare_mandate, *asked)
        others = await self._others_after(viewer, prepared.error, country)
        async with self:
            self.busy = False
            if prepared.error or prepared.errors or prepared.mandate is None:
                self._refused(prepared, others)
                return
            self._mandate_id, self.mandate, self.step = (
                prepared.mandate_id,
                asdict(prepared.mandate),
                MANDATE,
            )

    @rx.event
    async def edit(self) -> None:
        """Back to the form from the mandate, the code or a refused account: a new mandate
        follows."""
        if await current_viewer(self) is None or self.step not in (MANDATE, CODE, REFUSED):
            return
        self._forget_mandate()
        self.step = FORM

    @rx.event(background=True)
    async def confirm_mandate(self):
        """The member agrees to the mandate: a code by SMS to sign it."""
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            if self.busy or self.step != MANDATE:
                return
            self.busy, self.errors = True, {}
            buyer = await self._buyer(viewer)
        sent = await self._send(*buyer)
        async with self:
            self.busy = False
            if error := self._unsent(*sent):
                self.errors = {"": error}
            elif self.step == MANDATE:
                self.step = CODE

    @rx.event(background=True)
    async def resend_code(self):
        """A new code (the previous one stops working); throttled on the server."""
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            if self.busy or self.step != CODE:
                return
            self.busy, self.code_error, self.notice = True, {}, {}
            buyer = await self._buyer(viewer)
        sent = await self._send(*buyer)
        async with self:
            self.busy = False
            if error := self._unsent(*sent):
                self.code_error = error
            elif self.step == CODE:
                self.notice = browser_message(CODE_SENT)

    @rx.event(background=True)
    async def submit_code(self, form: dict):
        """The code from the SMS signs the mandate; then the order's result page. The provider's
        answers are awaited outside the tab's state lock."""
        if (viewer := await current_viewer(self)) is None:
            return
        async with self:
            if self.busy or self.step != CODE:
                return
            code = code_digits(form)
            if len(code) != CODE_LENGTH:
                self.code_error, self.notice = browser_message(INVALID_SMS_CODE), {}
                return
            self.busy, self.code_error, self.notice = True, {}, {}
            viewer, country = await self._buyer(viewer)
            signing = (viewer, self._mandate_id, code, self._client_ip(), self._user_agent())
        result = await confirm_direct_debit(*signing)
        others = await self._others_after(viewer, result.error, country)
        async with self:
            if result.error:
                self.busy = False
                self._code_refused(result, others)
                return
            self._forget_mandate()  # busy until the page leaves: a second click signs nothing
        yield rx.redirect(transaction_url(result.order_id))

    async def _send(self, viewer: Viewer, country: str | None) -> tuple[str, list[str]]:
        """A new code by SMS: why none was sent ("" once it was), and after a refusal of the
        bank account the bundle's other methods."""
        error = await act(send_code, viewer, self._mandate_id)
        return error, await self._others_after(viewer, error, country)

    def _unsent(self, error: str, others: list[str]) -> BrowserMessage:
        """The reason no code was sent; {} once it was, or when the page moved on to why direct
        debit cannot be used."""
        if not error or self._left_the_steps(error, others):
            return {}
        return browser_message(error)

    def _refused(self, prepared: Prepared, others: list[str]) -> None:
        if self._left_the_steps(prepared.error, others):
            return
        shown = {name: browser_message(msgid) for name, msgid in prepared.errors.items()}
        if prepared.error or not shown:
            error = prepared.error or GENERIC_ERROR
            shown[""] = browser_message(error, **dict(prepared.error_params))
        self.errors = shown

    def _code_refused(self, result: SddResult, others: list[str]) -> None:
        """The code's refusal beside it; once the code signed a mandate the provider refused,
        the member starts again from the form (a new mandate), with the reason."""
        if self._left_the_steps(result.error, others):
            return
        refusal = browser_message(result.error, **dict(result.error_params))
        if result.signed:
            self._forget_mandate()
            self.step, self.errors = FORM, {"": refusal}
        else:
            self.code_error = refusal

    async def _others_after(self, viewer: Viewer, error: str, country: str | None) -> list[str]:
        """After a refusal of the bank account, the bundle's other payment methods (the
        provider asked); otherwise none."""
        if error not in ACCOUNT_REFUSALS:
            return []
        offered = await payment_methods(viewer, self.tier, country)
        return [method.id for method in offered if method.id != DIRECT_DEBIT]

    def _left_the_steps(self, error: str, others: list[str]) -> bool:
        """A refusal no step can get past: the member is blocked for direct debit, or this bank
        account cannot sign (then `others`, the bundle's other payment methods). True when it
        was one."""
        if error == SDD_ACCOUNT_BLOCKED:
            self._forget_mandate()
            self.step = BLOCKED
        elif error in ACCOUNT_REFUSALS:
            self._forget_mandate()
            self.other_methods, self.step, self.refusal = others, REFUSED, browser_message(error)
        return error in (SDD_ACCOUNT_BLOCKED, *ACCOUNT_REFUSALS)

    async def _buyer(self, viewer: Viewer) -> tuple[Viewer, str | None]:
        """The member in the page's language (the mandate they read and sign here, its SMS and
        the order follow the page, as its texts do), and the country paid from."""
        return await in_page_language(self, viewer), await self._country()

    def _forget_mandate(self) -> None:
        self._mandate_id, self.mandate = 0, {}
        self.errors, self.code_error, self.notice = {}, {}, {}
        self.refusal, self.other_methods = {}, []

    def _reset(self) -> None:
        self._forget_mandate()
        self.step, self.tier, self.bundle, self.values, self.busy = LOADING, "", {}, {}, False

    async def _country(self) -> str | None:
        """The country paid from, as chosen on /credits in this browser session."""
        chosen = str((await self.get_state(CreditsState)).payment_country or "")[:2]
        return chosen.upper() if chosen.isalpha() else None

    async def _code(self) -> str | None:
        """The discount code applied on /credits in this tab, if any."""
        return (await self.get_state(CreditsState)).code or None

    def _client_ip(self) -> str:
        return str(self.router.session.client_ip or "")[:45]

    def _user_agent(self) -> str:
        return str(self.router.headers.user_agent or "")[:300]
