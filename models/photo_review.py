"""Photo moderation's rules: the status a new photo starts in, the classifier's and the
perceptual hash's flags, approval, and the review queue.

Under pre-moderation (`SiteSettings.photo_moderation == "pre"`) a new photo is pending until a
moderator approves it; under post-moderation it is approved at once and reviewed afterwards. A
photo within SAME_PICTURE_BITS of a rejected photo's hash, or scored EXPLICIT_SCORE or more by
the classifier, is pending in either mode, with an automated report that puts it at the top of
the queue. Rejecting is a moderation decision (actions/moderation.decide)."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, func, or_
from sqlmodel import Session, select

from models.member import Photo, Profile
from models.moderation import (
    CATEGORY_PRIORITY,
    CaseStatus,
    ContentType,
    Decision,
    RejectedPhotoHash,
    Report,
    ReportCategory,
    ReportSource,
)
from models.photos import PhotoStatus, settle_main_photo
from models.report_rules import new_reference

EXPLICIT_SCORE = 0.8  # the classifier's score from which a photo waits for a moderator
SAME_PICTURE_BITS = 6  # pHash bits at most apart: the same picture, re-encoded or retouched
UNREVIEWED_DAYS = 30  # post-moderation: approved photos this recent and unreviewed are queued
PRE = "pre"  # SiteSettings.photo_moderation for pre-moderation; "post" otherwise


def hash_distance(first: str, second: str) -> int:
    """The number of bits two hex hashes of one length differ in."""
    return (int(first, 16) ^ int(second, 16)).bit_count()


def rejected_match(db: Session, phash: str) -> RejectedPhotoHash | None:
    """The rejected photo's hash this one is within SAME_PICTURE_BITS of, if any. Scans every
    remembered hash (a few bits' distance is no SQL range); they are few and 16 digits each."""
    for rejected in db.exec(select(RejectedPhotoHash)):
        if len(rejected.phash) == len(phash) and hash_distance(rejected.phash, phash) <= (
            SAME_PICTURE_BITS
        ):
            return rejected
    return None


def flag_photo(
    db: Session, photo: Photo, category: ReportCategory, facts: dict[str, Any]
) -> Report:
    """Hold the photo back (pending, never a main photo) with an automated report on it."""
    photo.status = PhotoStatus.PENDING
    db.add(photo)
    report = Report(
        reference=new_reference(),
        source=ReportSource.AUTOMATED,
        category=category,
        priority=CATEGORY_PRIORITY[category],
        content_type=ContentType.PHOTO,
        content_id=photo.id,
        reported_id=photo.member_id,
        snapshot={
            "photo": photo.filename,
            "phash": photo.phash or "",
            "automated_detection": True,
            **facts,
        },
    )
    db.add(report)
    db.flush()
    settle_main_photo(db, photo.member_id)
    return report


def review_new_photo(
    db: Session, photo: Photo, phash: str, moderation: str, score: float | None
) -> None:
    """A new photo's status, set before its row is first committed, so no photo is ever shown
    to others unscored: pending under pre-moderation or without a score (the classifier was
    busy: the hourly sweep scores it, `record_score`); pending and flagged when it is a
    rejected picture again or explicit; else approved."""
    photo.phash, photo.nsfw_score = phash, score
    held = moderation == PRE or score is None
    photo.status = PhotoStatus.PENDING if held else PhotoStatus.APPROVED
    db.add(photo)
    db.flush()
    if (match := rejected_match(db, phash)) is not None:
        decision = db.get(Decision, match.decision_id) if match.decision_id else None
        category = ReportCategory(decision.category) if decision else ReportCategory.OTHER
        flag_photo(db, photo, category, {"rejected_decision": match.decision_id})
    elif score is not None and score >= EXPLICIT_SCORE:
        flag_photo(db, photo, ReportCategory.EXPLICIT_PHOTO, {"score": round(score, 4)})
    else:
        settle_main_photo(db, photo.member_id)


def unscored_photos(db: Session, before: datetime, limit: int) -> list[tuple[int, str]]:
    """(id, file name) of photos still without a score, added before `before`: the sweep's."""
    query = (
        select(Photo.id, Photo.filename)
        .where(Photo.nsfw_score.is_(None), Photo.created_at < before)
        .order_by(Photo.id)
        .limit(limit)
    )
    return list(db.exec(query))


def record_score(db: Session, photo_id: int, filename: str, score: float, moderation: str) -> bool:
    """Store the classifier's score of the file `filename`; an explicit photo not yet judged is
    flagged, and under post-moderation a clean one held back only for want of a score (pending,
    nothing reported) is approved. True when it was flagged now; False too for a photo deleted
    meanwhile (the file name, random, proves the row is still the one scored)."""
    photo = db.get(Photo, photo_id, with_for_update=True)
    if photo is None or photo.filename != filename:
        return False
    photo.nsfw_score = score
    db.add(photo)
    db.flush()
    if score < EXPLICIT_SCORE or photo.reviewed_at is not None:
        _release(db, photo, moderation)
        return False
    if photo.status == PhotoStatus.REJECTED or open_reports(db, photo.id, automated_only=True):
        return False
    flag_photo(db, photo, ReportCategory.EXPLICIT_PHOTO, {"score": round(score, 4)})
    return True


def _release(db: Session, photo: Photo, moderation: str) -> None:
    if moderation == PRE or photo.status != PhotoStatus.PENDING or open_reports(db, photo.id):
        return
    photo.status = PhotoStatus.APPROVED
    db.add(photo)
    db.flush()
    settle_main_photo(db, photo.member_id)


def open_reports(db: Session, photo_id: int, automated_only: bool = False) -> list[Report]:
    """The open reports and notices on a photo, most urgent first."""
    query = select(Report).where(
        Report.content_type == ContentType.PHOTO,
        Report.content_id == photo_id,
        Report.status == CaseStatus.OPEN,
    )
    if automated_only:
        query = query.where(Report.source == ReportSource.AUTOMATED)
    return list(db.exec(query.order_by(Report.priority, Report.created_at)))


def remember_gone_photo(db: Session, decision: Decision) -> bool:
    """A removal of a reported photo its member deleted since: remember the hash its report's
    snapshot kept, so the picture cannot come back. False when the decision's report is not
    about that photo or kept no hash."""
    report = db.get(Report, decision.report_id) if decision.report_id else None
    about = report is not None and (report.content_type, report.content_id) == (
        ContentType.PHOTO,
        decision.content_id,
    )
    phash = (report.snapshot or {}).get("phash") if about else None
    if not phash:
        return False
    if db.get(RejectedPhotoHash, phash) is None:
        db.add(RejectedPhotoHash(phash=phash, decision_id=decision.id))
    return True


def approve_photo(db: Session, photo_id: int, now: datetime) -> tuple[str, str] | None:
    """Approve a pending or unreviewed photo, closing the automated reports on it (members'
    reports and notices stay for the report queue, where their senders get an answer). The
    (before, after) status, or None for a photo that is gone or was rejected."""
    photo = db.get(Photo, photo_id, with_for_update=True)
    if photo is None or photo.status == PhotoStatus.REJECTED:
        return None
    before = photo.status
    photo.status, photo.reviewed_at = PhotoStatus.APPROVED, now
    db.add(photo)
    for report in open_reports(db, photo_id, automated_only=True):
        report.status, report.decided_at = CaseStatus.DECIDED, now
        db.add(report)
    db.flush()
    settle_main_photo(db, photo.member_id)
    return before, photo.status


@dataclass(frozen=True)
class QueuedPhoto:
    photo_id: int
    member_id: int
    name: str
    filename: str
    status: str
    created_at: datetime
    nsfw_score: float | None
    category: str | None  # the most urgent open report's, None when nothing flagged it
    report_id: int | None


def review_queue(db: Session, now: datetime, offset: int, limit: int) -> list[QueuedPhoto]:
    """Pending photos first, flagged ones (by their report's priority) before the rest, oldest
    first; then approved photos of the last UNREVIEWED_DAYS nobody reviewed yet."""
    flagged = (
        select(func.min(Report.priority))
        .where(
            Report.content_type == ContentType.PHOTO,
            Report.content_id == Photo.id,
            Report.status == CaseStatus.OPEN,
        )
        .correlate(Photo)
        .scalar_subquery()
    )
    rows = db.exec(
        select(Photo, Profile.name)
        .join(Profile, Profile.member_id == Photo.member_id)
        .where(
            or_(
                Photo.status == PhotoStatus.PENDING,
                (Photo.status == PhotoStatus.APPROVED)
                & Photo.reviewed_at.is_(None)
                & (Photo.created_at >= now - timedelta(days=UNREVIEWED_DAYS)),
            )
        )
        .order_by(
            case((Photo.status == PhotoStatus.PENDING, 0), else_=1),
            case((flagged.is_(None), 1), else_=0),
            flagged,
            Photo.created_at,
            Photo.id,
        )
        .offset(offset)
        .limit(limit)
    ).all()
    urgent = _most_urgent_reports(db, [photo.id for photo, _ in rows])
    return [_queued(photo, name, urgent.get(photo.id)) for photo, name in rows]


def _most_urgent_reports(db: Session, photo_ids: list[int]) -> dict[int, Report]:
    """Per photo id, its most urgent open report."""
    reports = db.exec(
        select(Report)
        .where(
            Report.content_type == ContentType.PHOTO,
            Report.content_id.in_(photo_ids),
            Report.status == CaseStatus.OPEN,
        )
        .order_by(Report.priority.desc(), Report.created_at.desc())
    )
    return {report.content_id: report for report in reports}  # the last, most urgent, wins


def _queued(photo: Photo, name: str, report: Report | None) -> QueuedPhoto:
    return QueuedPhoto(
        photo.id,
        photo.member_id,
        name,
        photo.filename,
        photo.status,
        photo.created_at,
        photo.nsfw_score,
        report.category if report else None,
        report.id if report else None,
    )
