"""Which stored photo file a viewer gets: the file itself, its blurred rendition, or nothing."""

from dataclasses import dataclass

from sqlmodel import Session, or_, select

from actions.staff_viewer import staff_in
from actions.viewer import Viewer
from models.evidence import snapshot_photo
from models.member import Photo
from models.moderation import Report
from models.photo_access import PhotoView, photo_view
from models.photo_access import Viewer as PhotoViewer
from models.staff_tools import MODERATION
from services.database import db_session
from services.photo_pipeline import is_blurred_name, is_photo_filename, original_name
from services.photo_store import evidence_store, photo_store


@dataclass(frozen=True)
class PhotoAnswer:
    view: PhotoView
    wants_blurred: bool  # the address names a blurred rendition (`..._b.jpg`)
    staff_only: bool = False  # shown only because a moderator asks: never cached


def photo_answer(
    viewer: Viewer | None, filename: str, session_token: str | None = None, address: str = ""
) -> PhotoAnswer:
    """What `viewer` (None: a visitor) may see of the stored file `filename`. A moderator or
    admin in a live staff session (`session_token`) sees every stored photo's original."""
    who = PhotoViewer(viewer.member_id, viewer.paid_user) if viewer else PhotoViewer(None)
    with db_session() as db:
        view = photo_view(db, who, filename)
        if (
            view != PhotoView.FULL
            and session_token
            and _staff_sees(db, session_token, address, filename)
        ):
            return PhotoAnswer(PhotoView.FULL, False, staff_only=True)
        if view == PhotoView.NONE and is_blurred_name(filename):
            return PhotoAnswer(photo_view(db, who, original_name(filename)), True)
    return PhotoAnswer(view, False)


def _staff_sees(db: Session, token: str, address: str, filename: str) -> bool:
    """A stored photo or thumbnail (pending and rejected ones too) asked for by a moderator or
    an admin (actions/staff_viewer.staff_in: second factor, not idle, the role)."""
    stored = db.exec(
        select(Photo.id).where(or_(Photo.filename == filename, Photo.thumb_filename == filename))
    ).first()
    return stored is not None and staff_in(db, token, MODERATION, address) is not None


def evidence_file(report_id: int) -> tuple[str, bytes] | None:
    """The name and content of the photo a photo report names (its snapshot): kept as
    evidence after its member deleted it, or still stored; None when neither (not a photo's
    case, or past its retention, models/evidence.py). Only for staff the caller checked
    (app/staff_api.evidence_photo)."""
    with db_session() as db:
        report = db.get(Report, report_id)
        name = snapshot_photo(report.content_type, report.snapshot) if report else ""
    if not is_photo_filename(name):
        return None
    for store in (evidence_store(), photo_store()):
        if (content := store.get(name)) is not None:
            return name, content
    return None
