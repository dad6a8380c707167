"""Blocking: a blocked member can neither see nor contact the member who blocked them."""

from datetime import datetime

from sqlalchemy import ColumnElement, Index, and_, exists, true
from sqlmodel import Field, Session, SQLModel

from models.member import utcnow


class Block(SQLModel, table=True):
    __table_args__ = (Index("ix_block_blocked", "blocked_id", "blocker_id"),)

    blocker_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    blocked_id: int = Field(foreign_key="member.id", primary_key=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)


def add_block(db: Session, blocker_id: int, blocked_id: int) -> None:
    """Within the caller's transaction; idempotent; blocking oneself is refused. The caller
    checks that `blocked_id` exists."""
    if blocker_id == blocked_id:
        raise ValueError("a member cannot block themselves")
    if db.get(Block, (blocker_id, blocked_id)) is None:
        db.add(Block(blocker_id=blocker_id, blocked_id=blocked_id))


def remove_block(db: Session, blocker_id: int, blocked_id: int) -> None:
    """Within the caller's transaction."""
    block = db.get(Block, (blocker_id, blocked_id))
    if block is not None:
        db.delete(block)


def has_blocked(db: Session, blocker_id: int | None, blocked_id: int) -> bool:
    return blocker_id is not None and db.get(Block, (blocker_id, blocked_id)) is not None


def blocked_either_way(db: Session, member_a: int, member_b: int) -> bool:
    return has_blocked(db, member_a, member_b) or has_blocked(db, member_b, member_a)


def not_blocked_with(viewer_id: int | None, member_id: ColumnElement) -> ColumnElement[bool]:
    """SQL: no block between the viewer and the member in `member_id`, in either direction."""
    if viewer_id is None:
        return true()
    # Two NOT EXISTS rather than one with OR: PostgreSQL turns each into a hashed anti-join.
    blocked_by_viewer = exists().where(Block.blocker_id == viewer_id, Block.blocked_id == member_id)
    blocking_viewer = exists().where(Block.blocker_id == member_id, Block.blocked_id == viewer_id)
    return and_(~blocked_by_viewer, ~blocking_viewer)
