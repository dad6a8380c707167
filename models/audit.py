"""The staff audit log: one row per staff action, written in the action's own transaction.

Append-only: nothing in the code updates or deletes a row. The ORM refuses it (`_append_only`),
and on PostgreSQL a trigger refuses UPDATE and DELETE (migration 0019). Ids are plain numbers,
not foreign keys, so that erasing an account keeps the log whole."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, event
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Field, Session, SQLModel

from models.member import utcnow

REASON_LENGTH = 4000  # an appeal's answer is up to 4000 characters
ADDRESS_LENGTH = 64


class AuditEntry(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    actor_id: int | None = Field(default=None, index=True)  # None: the command line
    actor_role: str = Field(max_length=20)  # a Role, or "cli"
    action: str = Field(max_length=40)
    target_type: str = Field(default="", max_length=20)
    target_id: int | None = Field(default=None)
    reason: str = Field(default="", max_length=REASON_LENGTH)
    before: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    after: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    address: str = Field(default="", max_length=ADDRESS_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, index=True)


class AuditLogIsAppendOnly(Exception):
    pass


def record(db: Session, **fields: Any) -> AuditEntry:
    """Add an audit row to the caller's transaction."""
    entry = AuditEntry(**fields)
    db.add(entry)
    return entry


@event.listens_for(OrmSession, "before_flush")
def _append_only(db: OrmSession, _flush, _instances) -> None:
    if any(isinstance(row, AuditEntry) for row in (*db.dirty, *db.deleted)):
        raise AuditLogIsAppendOnly("audit rows are never changed or deleted")
