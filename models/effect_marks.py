"""Which outside-world effects of a job were done: a mail sent, a push delivered to one browser.

A job that is retried (a failure, a worker that died after sending) checks its key first, so the
member never gets the same mail or push twice (services/mail_job.py, actions/push_notify.py).
"""

from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, col, delete, select

from models.member import utcnow

KEEP = timedelta(days=7)  # far past the last retry of any job


class EffectMark(SQLModel, table=True):
    __tablename__ = "effect_mark"

    key: str = Field(primary_key=True, max_length=200)
    done_at: datetime = Field(default_factory=utcnow, index=True)


def is_marked(db: Session, key: str) -> bool:
    return db.get(EffectMark, key) is not None


def marked_among(db: Session, keys: list[str]) -> set[str]:
    """Which of `keys` are marked (one query)."""
    if not keys:
        return set()
    return set(db.exec(select(EffectMark.key).where(col(EffectMark.key).in_(keys))))


def mark(db: Session, *keys: str) -> None:
    db.add_all(EffectMark(key=key) for key in keys)
    db.flush()


def purge_effect_marks(db: Session, now: datetime) -> int:
    result = db.exec(delete(EffectMark).where(col(EffectMark.done_at) < now - KEEP))
    return result.rowcount or 0
