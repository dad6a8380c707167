"""How long a reported photo its member deleted is kept as evidence (its files in the evidence
store, services/photo_store.evidence_store): while a photo report or notice that names it in its
snapshot is open, while an appeal on its decision is open, and for `KEPT_AFTER_DECISION` after
its decision: the six months in which the decision can be appealed (DSA Art. 20). The report
and its decision stay (docs/data-rights.md); only the photo goes."""

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import exists, or_
from sqlmodel import Session, col, select

from models.moderation import (
    APPEAL_WINDOW,
    Appeal,
    AppealStatus,
    CaseStatus,
    ContentType,
    Report,
)

KEPT_AFTER_DECISION = APPEAL_WINDOW


def snapshot_photo(content_type: str, snapshot: dict[str, Any]) -> str:
    """The stored photo file a photo report's snapshot names ("" for none)."""
    return str(snapshot.get("photo") or "") if content_type == ContentType.PHOTO else ""


def photos_still_evidence(db: Session, photos: Collection[str], now: datetime) -> set[str]:
    """Of the photo file names `photos`, those a report still keeps as evidence."""
    named = Report.snapshot["photo"].as_string()  # type: ignore[index]
    open_appeal = exists().where(
        col(Appeal.decision_id) == col(Report.decision_id), Appeal.status == AppealStatus.OPEN
    )
    found = db.exec(
        select(named).where(
            Report.content_type == ContentType.PHOTO,
            named.in_(photos),
            or_(
                Report.status == CaseStatus.OPEN,
                col(Report.decided_at) > now - KEPT_AFTER_DECISION,
                open_appeal,
            ),
        )
    )
    return set(found.all())
