"""A member's photos as files plus rows: files are written before their row and removed after
the row's commit, so no row names a missing file and a refused upload leaves no files behind.
Both do blocking work (image processing, disk, database): actions/photos.py runs them off the
event loop; each owns one transaction."""

from pathlib import Path

from models.photos import delete_photo
from models.profile_steps import add_photo
from services.config import get_config
from services.database import transaction
from services.photo_pipeline import delete_photo_files, store_photo


def photo_dir() -> Path:
    return get_config().media_dir / "photos"


def add_member_photo(member_id: int, data: bytes) -> str:
    """Clean and store an upload with its row; returns the thumbnail's file name. Raises
    PhotoRejected (not a usable photo) or AccountError (photo limit reached)."""
    directory = photo_dir()
    stored = store_photo(data, directory)
    try:
        with transaction() as db:
            add_photo(db, member_id, stored.filename, stored.thumb_filename)
    except BaseException:  # refused (photo limit) or failed: keep no files without a row
        delete_photo_files(directory, stored.filename, stored.thumb_filename)
        raise
    return stored.thumb_filename


def remove_member_photo(member_id: int, photo_id: int) -> None:
    """Delete the member's photo row (NotYourPhotos for any other id), then its files."""
    with transaction() as db:
        files = delete_photo(db, member_id, photo_id)
    delete_photo_files(photo_dir(), *files)
