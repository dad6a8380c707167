"""The e-mails that tell an absent member what happened (a message, a like, a match), and the
rules that keep them few: one per topic (a conversation, likes, a match) per batch window and
at most a daily cap in any 24 hours. Each member keeps only the last day's rows."""

from datetime import datetime, timedelta

from sqlalchemy import Index, delete
from sqlmodel import Field, Session, SQLModel, select

from models.db import advisory_lock
from models.member import as_utc, utcnow

BATCH_WINDOW = timedelta(hours=4)  # at most one mail per topic in this window
DAILY_CAP = 5  # notification mails per member in any 24 hours
_DAY = timedelta(hours=24)
LIKES_TOPIC = "likes"


def chat_topic(conversation_id: int) -> str:
    return f"chat:{conversation_id}"


def match_topic(other_id: int) -> str:
    return f"match:{other_id}"


class NoticeMail(SQLModel, table=True):
    __tablename__ = "notice_mail"
    __table_args__ = (Index("ix_notice_mail_member_time", "member_id", "sent_at"),)

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", ondelete="CASCADE")
    topic: str = Field(max_length=40)
    sent_at: datetime = Field(default_factory=utcnow)


def claim_notice(db: Session, member_id: int, topic: str, now: datetime) -> bool:
    """Record a mail on `topic` for the member and answer True, unless one on the same topic
    went out within the batch window or the daily cap is reached. One claim per member at a
    time, so two events at the same moment send one mail. Caller commits."""
    advisory_lock(db, f"notice-mail:{member_id}")
    db.exec(
        delete(NoticeMail).where(
            NoticeMail.member_id == member_id,  # type: ignore[arg-type]
            NoticeMail.sent_at <= now - _DAY,  # type: ignore[arg-type]
        )
    )
    sent = db.exec(select(NoticeMail).where(NoticeMail.member_id == member_id)).all()
    recent_on_topic = any(
        row.topic == topic and as_utc(row.sent_at) > now - BATCH_WINDOW for row in sent
    )
    if recent_on_topic or len(sent) >= DAILY_CAP:
        return False
    db.add(NoticeMail(member_id=member_id, topic=topic, sent_at=now))
    db.flush()
    return True
