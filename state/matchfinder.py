"""/match-finder: the member says what they look for (age range, place, interests) and gets the
members ranked by the two-sided match, each with its percentage and the reasons, in the
member's language."""

import reflex as rx
from babel.lists import format_list

from actions.matchfinder import find_matches, start
from actions.runner import act, read
from models.attribute_labels import INTEREST_LABELS
from models.match_score import ANYWHERE, PLACES, Wishes
from models.matchfinder import INTERESTS_MAX, Match, clean_wishes
from models.routes import login_url
from models.search import MAX_AGE
from services.site_settings import site_settings
from state.forms import FormState
from state.i18n import I18nState
from state.members import tile_to_card
from state.place_picker import InterestPicker, toggled
from state.session import current_viewer
from translations.catalog import N_, gettext
from translations.locales import mid_sentence

BOTH_LIKE = N_("You both like {interests}.")
SAME_REGION = N_("Lives in your region.")
SAME_COUNTRY = N_("Lives in your country.")
FITS_THEM = N_("You fit what {name} is looking for.")


def reasons(match: Match, locale: str) -> list[str]:
    """Why the member is a match, as the member reads it."""
    found = []
    if match.shared:
        labels = [
            mid_sentence(gettext(locale, INTEREST_LABELS[interest]), locale)
            for interest in match.shared
        ]
        found.append(gettext(locale, BOTH_LIKE, interests=format_list(labels, locale=locale)))
    if match.same_region:
        found.append(gettext(locale, SAME_REGION))
    elif match.same_country:
        found.append(gettext(locale, SAME_COUNTRY))
    if match.fits_them:
        found.append(gettext(locale, FITS_THEM, name=match.member.name))
    return found


class MatchfinderState(FormState, InterestPicker, rx.State):
    min_age: int = 18
    max_age: int = MAX_AGE
    place: str = ANYWHERE
    results: list[dict] = []
    searched: bool = False

    @rx.event
    async def load(self) -> rx.event.EventSpec | None:
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(self.router.url))
        settings = await site_settings()
        opening = await read(start, viewer, settings)
        self.results, self.searched = [], False
        if opening is None:
            return None
        self._show_wishes(opening.wishes)
        self._offer_interests(settings, list(opening.wishes.interests))
        return MatchfinderState.find if opening.saved else None

    @rx.event
    def set_place(self, place: str) -> None:
        self.place = place if place in PLACES else ANYWHERE

    @rx.event
    def toggle_interest(self, interest: str) -> None:
        """Add or remove an interest; at most INTERESTS_MAX are wished for."""
        if interest in self.interests or len(self.interests) < INTERESTS_MAX:
            self.interests = toggled(self.interests, interest, self.interest_options)

    @rx.event
    async def find(self, form: dict | None = None):
        viewer = await current_viewer(self)
        if viewer is None:
            yield rx.redirect(login_url(self.router.url))
            return
        settings = await site_settings()
        raw = {
            "min_age": (form or {}).get("min_age", self.min_age),
            "max_age": (form or {}).get("max_age", self.max_age),
            "place": self.place,
            "interests": self.interests,
        }
        wishes = clean_wishes(raw, list(settings.interests), settings.min_age)
        self._show_wishes(wishes)
        self.busy = True
        yield
        try:
            matches = await act(find_matches, viewer, wishes, settings)
            locale = (await self.get_state(I18nState)).locale
            self.results = [
                {**tile_to_card(match.member, settings), "percent": match.percent,
                 "reasons": reasons(match, locale)}
                for match in matches
            ]  # fmt: skip
            self.searched = True
        finally:
            self.busy = False

    def _show_wishes(self, wishes: Wishes) -> None:
        self.min_age, self.max_age, self.place = wishes.min_age, wishes.max_age, wishes.place
        self.interests = list(wishes.interests)
