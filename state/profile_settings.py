"""Settings → profile, location and privacy: the member's own profile, loaded from the database
and saved per section through models/profile_steps.py. Every save asks the database who the
session cookie belongs to: the page may be older than a log-out elsewhere.

The "Use my location" button asks the browser (shell.js `siteGeo.locate`) for a place; only the
place (country, region, city) reaches this state, never the coordinates, and it fills the form
without saving it."""

import json
from collections.abc import Callable
from datetime import date

import reflex as rx
from sqlmodel import Session

from models import profile_steps
from models.account_errors import AccountError
from models.account_rules import NAME_MAX, storable
from models.attributes import GENDERS
from models.member import Member, Profile
from models.regions import is_region_of, region_kind, regions_of
from models.search import sought_genders
from models.signup import sexuality_for
from models.site_settings import SiteSettings
from services.database import db_session
from services.site_settings import current_settings
from state.forms import FormState, toggled
from state.session import SessionState, current_member_id
from state.shell import login_url

TABS = ("profile", "photos", "location", "privacy", "account")
SEEKING = ("female", "male", "both")
TEXT_LIMITS = {
    "name": NAME_MAX,
    "date_of_birth": 10,
    "about": profile_steps.ABOUT_MAX,
    "city": profile_steps.CITY_MAX,
}
# What the last "Use my location" gave: filled, or why it filled nothing.
GEO_RESULTS = ("filled", "denied", "unsupported", "not_found", "abroad")

Save = Callable[[Session, int, SiteSettings], None]


def seeking_of(gender: str, sexuality: str) -> str:
    """The signup's "looking for" choice (female, male, both) behind a stored sexuality."""
    sought = sought_genders(gender, sexuality)
    return "both" if len(sought) > 1 else sought[0]


def checked_place(place: object, countries: list[str]) -> tuple[str, str, str] | str:
    """(country, region, city) from the geocoder's answer, or why it cannot be used (see
    GEO_RESULTS): the browser passes it on, so it is checked like a form."""
    if not isinstance(place, dict) or not place.get("country"):
        return "not_found"
    country, region = str(place["country"]).upper(), str(place.get("region") or "")
    city = " ".join(storable(str(place.get("city") or "")).split())
    if country not in countries:
        return "abroad"
    if (region and not is_region_of(country, region)) or len(city) > profile_steps.CITY_MAX:
        return "not_found"
    return country, region, city


