"""The history of the site settings: one row per change an admin saved in the console, with the
value before and after (as stored, JSON), who saved it and when. Kept for good, like the audit
log; `staff_id` is a plain number, so erasing an account keeps the history whole."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, Session, SQLModel, select

from models.member import utcnow

HISTORY_ROWS = 20  # the changes of one setting the console shows
KEY_LENGTH = 64  # a setting's name, as SiteSetting.key


class SettingChange(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=KEY_LENGTH, index=True)
    old: Any = Field(sa_column=Column(JSON, nullable=True))
    new: Any = Field(sa_column=Column(JSON, nullable=True))
    staff_id: int | None = Field(default=None)
    at: datetime = Field(default_factory=utcnow)


def history(db: Session, key: str, limit: int = HISTORY_ROWS) -> list[SettingChange]:
    """The setting's latest changes, newest first."""
    query = (
        select(SettingChange)
        .where(SettingChange.key == key)
        .order_by(SettingChange.at.desc(), SettingChange.id.desc())  # type: ignore[union-attr]
        .limit(limit)
    )
    return list(db.exec(query))
