"""A member's own photos: order, main photo, deletion."""

from sqlmodel import Session, select

from models.member import Photo, Profile


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
    _own_photo(db, member_id, photo_id)
    profile = db.get(Profile, member_id)
    profile.main_photo_id = photo_id
    db.add(profile)
    db.flush()


def reorder_photos(db: Session, member_id: int, photo_ids: list[int]) -> None:
    """`photo_ids` must be exactly the member's photos; the first becomes the main photo."""
    photos = {p.id: p for p in db.exec(select(Photo).where(Photo.member_id == member_id))}
    if sorted(photo_ids) != sorted(photos):
        raise NotYourPhotos(photo_ids)
    for position, photo_id in enumerate(photo_ids):
        photos[photo_id].position = position
        db.add(photos[photo_id])
    profile = db.get(Profile, member_id)
    profile.main_photo_id = photo_ids[0] if photo_ids else None
    db.add(profile)
    db.flush()


def delete_photo(db: Session, member_id: int, photo_id: int) -> tuple[str, str]:
    """Remove the row (the next photo becomes main); returns the file names to delete."""
    photo = _own_photo(db, member_id, photo_id)
    files = (photo.filename, photo.thumb_filename)
    db.delete(photo)
    db.flush()
    profile = db.get(Profile, member_id)
    if profile.main_photo_id == photo_id:
        rest = gallery_order(db, member_id)
        profile.main_photo_id = rest[0].id if rest else None
        db.add(profile)
    db.flush()
    return files
