"""The signup modal (spec section 4): step 0 account (with an optional first message), 1 photo,
2 to 4 about-me (place, looks, text and interests), 5 push opt-in, 6 check your e-mail.

The account exists from step 0 on; later steps act on `_member_id`, set only by this tab's
signup or, on /complete-signup, by the logged-in session."""

import hashlib
import json
import re
from collections.abc import Callable

import reflex as rx

from actions.photos import add_photo
from actions.profile import save_about, save_location, save_looks
from actions.runner import Done, act, act_hashing, read
from actions.signup import Arrival, member_teaser, record_event, sign_up, step_facts
from actions.viewer import Viewer, session_viewer
from models.account_errors import AccountError
from models.attributes import GENDERS
from models.member import utcnow
from models.routes import url
from models.signup import (
    ACCOUNT_AWAITS_DELETION,
    NEEDS_TRAFFIC_SOURCE,
    SignupEventKind,
    SignupForm,
    signup_refusal,
)
from services.click_cookie import verified_click
from services.client_address import client_key
from services.photo_pipeline import MAX_UPLOAD_BYTES, PhotoRejected
from services.site_settings import site_settings
from state.forms import FormState, browser_id
from state.i18n import I18nState
from state.login import continue_with_session, mail_reactivation
from state.place_picker import InterestPicker, PlacePicker
from state.push_opt_in import IOS_HOME_SCREEN, push_answer, subscribe_push
from state.session import SessionState, current_viewer
from state.shell import ShellState
from state.upload_stream import Received, drain, received_files
from translations.errors import DUPLICATE_EMAIL

PHOTO, PLACE, LOOKS, ABOUT, PUSH, DONE = 1, 2, 3, 4, 5, 6
UPLOAD_ID = "signup-photo"
FINISH_URL = url("signup-matches", signup_complete=1)
DRAFT_FIELDS = ("email", "name", "password", "date_of_birth", "signup_message")
CHOICES = {"gender": GENDERS, "seeking": (*GENDERS, "both")}


def _draft(name: str) -> str:
    return rx.SessionStorage("", name=f"signup_{name}")


