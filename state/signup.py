"""The signup modal (spec section 4): step 0 account (with an optional first message), 1 photo,
2 to 4 about-me (place, looks, text and interests), 5 push opt-in, 6 check your e-mail.

The account exists from step 0 on; later steps act on `_member_id`, set only by this tab's
signup or, on /complete-signup, by the logged-in session."""

import asyncio
import hashlib
import json
import logging
import re
from datetime import date

import reflex as rx
from sqlmodel import Session

from models.account_errors import AccountError
from models.auth_session import has_live_session
from models.member import Member, Photo, Profile
from models.profile_steps import save_about, save_appearance, save_location
from models.regions import region_kind, regions_of
from models.signup import (
    ACCOUNT_AWAITS_DELETION,
    NewAccount,
    SignupEventKind,
    SignupForm,
    clean_signup,
    clean_tracking,
    has_traffic_source,
    record_signup_event,
    signups_open,
)
from models.site_settings import SiteSettings
from services import accounts
from services.database import db_session
from services.mail import MailDeliveryError, OutgoingMail, delivered
from services.member_photos import add_member_photo
from services.password_work import with_password_work
from services.photo_pipeline import MAX_UPLOAD_BYTES, PhotoRejected
from services.site_settings import current_settings
from state.forms import FormState, toggled
from state.i18n import I18nState
from state.login import continue_with_session
from state.push_opt_in import push_answer, subscribe_push
from state.session import SessionState
from state.shell import ShellState
from translations.errors import DUPLICATE_EMAIL

log = logging.getLogger(__name__)
PHOTO, PLACE, LOOKS, ABOUT, PUSH, DONE = 1, 2, 3, 4, 5, 6
UPLOAD_ID = "signup-photo"
FINISH_URL = "/members?signup_complete=1"
DRAFT_FIELDS = ("email", "name", "password", "date_of_birth", "signup_message")


def _draft(name: str) -> str:
    return rx.SessionStorage("", name=f"signup_{name}")


