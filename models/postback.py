"""A conversion reported to the network of a paid click (docs/acquisition.md, "Conversions"):
one row per click and event, written in the transaction of the action that converted, its
address resolved from the network's template then, and sent afterwards by
services/postbacks.py with retries. The unique (click, event) pair is the "exactly once"."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from models.member import utcnow
from models.setting_postbacks import URL_MAX
from models.traffic import TRACKING_MAX

ERROR_MAX = 300  # the last failure's text, cut
TID_LENGTH = 16


class ConversionEvent(StrEnum):
    LEAD = "lead"  # signed up
    CONFIRMED = "confirmed"  # confirmed the e-mail address
    SALE = "sale"  # the member's first paid order
    REVERSAL = "reversal"  # that order refunded or charged back


class PostbackStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


class Postback(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("click_id", "event", name="uq_postback_click_event"),
        Index("ix_postback_due", "status", "next_attempt_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    click_id: int = Field(foreign_key="trafficclick.id", ondelete="CASCADE")
    network: str = Field(max_length=TRACKING_MAX)
    event: str = Field(max_length=10)
    tid: str = Field(max_length=TID_LENGTH, unique=True)  # the transaction id sent as {tid}
    amount_cents: int | None = None
    currency: str = Field(default="", max_length=3)
    url: str = Field(max_length=URL_MAX)  # the address sent, resolved at creation
    status: str = Field(default=PostbackStatus.PENDING, max_length=10)
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow)
    last_status_code: int | None = None
    last_error: str = Field(default="", max_length=ERROR_MAX)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    sent_at: datetime | None = None
