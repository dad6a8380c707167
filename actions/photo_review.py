"""Photo moderation's actions: the moderators' review (approve; reject through a moderation
decision). Rules: models/photo_review.py; the classifier scores each upload before its row is
committed (services/member_photos.py)."""

from dataclasses import dataclass
from typing import Any

from actions.audit import audit
from actions.moderation import decide
from actions.paging import bounded_page
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.decisions import CONTENT_GONE, ModerationRefused
from models.member import Photo, as_utc, utcnow
from models.moderation import ContentType, GroundType, Measure
from models.photo_review import QueuedPhoto, approve_photo, open_reports, review_queue
from models.site_settings import SiteSettings
from services.database import db_session, transaction
from services.site_settings import current_settings

QUEUE_PAGE = 24  # photos a page of the review queue shows


@dataclass(frozen=True)
class ReviewPage:
    rows: list[dict[str, Any]]  # see `_row`
    page: int
    has_next: bool
    moderation: str  # "pre" or "post"


def _row(queued: QueuedPhoto, settings: SiteSettings) -> dict[str, Any]:
    return {
        "id": queued.photo_id,
        "member_id": queued.member_id,
        "name": queued.name,
        "url": settings.photo_url(queued.filename),  # the original: staff may see it
        "status": queued.status,
        "created_at": as_utc(queued.created_at).isoformat(),
        "score": -1 if queued.nsfw_score is None else round(queued.nsfw_score * 100),  # %
        "category": queued.category or "",
        "report_id": queued.report_id or 0,
    }


def queue_page(page: int) -> ReviewPage:
    """One page (from 1) of the review queue."""
    page = bounded_page(page)
    with db_session() as db:
        found = review_queue(db, utcnow(), (page - 1) * QUEUE_PAGE, QUEUE_PAGE + 1)
    settings = current_settings()
    rows = [_row(queued, settings) for queued in found[:QUEUE_PAGE]]
    return ReviewPage(rows, page, len(found) > QUEUE_PAGE, settings.photo_moderation)


def approve(staff: StaffViewer, photo_id: int) -> Done[bool]:
    """Approve the photo (audited); False when it is gone or was rejected meanwhile."""
    with transaction() as db:
        change = approve_photo(db, photo_id, utcnow())
        if change is not None:
            before, after = change
            audit(
                db,
                staff,
                "photo.approve",
                ("photo", photo_id),
                before={"status": before},
                after={"status": after},
            )
    return Done(change is not None)


def reject(
    staff: StaffViewer, photo_id: int, ground_type: GroundType, ground: str, facts: str
) -> Done[int]:
    """Remove the photo by a moderation decision (its statement of reasons goes to the member),
    on the photo's most urgent open report if it has one; the decision's id. ModerationRefused
    for a photo that is gone."""
    with db_session() as db:
        photo = db.get(Photo, photo_id)
        if photo is None:
            raise ModerationRefused(CONTENT_GONE)
        member_id = photo.member_id
        reports = open_reports(db, photo_id)
        report_id = reports[0].id if reports else None
    return decide(
        staff,
        report_id,
        member_id,
        ContentType.PHOTO,
        photo_id,
        Measure.REMOVE_CONTENT,
        ground_type,
        ground,
        facts,
        None,
    )