class SignupState(FormState, rx.State):
    open: bool = False
    step: int = 0
    signups_closed: bool = False
    existing_account: str = ""  # "", "active" (log in instead) or "deleted" (reactivate)
    reactivation_sent: bool = False
    inline: bool = False  # /complete-signup shows the steps on the page, not in the modal
    # The draft of step 0 survives a reload of the tab (spec: signup form draft).
    email: str = _draft("email")
    name: str = _draft("name")
    password: str = _draft("password")
    date_of_birth: str = _draft("date_of_birth")
    signup_message: str = _draft("message")
    gender: str = _draft("gender")
    seeking: str = _draft("seeking")
    traffic_source: str = rx.LocalStorage("", name="traffic_source", sync=True)
    to_member: dict[str, str] = {}
    photo_url: str = ""
    country: str = ""
    region: str = ""
    region_kind: str = ""
    regions: list[list[str]] = []
    countries: list[str] = []
    interests: list[str] = []
    interest_options: list[str] = []
    push_result: str = ""
    _member_id: int | None = None

    # ----- opening and closing -----

    @rx.var
    def in_progress(self) -> bool:
        """From the created account until the last step, the modal cannot be dismissed."""
        return PHOTO <= self.step < DONE

    def _visitor(self) -> str:
        return hashlib.sha256(self.router.session.client_token.encode()).hexdigest()[:32]

    def _record(self, kind: str) -> None:
        with db_session() as db:
            record_signup_event(db, kind, self._visitor(), self._member_id)

    def _tracking(self) -> dict[str, str]:
        try:
            stored = json.loads(self.traffic_source or "{}")
        except ValueError:
            stored = {}
        return clean_tracking(stored if isinstance(stored, dict) else {})

    @rx.event
    def capture_traffic_source(self) -> None:
        """Keep the tracking record of the landing query for the signup (spec section 3)."""
        query = self.router.url.query_parameters
        found = clean_tracking(
            {k: query.get(k) for k in ("network", "ref", "sub1", "sub2", "sub3")}
        )
        if has_traffic_source(found):
            self.traffic_source = json.dumps(found)

    @rx.event
    async def open_signup(self):
        session = await self.get_state(SessionState)
        if session.logged_in:
            yield rx.redirect("/members")
            return
        settings = current_settings()
        self.signups_closed = not signups_open(settings, self._tracking())
        self.open, self.inline, self.existing_account, self.errors = True, False, "", {}
        self.reactivation_sent, self.busy = False, False
        if self.step not in (0, DONE) and self._member_id is None:
            self.step = 0
        self.gender = self.gender or "male"
        self.seeking = self.seeking or "female"
        self._record(SignupEventKind.STARTED)

    @rx.event
    async def open_for_member(self):
        """/members/{id}/signup: step 0 offers a first message to that member."""
        found = re.match(r"^/members/(\d{1,12})/", self.router.url.path)
        self.to_member = _member_teaser(int(found.group(1))) if found else {}
        async for event in self.open_signup():
            yield event

    @rx.event
    def request_open_change(self, is_open: bool) -> None:
        """Backdrop, Esc and the close button ask to close; refused while signup is under way."""
        if not is_open and not self.in_progress:
            self.close()

    @rx.event
    def close(self) -> None:
        if self.in_progress or not self.open:
            return
        self.open, self.password = False, ""
        self._record(SignupEventKind.CLOSED)
        if self.step == DONE:
            self.step, self._member_id = 0, None

    @rx.event
    def go_to_login(self):
        self._record(SignupEventKind.REDIRECTED_LOGIN)
        self.open, self.password = False, ""
        return rx.redirect("/login")

    # ----- step 0: the account -----

    @rx.event
    def keep_draft(self, field: str, value: str) -> None:
        if field in DRAFT_FIELDS:
            self._keep(field, value)

    def _keep(self, field: str, value: object) -> None:
        setattr(self, field, str(value or "")[:2000])

    @rx.event
    def choose(self, field: str, value: str) -> None:
        if field in ("gender", "seeking"):
            setattr(self, field, value)

    @rx.event
    async def submit_account(self, form: dict):
        self._remember_draft(form)
        self.busy, self.errors, self.existing_account = True, {}, ""
        yield
        locale = (await self.get_state(I18nState)).locale
        country = (await self.get_state(ShellState)).visitor_country
        try:
            login, mail = await with_password_work(self._create_account, locale, country)
        except AccountError as error:
            self.existing_account = _existing_kind(error.message)
            await self.show_error(error)
            self.busy = False
            return
        self._member_id, self.password = login.member_id, ""
        self.busy, self.step = False, PHOTO
        self._prepare_steps(current_settings())
        yield continue_with_session(login.handoff, "")  # step 1 shows while the mail goes out
        await delivered(mail)  # if the mail server is down, the reminder offers to re-send

    def _remember_draft(self, form: dict) -> None:
        for field in DRAFT_FIELDS:
            self._keep(field, form.get(field))

    def _create_account(self, locale: str, country: str) -> tuple[accounts.Login, OutgoingMail]:
        settings = current_settings()
        form = SignupForm(
            self.email, self.name, self.password, self.date_of_birth,
            self.gender, self.seeking, self.signup_message if self.to_member else "",
        )  # fmt: skip
        clean = clean_signup(form, settings, date.today())
        account = NewAccount(
            settings=settings,
            locale=locale,
            country=country,
            tracking=self._tracking(),
            to_member_id=int(self.to_member["id"]) if self.to_member else None,
        )
        return accounts.sign_up(clean, account)

    @rx.event
    async def send_reactivation(self):
        """Once per signup attempt on an address that awaits deletion."""
        if self.existing_account != "deleted" or self.reactivation_sent:
            return
        self.reactivation_sent = True
        try:
            await asyncio.to_thread(accounts.send_reactivation, self.email)
        except MailDeliveryError:
            log.exception("reactivation mail failed")
            self.reactivation_sent = False
            await self.show_generic_error()

    # ----- steps 1 to 5 -----

    @rx.event
    async def resume(self):
        """/complete-signup: the steps after the account, on the page, for the member."""
        session = await self.get_state(SessionState)
        if not session.logged_in:
            return
        self._member_id, self.inline, self.open = session._member_id, True, False
        self.step, self.errors = PHOTO, {}
        self._prepare_steps(current_settings())

    def _prepare_steps(self, settings: SiteSettings) -> None:
        with db_session() as db:
            profile = db.get(Profile, self._member_id)
            self.photo_url = _main_thumb(db, profile, settings)
        self.countries = list(settings.countries)
        self.interest_options = list(settings.interests)
        self.interests = list(profile.interests)
        self._show_regions(profile.country, profile.region or "")

    def _show_regions(self, country: str, region: str) -> None:
        self.country, self.region = country, region
        self.regions = [[code, name] for code, name in regions_of(country)]
        self.region_kind = region_kind(country)

    @rx.event
    def pick_country(self, country: str) -> None:
        if country in self.countries:
            self._show_regions(country, "")

    @rx.event
    def pick_region(self, region: str) -> None:
        self.region = region

    @rx.event
    def toggle_interest(self, interest: str) -> None:
        self.interests = toggled(self.interests, interest, self.interest_options)

    @rx.event
    def skip(self):
        return self._next_step()

    def _still_signed_in(self) -> bool:
        """The account this tab created, as long as it is logged in (a log-out ends editing)."""
        if self._member_id is None:
            return False
        with db_session() as db:
            return has_live_session(db, self._member_id)

    def _next_step(self):
        if self._member_id is None:
            return None
        if self.step == ABOUT and self.inline:
            return rx.redirect("/members")
        self.step, self.errors = min(self.step + 1, DONE), {}
        if self.step == DONE:
            self._record(SignupEventKind.COMPLETE)
        return None

    @rx.event
    async def upload_photo(self, files: list[rx.UploadFile]):
        if not self._still_signed_in() or not files:
            return
        self.busy, self.errors = True, {}
        yield
        try:
            data = await files[0].read(MAX_UPLOAD_BYTES + 1)
            thumb = await asyncio.to_thread(add_member_photo, self._member_id, data)
            self.photo_url = current_settings().photo_url(thumb)
        except PhotoRejected as rejected:
            self.errors = {"photo": await self.text(rejected.message, **rejected.params)}
        except AccountError as error:
            await self.show_error(error)
        self.busy = False

    @rx.event
    async def save_place(self, form: dict):
        await self._save(
            lambda db, s: save_location(
                db, self._member_id, s, self.country, self.region, str(form.get("city") or "")
            )
        )
        return self._next_step() if not self.errors else None

    @rx.event
    async def save_looks(self, form: dict):
        values = {k: str(v) for k, v in form.items()}
        await self._save(lambda db, _s: save_appearance(db, self._member_id, values))
        return self._next_step() if not self.errors else None

    @rx.event
    async def save_about_me(self, form: dict):
        about = str(form.get("about") or "")
        await self._save(
            lambda db, s: save_about(db, self._member_id, s, about, list(self.interests))
        )
        return self._next_step() if not self.errors else None

    async def _save(self, action) -> None:
        self.errors = {}
        if not self._still_signed_in():
            return
        try:
            with db_session() as db:
                action(db, current_settings())
        except AccountError as error:
            await self.show_error(error)

    @rx.event
    def turn_on_push(self) -> rx.event.EventSpec:
        return subscribe_push(SignupState.push_answered)

    @rx.event
    def push_answered(self, result: str) -> None:
        self.push_result = push_answer(result)
        if self.push_result != "failed":
            self._next_step()

    @rx.event
    def finish(self):
        self.open, self.step, self._member_id = False, 0, None
        for field in DRAFT_FIELDS:
            setattr(self, field, "")
        return rx.call_script(f"window.location.assign({json.dumps(FINISH_URL)})")


def _existing_kind(message: str) -> str:
    return {DUPLICATE_EMAIL: "active", ACCOUNT_AWAITS_DELETION: "deleted"}.get(message, "")


def _main_thumb(db: Session, profile: Profile, settings: SiteSettings) -> str:
    """The address of the profile's main photo thumbnail, or "" without one."""
    photo = db.get(Photo, profile.main_photo_id) if profile.main_photo_id else None
    return settings.photo_url(photo.thumb_filename) if photo else ""


def _member_teaser(member_id: int) -> dict[str, str]:
    """Name and photo of the member a visitor wants to write to, if that member is visible."""
    with db_session() as db:
        member = db.get(Member, member_id)
        profile = db.get(Profile, member_id)
        thumb = _main_thumb(db, profile, current_settings()) if profile else ""
    if (
        member is None
        or member.status != "active"
        or profile is None
        or profile.status != "enabled"
    ):
        return {}
    return {"id": str(member_id), "name": profile.name, "thumb": thumb}
