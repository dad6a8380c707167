"""A member's own photos: order, main photo, deletion.

The main photo (`Profile.main_photo_id`) is always an approved photo or none: every tile, card
and list joins it, so a pending or rejected photo is never anybody's main photo."""

from enum import StrEnum

from sqlmodel import Session, select

from models.member import Photo, Profile


class PhotoStatus(StrEnum):
    APPROVED = "approved"  # shown to others
    PENDING = "pending"  # shown to its owner only, awaiting review (docs/photos.md)
    REJECTED = "rejected"  # removed by a moderation decision; shown to nobody


class NotYourPhotos(Exception):
    """An id that is not among the member's photos."""


def gallery_order(db: Session, member_id: int) -> list[Photo]:
    """The member's photos as shown: main photo first, then by position."""
    profile = db.get(Profile, member_id)
    main_id = profile.main_photo_id if profile else None
    photos = db.exec(
        select(Photo).where(Photo.member_id == member_id).order_by(Photo.position, Photo.id)
    ).all()
    return sorted(photos, key=lambda photo: photo.id != main_id)


def shown_photos(photos: list[Photo], own: bool) -> list[Photo]:
    """What of the photos (in gallery order) a viewer may come across: the owner all but the
    rejected ones, anybody else the approved ones."""
    if own:
        return [photo for photo in photos if photo.status != PhotoStatus.REJECTED]
    return [photo for photo in photos if photo.status == PhotoStatus.APPROVED]


def settle_main_photo(db: Session, member_id: int) -> None:
    """Keep the main photo when it is still approved, else make it the first approved photo by
    position (or none): after a photo's status changed or a photo went."""
    profile = db.get(Profile, member_id)
    if profile is None:
        return
    main = db.get(Photo, profile.main_photo_id) if profile.main_photo_id else None
    if main is None or main.status != PhotoStatus.APPROVED:
        approved = db.exec(
            select(Photo.id)
            .where(Photo.member_id == member_id, Photo.status == PhotoStatus.APPROVED)
            .order_by(Photo.position, Photo.id)
        ).first()
        profile.main_photo_id = approved
        db.add(profile)
    db.flush()


def moved(ids: list[int], photo_id: int, step: int) -> list[int]:
    """`ids` with `photo_id` moved one place left (step -1) or right (+1), where there is room."""
    index = ids.index(photo_id)
    target = index + (1 if step > 0 else -1)
    if not 0 <= target < len(ids):
        return ids
    order = list(ids)
    order[index], order[target] = order[target], order[index]
    return order


def _own_photo(db: Session, member_id: int, photo_id: int) -> Photo:
    photo = db.get(Photo, photo_id)
    if photo is None or photo.member_id != member_id:
        raise NotYourPhotos(photo_id)
    return photo


def set_main_photo(db: Session, member_id: int, photo_id: int) -> None:
    """NotYourPhotos also for the member's photo that is not approved: it cannot be main."""
    if _own_photo(db, member_id, photo_id).status != PhotoStatus.APPROVED:
        raise NotYourPhotos(photo_id)
    profile = db.get(Profile, member_id)
    profile.main_photo_id = photo_id
    db.add(profile)
    db.flush()


def reorder_photos(db: Session, member_id: int, photo_ids: list[int]) -> None:
    """`photo_ids` must be exactly the member's photos; the first approved one becomes the
    main photo."""
    photos = {p.id: p for p in db.exec(select(Photo).where(Photo.member_id == member_id))}
    if sorted(photo_ids) != sorted(photos):
        raise NotYourPhotos(photo_ids)
    for position, photo_id in enumerate(photo_ids):
        photos[photo_id].position = position
        db.add(photos[photo_id])
    approved = [i for i in photo_ids if photos[i].status == PhotoStatus.APPROVED]
    profile = db.get(Profile, member_id)
    profile.main_photo_id = approved[0] if approved else None
    db.add(profile)
    db.flush()


def delete_photo(db: Session, member_id: int, photo_id: int) -> tuple[str, str]:
    """Remove the row (the next approved photo becomes main); returns the file names to
    delete."""
    photo = _own_photo(db, member_id, photo_id)
    files = (photo.filename, photo.thumb_filename)
    db.delete(photo)
    db.flush()
    settle_main_photo(db, member_id)
    return files
