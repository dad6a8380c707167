"""Which stored photo file a viewer gets: the file itself, its blurred rendition, or nothing."""

from dataclasses import dataclass

from actions.viewer import Viewer
from models.photo_access import PhotoView, photo_view
from models.photo_access import Viewer as PhotoViewer
from services.database import db_session
from services.photo_pipeline import is_blurred_name, original_name


@dataclass(frozen=True)
class PhotoAnswer:
    view: PhotoView
    wants_blurred: bool  # the address names a blurred rendition (`..._b.jpg`)


def photo_answer(viewer: Viewer | None, filename: str) -> PhotoAnswer:
    """What `viewer` (None: a visitor) may see of the stored file `filename`."""
    who = PhotoViewer(viewer.member_id, viewer.paid_user) if viewer else PhotoViewer(None)
    with db_session() as db:
        view = photo_view(db, who, filename)
        if view == PhotoView.NONE and is_blurred_name(filename):
            return PhotoAnswer(photo_view(db, who, original_name(filename)), True)
    return PhotoAnswer(view, False)
