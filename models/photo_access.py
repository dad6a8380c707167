"""Which stored photo files a viewer may fetch."""

from sqlmodel import Session, or_, select

from models.member import Member, Photo, Profile


def photo_visible(db: Session, filename: str, viewer_id: int | None) -> bool:
    """Owners see their own photos; everyone sees the main photo of an active, enabled profile.

    Further photos follow the premium rules of the profiles issue.
    """
    row = db.exec(
        select(Photo.id, Photo.member_id, Member.status, Profile.status, Profile.main_photo_id)
        .join(Member, Member.id == Photo.member_id)
        .outerjoin(Profile, Profile.member_id == Photo.member_id)
        .where(or_(Photo.filename == filename, Photo.thumb_filename == filename))
    ).first()
    if row is None:
        return False
    photo_id, owner_id, member_status, profile_status, main_photo_id = row
    if viewer_id is not None and owner_id == viewer_id:
        return True
    return member_status == "active" and profile_status == "enabled" and main_photo_id == photo_id
