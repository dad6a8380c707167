"""Failed attempts a throttle counts: one row per failure under a hashed key (a client's IP
address for wrong passwords; a member or an address for discount codes not found), kept for
WINDOW. A key with `limit` failures in the window is refused until the oldest leaves it."""

import hashlib
from datetime import datetime, timedelta
from math import ceil

from sqlmodel import Field, Session, SQLModel, delete, func, select

from models.member import utcnow

WINDOW = timedelta(minutes=15)


class ClientFailure(SQLModel, table=True):
    """A failed attempt under a key (hashed), kept for WINDOW."""

    id: int | None = Field(default=None, primary_key=True)
    client_hash: str = Field(max_length=64, index=True)
    created_at: datetime = Field(default_factory=utcnow, index=True)


def attempt_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def minutes_refused(db: Session, key: str, limit: int, now: datetime) -> int:
    """Minutes until `key` may try again, 0 while it is under `limit` failures."""
    query = select(func.count(), func.min(ClientFailure.created_at)).where(
        ClientFailure.client_hash == key, ClientFailure.created_at > now - WINDOW
    )
    count, oldest = db.exec(query).one()
    if count < limit:
        return 0
    return max(1, ceil((oldest + WINDOW - now).total_seconds() / 60))


def remember_failure(db: Session, key: str, now: datetime) -> None:
    """One row per failure; rows older than the window go (so the table stays small)."""
    db.exec(delete(ClientFailure).where(ClientFailure.created_at <= now - WINDOW))
    db.add(ClientFailure(client_hash=key, created_at=now))
