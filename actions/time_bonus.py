"""The welcome time bonus, held by the server: started for a member who has not paid within
14 400 s of signing up, never reset or extended, cleared at zero, on log-out and on payment."""

from actions.runner import Done
from actions.viewer import Viewer
from models.member import Member, utcnow
from models.time_bonus import start_time_bonus as start_bonus
from services.database import transaction


def start_time_bonus(viewer: Viewer) -> Done[int]:
    """The bonus's deadline in epoch ms once started; 0 when the member has none."""
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        deadline = start_bonus(db, member, utcnow()) if member else None
        if member is not None:
            db.add(member)
    return Done(int(deadline.timestamp() * 1000) if deadline else 0)
