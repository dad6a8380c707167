"""Which stored photo files a viewer may fetch."""

from sqlmodel import Session, or_, select

from models.member import Member, Photo, Profile


def photo_visible(db: Session, filename: str, viewer_id: int | None) -> bool:
    """Owners see their own photos; everyone sees the main photo of an active, enabled profile.

    Further photos follow the premium rules of the profiles issue.
    """
    photo = db.exec(
        select(Photo).where(or_(Photo.filename == filename, Photo.thumb_filename == filename))
    ).first()
    if photo is None:
        return False
    if viewer_id is not None and photo.member_id == viewer_id:
        return True
    owner = db.get(Member, photo.member_id)
    profile = db.get(Profile, photo.member_id)
    return bool(
        owner
        and profile
        and owner.status == "active"
        and profile.status == "enabled"
        and profile.main_photo_id == photo.id
    )
