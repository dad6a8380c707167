"""What the periodic refresh asks besides the frame: how often this member's tabs refresh."""

from models.push_subscription import has_push_subscription
from services.database import db_session


def gets_pushes(member_id: int) -> bool:
    """The member has a Web Push subscription (their tabs may refresh less often)."""
    with db_session() as db:
        return has_push_subscription(db, member_id)
