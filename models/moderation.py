"""Moderation's records: reports and notices, decisions with their statement of reasons (DSA
Art. 17), appeals (Art. 20), and the identities a ban keeps from signing up again.

Member ids here are plain numbers, not foreign keys: a report, a decision and its appeal outlive
the accounts they name (the statement of reasons must stay answerable after an erasure)."""

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Column, Index, text
from sqlmodel import Field, SQLModel

from models.member import utcnow

APPEAL_WINDOW = timedelta(days=183)  # six months from the decision
SUSPENSION_DAYS = (3, 7, 30)


class ReportCategory(StrEnum):
    """In priority order: suspected minors first."""

    SUSPECTED_MINOR = "suspected_minor"
    CHILD_ABUSE = "child_abuse"  # notices only: CSAM, where the notifier may stay anonymous
    FAKE_OR_SCAM = "fake_or_scam"
    EXPLICIT_PHOTO = "explicit_photo"
    HARASSMENT = "harassment"
    HATE = "hate"
    SPAM = "spam"
    ILLEGAL = "illegal"  # notices only: other illegal content
    OTHER = "other"


CATEGORY_PRIORITY = {category: rank for rank, category in enumerate(ReportCategory)}
MEMBER_REPORT_CATEGORIES = tuple(
    c for c in ReportCategory if c not in (ReportCategory.CHILD_ABUSE, ReportCategory.ILLEGAL)
)


class ContentType(StrEnum):
    PROFILE = "profile"
    PHOTO = "photo"
    MESSAGE = "message"


class ReportSource(StrEnum):
    """Where a case came from, as the DSA Transparency Database names it."""

    REPORT = "report"  # a member's report in the site
    NOTICE = "notice"  # an Art. 16 notice at /complaints
    OWN_INITIATIVE = "own_initiative"  # staff, the filters or the photo classifier
    AUTOMATED = "automated"  # the photo classifier or the message filter


class CaseStatus(StrEnum):
    OPEN = "open"
    DECIDED = "decided"


OPEN_MEMBER_REPORT = "status = 'open' AND reporter_id IS NOT NULL"


class Report(SQLModel, table=True):
    """A member's report or a visitor's notice about one piece of content, and its queue place.

    `priority` is CATEGORY_PRIORITY of the category (lower first); the queue reads open cases by
    (priority, created_at). `snapshot` keeps what the moderator must see even when the content
    is deleted later: the profile's text, the photo's file, the conversation around a message."""

    __table_args__ = (
        Index("ix_report_queue", "status", "priority", "created_at"),
        Index("ix_report_reported", "reported_id", "created_at"),
        Index("ix_report_reporter", "reporter_id", "created_at"),
        Index("ix_report_content", "content_type", "content_id", "status"),
        Index(  # one open report per reporter and content, also when two arrive at once
            "uq_report_open",
            "reporter_id",
            "content_type",
            "content_id",
            unique=True,
            postgresql_where=text(OPEN_MEMBER_REPORT),
            sqlite_where=text(OPEN_MEMBER_REPORT),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    reference: str = Field(max_length=16, unique=True)  # what the notifier's mail quotes
    source: str = Field(max_length=20)  # a ReportSource
    category: str = Field(max_length=20)  # a ReportCategory
    priority: int = 0
    content_type: str = Field(max_length=10)  # a ContentType
    content_id: int | None = None  # the photo's or message's id; the member's for a profile
    reported_id: int | None = None  # the member the content belongs to
    reporter_id: int | None = None  # the reporting member; None for a visitor's notice
    text: str = Field(default="", max_length=4000)
    url: str = Field(default="", max_length=2000)  # a notice's exact URL of the content
    notifier_name: str = Field(default="", max_length=120)
    notifier_email: str = Field(default="", max_length=254)
    good_faith: bool = False  # the notice's Art. 16(2)(d) statement
    language: str = Field(default="en", max_length=5)  # the page's: the notifier's mails
    snapshot: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    status: str = Field(default="open", max_length=10)  # a CaseStatus
    assigned_to: int | None = None
    decision_id: int | None = None
    created_at: datetime = Field(default_factory=utcnow)
    decided_at: datetime | None = None


class Measure(StrEnum):
    DISMISS = "dismiss"  # no action: the content stays
    WARNING = "warning"
    REMOVE_CONTENT = "remove_content"  # a photo or a text
    HIDE_PROFILE = "hide_profile"
    SUSPEND = "suspend"  # for SUSPENSION_DAYS
    BAN = "ban"


class GroundType(StrEnum):
    TERMS = "terms"  # incompatible with the terms: `ground` names the rule
    LAW = "law"  # illegal content: `ground` names the law


class Decision(SQLModel, table=True):
    """A moderation decision and its statement of reasons, with the DSA Transparency Database's
    fields: the measure and its scope (`content_type`, `content_id`) and duration (`ends_at`),
    the facts, the source, automated detection and decision, the ground, and `puid` (the
    platform's own id of the statement). `before` keeps what the measure changed, so that a
    reversal can restore it."""

    __table_args__ = (Index("ix_decision_member", "member_id", "decided_at"),)

    id: int | None = Field(default=None, primary_key=True)
    puid: str = Field(max_length=32, unique=True)
    member_id: int | None = None  # the account the measure applies to
    report_id: int | None = None
    measure: str = Field(max_length=20)  # a Measure
    content_type: str = Field(max_length=10)  # a ContentType
    content_id: int | None = None
    category: str = Field(max_length=20)  # a ReportCategory
    source: str = Field(max_length=20)  # a ReportSource
    ground_type: str = Field(default="terms", max_length=10)  # a GroundType
    ground: str = Field(default="", max_length=200)
    facts: str = Field(default="", max_length=4000)
    automated_detection: bool = False
    automated_decision: bool = False
    duration_days: int | None = None
    ends_at: datetime | None = None
    before: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON))
    decided_by: int | None = None
    decided_at: datetime = Field(default_factory=utcnow)
    language: str = Field(default="en", max_length=5)  # the member's, for the statement
    reversed_at: datetime | None = None
    reversed_by: int | None = None


class AppealStatus(StrEnum):
    OPEN = "open"
    UPHELD = "upheld"
    REVERSED = "reversed"


class Appeal(SQLModel, table=True):
    """An internal complaint against a decision, by its member or by the notifier; decided by
    another staff member than the decision's."""

    __table_args__ = (Index("ix_appeal_queue", "status", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    decision_id: int = Field(foreign_key="decision.id", index=True)
    by_member_id: int | None = None
    by_notifier: bool = False
    report_id: int | None = None  # a notifier's appeal: their notice
    text: str = Field(default="", max_length=4000)
    language: str = Field(default="en", max_length=5)
    status: str = Field(default="open", max_length=10)  # an AppealStatus
    assigned_to: int | None = None
    decided_by: int | None = None
    answer: str = Field(default="", max_length=4000)
    created_at: datetime = Field(default_factory=utcnow)
    decided_at: datetime | None = None


class BannedIdentity(SQLModel, table=True):
    """The SHA-256 of a banned member's e-mail address or phone number (kind "email"/"phone"),
    kept after the account is erased: signing up again with it is refused."""

    identity_hash: str = Field(max_length=64, primary_key=True)
    kind: str = Field(max_length=10)
    decision_id: int = Field(foreign_key="decision.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)


class RejectedPhotoHash(SQLModel, table=True):
    """The perceptual hash of a rejected photo: the same picture uploaded again is reviewed."""

    phash: str = Field(max_length=32, primary_key=True)
    decision_id: int | None = None
    created_at: datetime = Field(default_factory=utcnow)
