"""A member's own photos: the gallery as the settings show it, upload, main photo, order and
deletion. Files and rows together (written before the row, removed after it is gone) are
services/member_photos.py's."""

from dataclasses import dataclass

from actions.runner import Done
from actions.viewer import Viewer
from models.member import Member, Photo, Profile
from models.photos import NotYourPhotos, PhotoStatus, gallery_order, moved, reorder_photos
from models.photos import set_main_photo as set_main
from models.profile_steps import photo_limit
from models.site_settings import SiteSettings
from services.database import db_session, transaction
from services.member_photos import add_member_photo, remove_member_photo
from services.site_settings import current_settings


@dataclass(frozen=True)
class Gallery:
    # Each photo: {"id": int, "url": thumbnail address, "is_main": bool, "status": a
    # PhotoStatus}, main photo first. A rejected photo has no address: nobody gets its file.
    photos: list[dict[str, int | str | bool]]
    limit: int
    premium: bool


def _tile(photo: Photo, is_main: bool, settings: SiteSettings) -> dict[str, int | str | bool]:
    gone = photo.status == PhotoStatus.REJECTED
    url = "" if gone else settings.photo_url(photo.thumb_filename)
    return {"id": photo.id, "url": url, "is_main": is_main, "status": photo.status}


def gallery(member_id: int) -> Gallery | None:
    """The member's photos in gallery order, their photo limit and premium flag."""
    settings = current_settings()
    with db_session() as db:
        member, profile = db.get(Member, member_id), db.get(Profile, member_id)
        if member is None:
            return None
        main_id = profile.main_photo_id if profile else None
        photos = [_tile(p, p.id == main_id, settings) for p in gallery_order(db, member_id)]
        return Gallery(photos, photo_limit(member), member.paid_user)


def add_photo(viewer: Viewer, data: bytes) -> Done[str]:
    """Clean and store an upload with its row; the thumbnail's file name. Raises PhotoRejected
    (not a usable photo) or AccountError (photo limit reached). The classifier scores it before
    the commit."""
    return Done(add_member_photo(viewer.member_id, data).thumb_filename)


def make_main(viewer: Viewer, photo_id: int) -> Done[None]:
    """NotYourPhotos for an id that is not among the member's photos."""
    with transaction() as db:
        set_main(db, viewer.member_id, photo_id)
    return Done(None)


def move(viewer: Viewer, photo_id: int, step: int) -> Done[None]:
    """One place left (step -1) or right (+1) in the gallery, where there is room."""
    with transaction() as db:
        ids = [photo.id for photo in gallery_order(db, viewer.member_id)]
        if photo_id not in ids:
            raise NotYourPhotos(photo_id)
        reorder_photos(db, viewer.member_id, moved(ids, photo_id, step))
    return Done(None)


def remove(viewer: Viewer, photo_id: int) -> Done[None]:
    """Delete the member's photo row (NotYourPhotos for any other id), then its files."""
    remove_member_photo(viewer.member_id, photo_id)
    return Done(None)
