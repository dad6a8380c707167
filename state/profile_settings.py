"""Settings → profile, location and privacy: the member's own profile, read and saved per
section through actions/profile.py. Every save checks the tab's session again (the viewer
check): the page may be older than a log-out elsewhere.

The "Use my location" button asks the browser (shell.js `siteGeo.locate`) for a place; only the
place (country, region, city) reaches this state, never the coordinates, and it fills the form
without saving it."""

import asyncio
import json
from collections.abc import Callable
from datetime import date

import reflex as rx

from actions import profile
from actions.runner import Done, act, read
from actions.viewer import Viewer
from models import profile_steps
from models.account_errors import AccountError
from models.account_rules import NAME_MAX, storable
from models.attributes import GENDERS
from models.regions import is_region_of
from models.routes import login_url, url
from models.search import sought_genders
from models.signup import sexuality_for
from services import geocoding
from services.site_settings import site_settings
from state.forms import FormState
from state.place_picker import InterestPicker, PlacePicker
from state.session import SessionState, current_viewer

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


class ProfileSettingsState(FormState, PlacePicker, InterestPicker, rx.State):
    tab: str = "profile"
    saved: str = ""  # the section whose changes were just stored
    name: str = ""
    gender: str = ""
    seeking: str = ""
    date_of_birth: str = ""
    looks: dict[str, str] = {}
    about: str = ""
    city: str = ""
    invisible: bool = False
    privacy_mode: bool = False
    locating: bool = False
    geo: str = ""  # one of GEO_RESULTS after "Use my location"

    def _login(self) -> rx.event.EventSpec:
        return rx.redirect(login_url(url("settings", tab=self.tab)))

    @rx.var
    def about_length(self) -> int:
        return len(self.about)

    # ----- loading and tabs -----

    @rx.event
    async def load(self) -> None:
        """Fill every section from the database; the tab comes from `?tab=`. The place lookup
        behind "use my location" gets ready meanwhile."""
        asyncio.get_running_loop().run_in_executor(None, geocoding.warm_up)
        tab = self.router.url.query_parameters.get("tab", "")
        self.tab = tab if tab in TABS else TABS[0]
        self.errors, self.saved, self.geo, self.locating = {}, "", "", False
        viewer = await current_viewer(self)
        form = await read(profile.profile_form, viewer.member_id) if viewer else None
        if form is None:
            return
        settings = await site_settings()
        self._offer_countries(settings)
        self._offer_interests(settings, form.interests)
        self._show_profile(form)

    def _show_profile(self, form: profile.ProfileForm) -> None:
        self.name, self.gender = form.name, form.gender
        self.seeking = seeking_of(form.gender, form.sexuality)
        self.date_of_birth, self.looks, self.about = form.date_of_birth, form.looks, form.about
        self._show_place(form.country, form.region)
        self.city = form.city
        self.invisible, self.privacy_mode = form.invisible, form.privacy_mode

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

    # ----- saving, one section at a time -----

    async def _store(
        self, section: str, action: Callable[..., Done[None]], *args: object
    ) -> rx.event.EventSpec | None:
        """Run `action(viewer, *args)` for the member behind the cookie; say what was saved."""
        self.errors, self.saved = {}, ""
        viewer: Viewer | None = await current_viewer(self)
        if viewer is None:
            return self._login()
        try:
            await act(action, viewer, *args)
        except AccountError as error:
            await self._show_error(error)
        else:
            self.saved = section
        return None

    @rx.event
    async def save_profile(self):
        """The profile tab's one Save: name, gender, looking for, birth date, looks, text and
        interests together."""
        sexuality = sexuality_for(self.gender, self.seeking) if self.seeking in SEEKING else ""
        fields = {
            "name": self.name,
            "gender": self.gender,
            "sexuality": sexuality,
            "date_of_birth": self.date_of_birth,
        }
        event = await self._store(
            "profile",
            profile.save_profile,
            fields,
            dict(self.looks),
            self.about,
            list(self.interests),
            date.today(),
        )
        if self.saved:
            (await self.get_state(SessionState)).name = " ".join(self.name.split())
        return event

    @rx.event
    async def save_location(self):
        self.geo = ""
        place = (self.country, self.region, self.city)
        return await self._store("location", profile.save_location, *place)

    @rx.event
    async def set_visibility(self, field: str, on: bool):
        """The privacy switches store at once."""
        if field not in ("invisible", "privacy_mode"):
            return None
        wanted = {"invisible": self.invisible, "privacy_mode": self.privacy_mode, field: on is True}
        event = await self._store(
            "privacy", profile.save_visibility, wanted["invisible"], wanted["privacy_mode"]
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
        if await current_viewer(self) is None:
            return self._login()
        answer = result if isinstance(result, dict) else {}
        permission = str(answer.get("permission") or "")
        place = checked_place(answer.get("place"), self.countries)
        if isinstance(place, tuple):
            country, region, city = place
            self._show_place(country, region)
            self.city, self.geo = city, "filled"
            self.errors = {}
        elif permission in ("denied", "unsupported"):
            self.geo = permission
        else:
            self.geo = place
        return None
