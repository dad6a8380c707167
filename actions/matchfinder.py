"""The matchfinder: the member's wishes (saved, or what their profile suggests) and the members
ranked by the two-sided match; a search saves the wishes it used."""

from dataclasses import dataclass

from sqlmodel import Session

from actions.runner import Done
from actions.viewer import Viewer
from models.match_score import Wishes, default_wishes
from models.matchfinder import Match, person_of, ranked_matches, save_wishes, saved_wishes
from models.member import Profile, utcnow
from models.search import MAX_AGE
from models.site_settings import SiteSettings
from services.database import db_session, transaction

PAGE_SIZE = 24


@dataclass(frozen=True)
class MatchfinderStart:
    wishes: Wishes
    saved: bool  # False: taken from the profile


def _opening(db: Session, profile: Profile, settings: SiteSettings) -> MatchfinderStart:
    saved = saved_wishes(db, profile.member_id)
    if saved is not None:
        return MatchfinderStart(saved, True)
    me = person_of(profile, utcnow().date())
    return MatchfinderStart(default_wishes(me, settings.min_age, MAX_AGE), False)


def start(viewer: Viewer, settings: SiteSettings) -> MatchfinderStart | None:
    """The wishes the form opens with; None without a profile."""
    with db_session() as db:
        profile = db.get(Profile, viewer.member_id)
        return _opening(db, profile, settings) if profile is not None else None


def suggested_matches(viewer: Viewer, settings: SiteSettings, limit: int) -> list[Match]:
    """The best matches for what the member's wishes (saved, or their profile's) ask, with
    nothing saved: what a new member is shown after signing up."""
    with db_session() as db:
        profile = db.get(Profile, viewer.member_id)
        if profile is None:
            return []
        wishes = _opening(db, profile, settings).wishes
        return ranked_matches(db, profile, wishes, utcnow().date(), limit, settings.min_age)


def find_matches(viewer: Viewer, wishes: Wishes, settings: SiteSettings) -> Done[list[Match]]:
    """Save the wishes and rank the members for them."""
    with transaction() as db:
        profile = db.get(Profile, viewer.member_id)
        if profile is None:
            return Done([])
        save_wishes(db, viewer.member_id, wishes)
        today = utcnow().date()
        return Done(ranked_matches(db, profile, wishes, today, PAGE_SIZE, settings.min_age))
