"""Blocking: the blocked member can neither see nor contact the viewer any more."""

from sqlmodel import Session

from actions.runner import Done
from actions.viewer import Viewer
from models.blocks import add_block, remove_block
from models.likes import drop_like
from models.member import Member
from services.database import transaction


def block_member(db: Session, blocker_id: int, member_id: int) -> None:
    """Block, which takes the blocker's like back and ends a match."""
    add_block(db, blocker_id, member_id)
    drop_like(db, blocker_id, member_id, ending_match=True)


def set_blocked(viewer: Viewer, member_id: int, blocked: bool) -> Done[bool]:
    """Block or unblock; False for oneself or nobody."""
    with transaction() as db:
        if member_id == viewer.member_id or db.get(Member, member_id) is None:
            return Done(False)
        if blocked:
            block_member(db, viewer.member_id, member_id)
        else:
            remove_block(db, viewer.member_id, member_id)
    return Done(True)
