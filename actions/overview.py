"""The member's likes as the HTTP API lists them (spec section 7); their chats come from
actions/chat.py."""

from dataclasses import dataclass

from actions.viewer import Viewer
from models.likes import LikeTile, given_likes, new_like_count, received_likes
from models.member import utcnow
from services.database import db_session


@dataclass(frozen=True)
class LikesOverview:
    given: list[LikeTile]
    received: list[LikeTile]
    new: int


def likes_overview(viewer: Viewer, limit: int) -> LikesOverview:
    """Likes given and received, and how many received are new (a read)."""
    today = utcnow().date()
    with db_session() as db:
        return LikesOverview(
            given_likes(db, viewer.member_id, today, limit),
            received_likes(db, viewer.member_id, today, limit),
            new_like_count(db, viewer.member_id),
        )
