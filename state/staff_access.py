"""The way into the staff console: every /staff page's load check, and the two pages that come
before the console itself, /staff/enrol (set up the authenticator) and /staff/verify (its code).

`StaffAccessState.check_access` is the first on-load event of every console page. It sends a
visitor to the log-in (and back afterwards), shows a member without a role the site's plain
"page not found" (nothing says the console exists), a staff member without an authenticator
to /staff/enrol (which asks for the password again before it shows a secret), and one whose
session has not passed the code, or was idle for 30 minutes, to
/staff/verify; a tab that passed is watched from then on (state/staff_tabs.py). The handlers of
this state are the only staff-area handlers without `@staff_event`: they are the way to it
(`BEFORE_SECOND_FACTOR`, checked by tests/state/test_staff_authorization.py)."""

import reflex as rx

from actions.runner import act, act_hashing, read
from actions.staff_access import (
    Checked,
    Step,
    access_step,
    confirm_enrolment,
    start_enrolment,
    verify_second_factor,
)
from actions.viewer import session_token
from models.routes import login_url, route_named, url
from services.client_address import client_key
from state.forms import PASSWORD_INPUT, FormState, form_text, safe_next
from state.i18n import I18nState
from state.staff_tabs import watch_staff_tab
from translations.catalog import gettext

NOT_FOUND_PATH = "/404"  # the site's own not-found screen (app/page_meta.NOT_FOUND)
CONSOLE = route_named("staff").path
ENROL = route_named("staff-enrol").path
VERIFY = route_named("staff-verify").path
CODE_INPUT = 40  # a six-digit code or an 11-character recovery code, with room for spaces
BEFORE_SECOND_FACTOR = (
    "check_access",
    "unlock_enrolment",
    "confirm_code",
    "submit_code",
    "finish_enrolment",
)


def console_next(value: object) -> str:
    """A console page to continue to after the code; the console's start page otherwise."""
    path = safe_next(value)
    return path if path == CONSOLE or path.startswith(CONSOLE + "/") else CONSOLE


class StaffAccessState(FormState, rx.State):
    secret: str = ""  # the new authenticator's key, grouped for typing it in
    qr_code: str = ""  # its QR code, an SVG data URI
    recovery_codes: list[str] = []  # shown once, right after the enrolment
    # The page's load sent this tab on (to log in, enrol, the code, nothing here): the page's
    # own loads after it stay silent (state/staff_guard), so that redirect is the one it takes.
    _sent_on: bool = False

    def _token(self) -> str | None:
        return session_token(self.router.headers.cookie)

    def _address(self) -> str:
        return client_key(self.router.session.client_ip)

    def _here(self) -> str:
        return self.router.url.path

    def _next(self) -> str:
        return console_next(self.router.url.query_parameters.get("next"))

    @rx.event
    async def check_access(self) -> rx.event.EventSpec | None:
        """On load of every /staff page: stay, or go to this browser's step."""
        self.errors, self.busy, self.recovery_codes = {}, False, []
        self.secret = self.qr_code = ""
        step = await self._route()
        self._sent_on = step is not None
        return step

    async def _route(self) -> rx.event.EventSpec | None:
        step = await read(access_step, self._token(), self._address())
        if step == Step.PASSED:
            watch_staff_tab(self)
            return rx.redirect(self._next()) if self._here() in (ENROL, VERIFY) else None
        if step == Step.ENROL and self._here() == ENROL:
            self.secret = self.qr_code = ""  # the password first
            return None
        if step == Step.VERIFY and self._here() == VERIFY:
            return None
        return rx.redirect(self._step_path(step), replace=True)

    def _step_path(self, step: Step) -> str:
        if step == Step.VISITOR:
            return login_url(self.router.url)
        if step == Step.NOT_STAFF:
            return NOT_FOUND_PATH
        back = self._next() if self._here() in (ENROL, VERIFY) else self.router.url.path
        return url("staff-enrol" if step == Step.ENROL else "staff-verify", next=back)

    @rx.event
    async def unlock_enrolment(self, form: dict):
        """The member's password again: then the new authenticator's QR code and key."""
        self.busy = True
        yield
        password = form_text(form, "password", PASSWORD_INPUT)
        enrolment = await act_hashing(start_enrolment, self._token(), password)
        self.busy = False
        if enrolment is None:  # set up meanwhile, or no longer staff: on to its step
            yield await self._route()
        elif enrolment.error:
            locale = (await self.get_state(I18nState)).locale
            message = gettext(locale, enrolment.error, minutes=enrolment.minutes)
            self.errors = {"password": message}
        else:
            key = enrolment.secret
            self.secret = " ".join(key[i : i + 4] for i in range(0, len(key), 4))
            self.qr_code, self.errors = enrolment.qr_code, {}

    @rx.event
    async def confirm_code(self, form: dict):
        """The first code of the new authenticator: the recovery codes appear, once."""
        self.busy = True
        yield
        checked = await act(
            confirm_enrolment, self._token(), form_text(form, "code", CODE_INPUT), self._address()
        )
        self.busy = False
        if checked.passed:
            self.secret = self.qr_code = ""
            self.recovery_codes = list(checked.recovery_codes)
            return
        yield await self._refused(checked)

    @rx.event
    def finish_enrolment(self) -> rx.event.EventSpec:
        """The recovery codes are saved: on into the console (whose load checks again)."""
        self.recovery_codes = []
        return rx.redirect(self._next())

    @rx.event
    async def submit_code(self, form: dict):
        """A code from the authenticator or a recovery code: on into the console."""
        self.busy = True
        yield
        checked = await act(
            verify_second_factor,
            self._token(),
            form_text(form, "code", CODE_INPUT),
            self._address(),
        )
        self.busy = False
        yield rx.redirect(self._next()) if checked.passed else await self._refused(checked)

    async def _refused(self, checked: Checked) -> rx.event.EventSpec | None:
        """The error beside the field; without one this browser has no business on this
        page (a role revoked meanwhile, an authenticator set up in another tab): on to its step."""
        if not checked.error:
            return await self._route()
        locale = (await self.get_state(I18nState)).locale
        self.errors = {"code": gettext(locale, checked.error, minutes=checked.minutes)}
        return None


async def sent_on(state: rx.State) -> bool:
    """Whether this tab's last page load was sent elsewhere by its access check."""
    return (await state.get_state(StaffAccessState))._sent_on
