"""Web Push subscriptions a member's browsers registered."""

from datetime import datetime

from sqlalchemy import ColumnElement, Exists, exists
from sqlmodel import Field, Session, SQLModel, select

from models.member import utcnow


class PushSubscription(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    endpoint: str = Field(max_length=1000, unique=True)
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)
    created_at: datetime = Field(default_factory=utcnow)


def _by_endpoint(db: Session, endpoint: str) -> PushSubscription | None:
    return db.exec(select(PushSubscription).where(PushSubscription.endpoint == endpoint)).first()


def save_subscription(db: Session, member_id: int, endpoint: str, p256dh: str, auth: str) -> None:
    """Store or re-own a subscription; a browser endpoint belongs to the member who sent it last."""
    row = _by_endpoint(db, endpoint)
    if row is None:
        row = PushSubscription(member_id=member_id, endpoint=endpoint, p256dh=p256dh, auth=auth)
    else:
        row.member_id, row.p256dh, row.auth = member_id, p256dh, auth
    db.add(row)
    db.flush()


def subscribed(member_id: int | ColumnElement[int]) -> Exists:
    """SQL: the member has a browser to push to."""
    return exists().where(PushSubscription.member_id == member_id)


def has_push_subscription(db: Session, member_id: int) -> bool:
    return bool(db.exec(select(subscribed(member_id))).one())


MAX_PUSHED_SUBSCRIPTIONS = 10  # the member's newest browsers a push goes to


def subscriptions_of(db: Session, member_id: int) -> list[PushSubscription]:
    query = (
        select(PushSubscription)
        .where(PushSubscription.member_id == member_id)
        .order_by(PushSubscription.created_at.desc())
        .limit(MAX_PUSHED_SUBSCRIPTIONS)
    )
    return list(db.exec(query))


def forget_subscription(db: Session, endpoint: str) -> None:
    """The push service said the subscription no longer works."""
    row = _by_endpoint(db, endpoint)
    if row is not None:
        db.delete(row)
        db.flush()
