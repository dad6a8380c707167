"""Likes: like and unlike a member, the received and given lists, and the like the new-like
modal announces (a new one, otherwise an automatic one)."""

import random
from dataclasses import dataclass
from datetime import date

from actions.live import BadgesChanged
from actions.runner import Done
from actions.viewer import Viewer
from models.likes import (
    Announcement,
    CannotLike,
    LikeTile,
    announcement,
    drop_like,
    given_likes,
    like_member,
    new_like_count,
    received_likes,
)
from models.member import utcnow
from services.database import db_session, transaction

RECEIVED, GIVEN = "received", "given"


@dataclass(frozen=True)
class LikeArrived:
    """Effect: `member_id` got a new like; their open page may announce it at once."""

    member_id: int


@dataclass(frozen=True)
class LikeOutcome:
    stored: bool  # False: the member is gone, hidden, blocked or the viewer themselves
    new_likes: int  # the viewer's new-likes badge afterwards


def like(viewer: Viewer, member_id: int) -> Done[LikeOutcome]:
    """Like the member once; their badge counts the new like."""
    with transaction() as db:
        try:
            created = like_member(db, viewer.member_id, member_id)
        except CannotLike:
            created = None
        outcome = LikeOutcome(created is not None, new_like_count(db, viewer.member_id))
    return Done(
        outcome, effects=(BadgesChanged(member_id), LikeArrived(member_id)) if created else ()
    )


def unlike(viewer: Viewer, member_id: int) -> Done[int]:
    """Take a like back; the viewer's new-likes badge afterwards."""
    with transaction() as db:
        dropped = drop_like(db, viewer.member_id, member_id)
        count = new_like_count(db, viewer.member_id)
    return Done(count, effects=(BadgesChanged(member_id),) if dropped else ())


def likes_page(member_id: int, kind: str, limit: int, offset: int) -> list[LikeTile]:
    """One page of the member's received or given likes."""
    fetch = given_likes if kind == GIVEN else received_likes
    with db_session() as db:
        return fetch(db, member_id, date.today(), limit=limit, offset=offset)


def like_to_announce(viewer: Viewer) -> Done[Announcement | None]:
    """The newest like not yet announced, otherwise a fresh automatic like (at most one a day);
    showing it marks it announced."""
    with transaction() as db:
        found = announcement(db, viewer.member_id, utcnow(), random.Random())
    return Done(found)


def new_likes(member_id: int) -> int:
    """The member's new-likes badge."""
    with db_session() as db:
        return new_like_count(db, member_id)
