"""The interface language a member chose."""

from actions.runner import Done
from actions.viewer import Viewer
from models.member import Member
from services.database import transaction


def save_language(viewer: Viewer, locale: str) -> Done[bool]:
    """Keep `locale` (already checked against the supported ones) on the member's account."""
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        if member is None:
            return Done(False)
        member.language = locale
        db.add(member)
    return Done(True)
