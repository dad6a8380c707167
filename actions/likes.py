"""Likes: like and unlike a member, the received and given lists, matches (two members who like
each other), and what the modals announce: a match, a new like, otherwise an automatic like."""

import random
from dataclasses import dataclass
from datetime import date

from sqlmodel import Session

from actions.live import BadgesChanged
from actions.notices import NEW_LIKE, NEW_MATCH, tell_later
from actions.runner import Done
from actions.viewer import Viewer
from models.directory import MemberTile, member_tile
from models.likes import (
    Announcement,
    CannotLike,
    LikeTile,
    announcement,
    drop_like,
    given_likes,
    like_member,
    match_if_mutual,
    matches,
    new_like_count,
    received_likes,
    unannounced_match,
)
from models.likes import MatchKept as MatchKept  # what unlike raises, for the states
from models.member import Member, utcnow
from models.routes import GIVEN as GIVEN
from models.routes import MATCHES as MATCHES
from models.routes import RECEIVED as RECEIVED
from services.database import db_session, transaction


@dataclass(frozen=True)
class LikeArrived:
    """Effect: `member_id` got a new like from `liker_id`; their open page may announce it at
    once."""

    member_id: int
    liker_id: int


@dataclass(frozen=True)
class MatchMade:
    """Effect: the two members like each other now; both are told at once."""

    member_ids: tuple[int, int]


@dataclass(frozen=True)
class LikeOutcome:
    stored: bool  # False: the member is gone, hidden, blocked or the viewer themselves
    new_likes: int  # the viewer's new-likes badge afterwards
    created: bool = False  # this call gave the like (False: the viewer had given it before)
    matched: bool = False  # this like made a match


def like(viewer: Viewer, member_id: int) -> Done[LikeOutcome]:
    """Like the member once; their badge counts the new like. When they like the viewer too,
    it is a match: both hear of the match instead of the like."""
    with transaction() as db:
        try:
            outcome = like_within(db, viewer, member_id)
        except CannotLike:
            outcome = LikeOutcome(False, new_like_count(db, viewer.member_id))
    return Done(outcome, effects=like_effects(viewer, member_id, outcome))


def like_within(db: Session, viewer: Viewer, member_id: int) -> LikeOutcome:
    """The like within the caller's transaction; CannotLike when the member may not be liked."""
    created = like_member(db, viewer.member_id, member_id)
    matched = created and match_if_mutual(db, viewer.member_id, member_id, utcnow())
    if created:
        _tell(db, viewer.member_id, member_id, matched)
    return LikeOutcome(True, new_like_count(db, viewer.member_id), created, matched)


def _tell(db: Session, liker_id: int, member_id: int, matched: bool) -> None:
    """Defer the liked member's push and mail (both members' for a match) in the like's
    transaction."""
    if not matched:
        tell_later(db, NEW_LIKE, db.get(Member, member_id), liker_id)
        return
    for told_id, other_id in ((member_id, liker_id), (liker_id, member_id)):
        tell_later(db, NEW_MATCH, db.get(Member, told_id), other_id)


def like_effects(viewer: Viewer, member_id: int, outcome: LikeOutcome) -> tuple[object, ...]:
    """What a stored like tells: the liked member's badge, then the like or the match."""
    if not outcome.created:
        return ()
    told = (
        MatchMade((viewer.member_id, member_id))
        if outcome.matched
        else LikeArrived(member_id, viewer.member_id)
    )
    return (BadgesChanged(member_id), told)


def unlike(viewer: Viewer, member_id: int) -> Done[int]:
    """Take a like back; the viewer's new-likes badge afterwards. A like that made a match
    raises MatchKept: the other member was told, only a block ends it."""
    with transaction() as db:
        dropped = drop_like(db, viewer.member_id, member_id)
        count = new_like_count(db, viewer.member_id)
    return Done(count, effects=(BadgesChanged(member_id),) if dropped else ())


def likes_page(member_id: int, kind: str, limit: int, offset: int) -> list[LikeTile]:
    """One page of the member's received or given likes."""
    fetch = {GIVEN: given_likes, MATCHES: matches}.get(kind, received_likes)
    with db_session() as db:
        return fetch(db, member_id, date.today(), limit=limit, offset=offset)


def like_to_announce(viewer: Viewer) -> Done[Announcement | None]:
    """The newest like not yet announced, otherwise a fresh automatic like (at most one a day);
    showing it marks it announced."""
    with transaction() as db:
        found = announcement(db, viewer.member_id, utcnow(), random.Random())
    return Done(found)


@dataclass(frozen=True)
class MatchNews:
    own: MemberTile | None  # the viewer's tile, for their photo beside the other's
    other: MemberTile


def match_to_announce(viewer: Viewer) -> Done[MatchNews | None]:
    """The newest match the viewer has not been shown; showing it marks it."""
    today = utcnow().date()
    with transaction() as db:
        other = unannounced_match(db, viewer.member_id, today)
        own = member_tile(db, viewer.member_id, today) if other is not None else None
    return Done(MatchNews(own, other) if other is not None else None)


def new_likes(member_id: int) -> int:
    """The member's new-likes badge."""
    with db_session() as db:
        return new_like_count(db, member_id)
