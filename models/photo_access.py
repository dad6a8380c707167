"""Which rendition of a photo a viewer gets: the photo itself, a blurred one, or nothing.

The main photo is public wherever the profile is. Further photos: premium members see them
all, free members the first FREE_VIEWER_PHOTOS of a gallery, visitors none; a member in
privacy mode shows further photos only to members they liked. Owners always see their own;
nobody else sees a photo that is not approved (pending review or rejected), and those photos
take no place in the gallery's count.
"""

from dataclasses import dataclass
from enum import StrEnum

from sqlmodel import Session, or_, select

from models.likes import likes
from models.member import Member, Photo
from models.photos import gallery_order, shown_photos
from models.visibility import ProfileAccess, profile_access

FREE_VIEWER_PHOTOS = 3


class PhotoView(StrEnum):
    FULL = "full"
    BLURRED = "blurred"
    NONE = "none"


@dataclass(frozen=True)
class Viewer:
    member_id: int | None
    premium: bool = False


@dataclass(frozen=True)
class GalleryPhoto:
    photo: Photo
    view: PhotoView


def viewer_of(db: Session, member_id: int | None) -> Viewer:
    member = db.get(Member, member_id) if member_id is not None else None
    return Viewer(member_id, member.paid_user) if member else Viewer(None)


def _view(
    access: ProfileAccess, viewer: Viewer, rank: int, owner_likes_viewer: bool, privacy: bool
) -> PhotoView:
    if access == ProfileAccess.OWN:
        return PhotoView.FULL
    if access != ProfileAccess.VISIBLE:
        return PhotoView.NONE
    if rank == 0:
        return PhotoView.FULL
    if viewer.member_id is None or (privacy and not owner_likes_viewer):
        return PhotoView.BLURRED
    if viewer.premium or rank < FREE_VIEWER_PHOTOS:
        return PhotoView.FULL
    return PhotoView.BLURRED


def gallery_for(db: Session, viewer: Viewer, owner_id: int) -> list[GalleryPhoto]:
    """The owner's photos in gallery order, each with what this viewer may see of it."""
    access = profile_access(db, viewer.member_id, owner_id)
    if access in (ProfileAccess.NOT_FOUND, ProfileAccess.LOGIN_REQUIRED):
        return []
    owner = db.get(Member, owner_id)
    liked = likes(db, owner_id, viewer.member_id) if viewer.member_id is not None else False
    return gallery_views(gallery_order(db, owner_id), access, viewer, liked, owner.privacy_mode)


def gallery_views(
    photos: list[Photo],
    access: ProfileAccess,
    viewer: Viewer,
    owner_likes_viewer: bool,
    privacy: bool,
) -> list[GalleryPhoto]:
    """The photos (in gallery order) this viewer may come across, with what they may see of
    each."""
    if access in (ProfileAccess.NOT_FOUND, ProfileAccess.LOGIN_REQUIRED):
        return []
    shown = shown_photos(photos, own=access == ProfileAccess.OWN)
    return [
        GalleryPhoto(photo, _view(access, viewer, rank, owner_likes_viewer, privacy))
        for rank, photo in enumerate(shown)
    ]


def photo_view(db: Session, viewer: Viewer, filename: str) -> PhotoView:
    """What the viewer gets when asking for this stored file (photo or thumbnail)."""
    owner_id = db.exec(
        select(Photo.member_id).where(
            or_(Photo.filename == filename, Photo.thumb_filename == filename)
        )
    ).first()
    if owner_id is None:
        return PhotoView.NONE
    for item in gallery_for(db, viewer, owner_id):
        if filename in (item.photo.filename, item.photo.thumb_filename):
            return item.view
    return PhotoView.NONE