class ProfileSettingsState(FormState, rx.State):
    tab: str = "profile"
    saved: str = ""  # the section whose changes were just stored
    name: str = ""
    gender: str = ""
    seeking: str = ""
    date_of_birth: str = ""
    looks: dict[str, str] = {}
    about: str = ""
    interests: list[str] = []
    interest_options: list[str] = []
    countries: list[str] = []
    country: str = ""
    region: str = ""
    region_kind: str = ""
    regions: list[list[str]] = []
    city: str = ""
    invisible: bool = False
    privacy_mode: bool = False
    locating: bool = False
    geo: str = ""  # one of GEO_RESULTS after "Use my location"

    async def _member_id(self) -> int | None:
        return await current_member_id(self)

    def _login(self) -> rx.event.EventSpec:
        return rx.redirect(login_url(f"/settings?tab={self.tab}"))

    @rx.var
    def about_length(self) -> int:
        return len(self.about)

    # ----- loading and tabs -----

    @rx.event
    async def load(self) -> None:
        """Fill every section from the database; the tab comes from `?tab=`."""
        tab = self.router.url.query_parameters.get("tab", "")
        self.tab = tab if tab in TABS else TABS[0]
        self.errors, self.saved, self.geo, self.locating = {}, "", "", False
        member_id = await self._member_id()
        if member_id is None:
            return
        settings = current_settings()
        with db_session() as db:
            member, profile = db.get(Member, member_id), db.get(Profile, member_id)
            self._show_profile(profile)
            self.invisible, self.privacy_mode = member.invisible, member.privacy_mode
        self.countries = list(settings.countries)
        self.interest_options = list(settings.interests)

    def _show_profile(self, profile: Profile) -> None:
        self.name, self.gender = profile.name, profile.gender
        self.seeking = seeking_of(profile.gender, profile.sexuality)
        self.date_of_birth = profile.date_of_birth.isoformat()
        self.looks = {f: getattr(profile, f) or "" for f in profile_steps.APPEARANCE}
        self.about, self.interests = profile.about_me, list(profile.interests)
        self._show_regions(profile.country, profile.region or "")
        self.city = profile.city or ""

    def _show_regions(self, country: str, region: str) -> None:
        self.country, self.region = country, region
        self.regions = [[code, name] for code, name in regions_of(country)]
        self.region_kind = region_kind(country)

    @rx.event
    def choose_tab(self, tab: str):
        """Switch tabs and keep the choice in the address, so it survives a reload."""
        if tab not in TABS:
            return None
        self.tab, self.saved = tab, ""
        return rx.call_script(
            "(function (u) { u.searchParams.set('tab', "
            f"{json.dumps(tab)}); history.replaceState(history.state, '', u); }})"
            "(new URL(window.location.href))"
        )

    # ----- editing (nothing is stored until a section is saved) -----

    @rx.event
    def edit(self, field: str, value: str) -> None:
        if field in TEXT_LIMITS:
            setattr(self, field, str(value or "")[: TEXT_LIMITS[field]])

    @rx.event
    def choose(self, field: str, value: str) -> None:
        allowed = {"gender": GENDERS, "seeking": SEEKING}.get(field, ())
        if value in allowed:
            setattr(self, field, value)

    @rx.event
    def pick_look(self, field: str, value: str) -> None:
        if value in profile_steps.APPEARANCE.get(field, ()):
            self.looks = {**self.looks, field: value}

    @rx.event
    def toggle_interest(self, interest: str) -> None:
        self.interests = toggled(self.interests, interest, self.interest_options)

    @rx.event
    def pick_country(self, country: str) -> None:
        if country in self.countries:
            self._show_regions(country, "")

    @rx.event
    def pick_region(self, region: str) -> None:
        if is_region_of(self.country, region):
            self.region = region

    # ----- saving, one section at a time -----

    async def _store(self, section: str, save: Save) -> rx.event.EventSpec | None:
        self.errors, self.saved = {}, ""
        member_id = await self._member_id()
        if member_id is None:
            return self._login()
        try:
            with db_session() as db:
                save(db, member_id, current_settings())
        except AccountError as error:
            await self.show_error(error)
        else:
            self.saved = section
        return None

    @rx.event
    async def save_basics(self):
        sexuality = sexuality_for(self.gender, self.seeking) if self.seeking in SEEKING else ""
        fields = {
            "name": self.name,
            "gender": self.gender,
            "sexuality": sexuality,
            "date_of_birth": self.date_of_birth,
        }
        event = await self._store(
            "basics", lambda db, m, s: profile_steps.save_basics(db, m, s, fields, date.today())
        )
        if self.saved:
            (await self.get_state(SessionState)).name = " ".join(self.name.split())
        return event

    @rx.event
    async def save_looks(self):
        looks = dict(self.looks)
        return await self._store(
            "looks", lambda db, m, _s: profile_steps.save_appearance(db, m, looks)
        )

    @rx.event
    async def save_about(self):
        about, interests = self.about, list(self.interests)
        return await self._store(
            "about", lambda db, m, s: profile_steps.save_about(db, m, s, about, interests)
        )

    @rx.event
    async def save_location(self):
        place = (self.country, self.region, self.city)
        self.geo = ""
        return await self._store(
            "location", lambda db, m, s: profile_steps.save_location(db, m, s, *place)
        )

    @rx.event
    async def set_visibility(self, field: str, on: bool):
        """The privacy switches store at once."""
        if field not in ("invisible", "privacy_mode"):
            return None
        wanted = {"invisible": self.invisible, "privacy_mode": self.privacy_mode, field: bool(on)}
        event = await self._store(
            "privacy", lambda db, m, _s: profile_steps.save_visibility(db, m, **wanted)
        )
        if self.saved:
            self.invisible, self.privacy_mode = wanted["invisible"], wanted["privacy_mode"]
        return event

    # ----- "Use my location" -----

    @rx.event
    def use_my_location(self) -> rx.event.EventSpec:
        self.locating, self.geo = True, ""
        return rx.call_script(
            "window.siteGeo.locate()", callback=ProfileSettingsState.apply_location
        )

    @rx.event
    async def apply_location(self, result: dict):
        """Fill the place fields from the browser's answer {permission, place}; not saved yet."""
        self.locating, self.saved = False, ""
        if await self._member_id() is None:
            return self._login()
        answer = result if isinstance(result, dict) else {}
        permission = str(answer.get("permission") or "")
        place = checked_place(answer.get("place"), self.countries)
        if isinstance(place, tuple):
            country, region, city = place
            self._show_regions(country, region)
            self.city, self.geo = city, "filled"
            self.errors = {}
        elif permission in ("denied", "unsupported"):
            self.geo = permission
        else:
            self.geo = place
        return None