class SignupState(FormState, PlacePicker, InterestPicker, rx.State):
    open: bool = False
    step: int = 0
    signups_closed: bool = False
    needs_traffic_source: bool = False  # closed to visitors who came without a partner's link
    existing_account: str = ""  # "", "active" (log in instead) or "deleted" (reactivate)
    reactivation_sent: bool = False
    inline: bool = False  # /complete-signup shows the steps on the page, not in the modal
    # The draft of step 0 survives a reload of the tab (spec: signup form draft); the password
    # only until the account exists.
    email: str = _draft("email")
    name: str = _draft("name")
    password: str = _draft("password")
    date_of_birth: str = _draft("date_of_birth")
    signup_message: str = _draft("message")
    gender: str = _draft("gender")
    seeking: str = _draft("seeking")
    to_member: dict[str, str] = {}
    photo_url: str = ""
    push_result: str = ""
    _member_id: int | None = None  # the account whose steps these are, for the funnel's events
    _session_id: int | None = None  # the session this tab's signup started (the modal)

    # ----- opening and closing -----

    @rx.var
    def in_progress(self) -> bool:
        """From the created account until the last step, the modal cannot be dismissed."""
        return PHOTO <= self.step < DONE

    def _visitor(self) -> str:
        return hashlib.sha256(self.router.session.client_token.encode()).hexdigest()[:32]

    async def _record(self, kind: str) -> None:
        await act(record_event, kind, self._visitor(), self._member_id)

    def _click(self) -> int | None:
        """The recorded click this visitor arrived with: its signed cookie, which the page's
        answer set (app/traffic_clicks.py) and the browser sends with every request since."""
        return verified_click(self.router.headers.cookie, utcnow())

    @rx.event
    async def open_signup(self):
        if (await self.get_state(SessionState)).logged_in:
            self.password = ""  # an account exists: no password stays in the tab
            yield rx.redirect(url("members"))
            return
        settings = await site_settings()
        refusal = signup_refusal(settings, self._click() is not None)
        self.signups_closed = refusal is not None
        self.needs_traffic_source = refusal == NEEDS_TRAFFIC_SOURCE
        self.open, self.inline, self.existing_account, self.errors = True, False, "", {}
        self.reactivation_sent, self.busy = False, False
        if self.step not in (0, DONE) and self._member_id is None:
            self.step = 0
        self.gender = self.gender or "male"
        self.seeking = self.seeking or "female"
        await self._record(SignupEventKind.STARTED)

    @rx.event
    async def open_for_member(self):
        """/members/{id}/signup: step 0 offers a first message to that member."""
        found = re.match(r"^/members/(\d{1,12})/", self.router.url.path)
        member_id = browser_id(found.group(1)) if found else None
        self.to_member = await read(member_teaser, member_id) if member_id else {}
        async for event in self.open_signup():
            yield event

    @rx.event
    async def request_open_change(self, is_open: bool) -> None:
        """Backdrop, Esc and the close button ask to close; refused while signup is under way."""
        if not is_open and not self.in_progress:
            await self.close()

    @rx.event
    async def close(self) -> None:
        if self.in_progress or not self.open:
            return
        self.open, self.password = False, ""
        await self._record(SignupEventKind.CLOSED)
        if self.step == DONE:
            self.step, self._member_id, self._session_id = 0, None, None

    @rx.event
    async def go_to_login(self):
        await self._record(SignupEventKind.REDIRECTED_LOGIN)
        self.open, self.password = False, ""
        return rx.redirect(url("login"))

    # ----- step 0: the account -----

    @rx.event
    def keep_draft(self, field: str, value: str) -> None:
        """Step 0's fields, while there is no account yet (then the password must not stay)."""
        if field in DRAFT_FIELDS and self._member_id is None:
            self._keep(field, value)

    def _keep(self, field: str, value: object) -> None:
        setattr(self, field, str(value or "")[:2000])

    @rx.event
    def choose(self, field: str, value: str) -> None:
        if value in CHOICES.get(field, ()):
            setattr(self, field, value)

    @rx.event
    async def submit_account(self, form: dict):
        if self._member_id is not None:  # this tab has its account already
            return
        self._remember_draft(form)
        self.busy, self.errors, self.existing_account = True, {}, ""
        yield
        try:
            new = await act_hashing(sign_up, self._form(), await self._arrival())
        except AccountError as error:
            self.existing_account = _existing_kind(error.message)
            await self._show_error(error)
            self.busy = False
            return
        self._member_id, self._session_id, self.password = new.member_id, new.session_id, ""
        self.busy, self.step = False, PHOTO
        if viewer := await self._viewer():
            await self._prepare_steps(viewer)
        yield continue_with_session(new.handoff, "")  # the activation mail goes out meanwhile

    def _remember_draft(self, form: dict) -> None:
        for field in DRAFT_FIELDS:
            self._keep(field, form.get(field))

    def _form(self) -> SignupForm:
        return SignupForm(
            self.email, self.name, self.password, self.date_of_birth,
            self.gender, self.seeking, self.signup_message if self.to_member else "",
        )  # fmt: skip

    async def _arrival(self) -> Arrival:
        return Arrival(
            locale=(await self.get_state(I18nState)).locale,
            country=(await self.get_state(ShellState)).visitor_country,
            click_id=self._click(),
            to_member_id=int(self.to_member["id"]) if self.to_member else None,
            address=client_key(self.router.session.client_ip),
        )

    @rx.event(background=True)
    async def send_reactivation(self):
        """Once per signup attempt on an address that awaits deletion; the mail goes out
        outside the tab's state lock."""
        async with self:
            if self.existing_account != "deleted" or self.reactivation_sent:
                return
            self.reactivation_sent, email = True, self.email
        if not await mail_reactivation(email):
            async with self:
                self.reactivation_sent = False
                await self._show_generic_error()

    # ----- steps 1 to 5 -----

    async def _viewer(self) -> Viewer | None:
        """The member whose steps these are, checked again on every event: on /complete-signup
        the tab's own cookie; in the modal the session this tab's signup started (its cookie
        reached the browser after this socket connected). A session ended since (a log-out, a
        password change elsewhere) changes nothing any more."""
        if self.inline:
            return await current_viewer(self)
        return await read(session_viewer, self._session_id)

    @rx.event
    async def resume(self):
        """/complete-signup: the steps after the account, on the page, for the member."""
        viewer = await current_viewer(self)
        if viewer is None:
            return
        self._member_id, self._session_id, self.password = viewer.member_id, None, ""
        self.inline, self.open, self.step, self.errors, self.busy = True, False, PHOTO, {}, False
        await self._prepare_steps(viewer)

    async def _prepare_steps(self, viewer: Viewer) -> None:
        settings, facts = await site_settings(), await read(step_facts, viewer)
        if facts is None:
            return
        self.photo_url = facts.photo_url
        self._offer_countries(settings)
        self._offer_interests(settings, facts.interests)
        self._show_place(facts.country, facts.region)

    @rx.event
    async def skip(self):
        if await self._viewer():
            return await self._next_step()
        return None

    async def _next_step(self):
        if self.step == ABOUT and self.inline:
            return rx.redirect(url("members"))
        self.step, self.errors = min(self.step + 1, DONE), {}
        if self.step == DONE:
            await self._record(SignupEventKind.COMPLETE)
        return None

    @rx.event(background=True)
    async def upload_photo(self, chunks: rx.UploadChunkIterator):
        """The first file sent, stored outside the tab's state lock (the pipeline is slow)."""
        await self._store_photo(await anext(received_files(chunks, MAX_UPLOAD_BYTES + 1), None))
        await drain(chunks)

    async def _store_photo(self, file: Received | None) -> None:
        viewer = await self._viewer()
        if viewer is None or file is None:
            return
        async with self:
            if self.busy:  # another upload of this tab is storing: this one is dropped
                return
            self.busy, self.errors = True, {}
        try:
            thumb = await act(add_photo, viewer, file.data)
            photo_url = (await site_settings()).photo_url(thumb)
        except PhotoRejected as rejected:
            async with self:
                self.errors = {"photo": await self._text(rejected.message, **rejected.params)}
        except AccountError as error:
            async with self:
                await self._show_error(error)
        else:
            async with self:
                self.photo_url = photo_url
        finally:
            async with self:
                self.busy = False

    @rx.event
    async def save_place(self, form: dict):
        city = str(form.get("city") or "")
        return await self._save_then_next(save_location, self.country, self.region, city)

    @rx.event
    async def save_looks(self, form: dict):
        return await self._save_then_next(save_looks, {k: str(v) for k, v in form.items()})

    @rx.event
    async def save_about_me(self, form: dict):
        about = str(form.get("about") or "")
        return await self._save_then_next(save_about, about, list(self.interests))

    async def _save_then_next(self, action: Callable[..., Done[None]], *args: object):
        """Save one step as the member behind this tab, then go on; refused without one."""
        self.errors = {}
        viewer = await self._viewer()
        if viewer is None:
            return None
        try:
            await act(action, viewer, *args)
        except AccountError as error:
            await self._show_error(error)
            return None
        return await self._next_step()

    @rx.event
    def turn_on_push(self) -> rx.event.EventSpec:
        return subscribe_push(SignupState.push_answered)

    @rx.event
    async def push_answered(self, result: str) -> None:
        """Subscribed, refused or not possible here: on to the next step. A failure, or an
        iPhone that needs the site on its Home Screen first, stays to say so."""
        self.push_result = push_answer(result)
        if self.push_result not in ("failed", IOS_HOME_SCREEN) and await self._viewer():
            await self._next_step()

    @rx.event
    def finish(self):
        self.open, self.step, self._member_id, self._session_id = False, 0, None, None
        for field in DRAFT_FIELDS:
            setattr(self, field, "")
        return rx.call_script(f"window.location.assign({json.dumps(FINISH_URL)})")


def _existing_kind(message: str) -> str:
    return {DUPLICATE_EMAIL: "active", ACCOUNT_AWAITS_DELETION: "deleted"}.get(message, "")
