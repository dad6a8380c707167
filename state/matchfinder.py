"""/match-finder: the member says what they look for (age range, place, interests, a few
questions) and gets the members ranked by the two-sided match, each with its percentage and the
reasons, in the member's language."""

import reflex as rx
from babel.lists import format_list

from actions.matchfinder import find_matches, start
from actions.runner import act, read
from models.attribute_labels import INTEREST_LABELS
from models.match_questions import (
    BY_KEY,
    IMPORTANCE,
    NO_WISH,
    NOT_ANSWERED,
    QUESTION_KEYS,
    QuestionWishes,
    known,
)
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
AGREED = N_("Your answers suit each other: {topics}.")


def _listed(labels: list[str], locale: str) -> str:
    """Capitalised labels ("Travel", "Children") listed as they read inside a sentence."""
    return format_list(
        [mid_sentence(gettext(locale, label), locale) for label in labels], locale=locale
    )


def reasons(match: Match, locale: str) -> list[str]:
    """Why the member is a match, as the member reads it."""
    found = []
    if match.shared:
        labels = [INTEREST_LABELS[interest] for interest in match.shared]
        found.append(gettext(locale, BOTH_LIKE, interests=_listed(labels, locale)))
    if match.agreed:
        topics = [BY_KEY[key].topic for key in match.agreed]
        found.append(gettext(locale, AGREED, topics=_listed(topics, locale)))
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
    # The questions, every key always present: the answer, the answers hoped for, how much.
    answers: dict[str, str] = {key: NOT_ANSWERED for key in QUESTION_KEYS}
    accepted: dict[str, list[str]] = {key: [] for key in QUESTION_KEYS}
    importance: dict[str, str] = {key: "none" for key in QUESTION_KEYS}

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
    def set_answer(self, key: str, answer: str) -> None:
        """The member's own answer; choosing it again takes it back."""
        if known(key, BY_KEY) and known(answer, BY_KEY[key].answers):
            self.answers[key] = NOT_ANSWERED if self.answers[key] == answer else answer

    @rx.event
    def toggle_accepted(self, key: str, answer: str) -> None:
        """An answer hoped for from the other; the first one makes the question matter, the
        last one taken away makes it not matter."""
        if not (known(key, BY_KEY) and known(answer, BY_KEY[key].answers)):
            return
        chosen = toggled(self.accepted[key], answer, list(BY_KEY[key].answers))
        self.accepted[key] = chosen
        if not chosen:
            self.importance[key] = "none"
        elif self.importance[key] == "none":
            self.importance[key] = "somewhat"

    @rx.event
    def set_importance(self, key: str, importance: str) -> None:
        if known(key, BY_KEY) and known(importance, IMPORTANCE):
            self.importance[key] = importance

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
            "questions": {
                key: {
                    "answer": self.answers[key],
                    "accepted": self.accepted[key],
                    "importance": self.importance[key],
                }
                for key in QUESTION_KEYS
            },
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
        self._show_questions(wishes.questions)

    def _show_questions(self, questions: QuestionWishes) -> None:
        wishes = {key: questions.get(key, NO_WISH) for key in QUESTION_KEYS}
        self.answers = {key: wish.answer for key, wish in wishes.items()}
        self.accepted = {key: sorted(wish.accepted) for key, wish in wishes.items()}
        self.importance = {key: wish.importance for key, wish in wishes.items()}
