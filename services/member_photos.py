"""A member's photos as files plus rows: files are written before their row and removed after
the row's commit, so no row names a missing file and a refused upload leaves no files behind.
Both do blocking work (image processing, disk, database): actions/photos.py runs them off the
event loop; each owns one transaction."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from models.evidence import photos_still_evidence
from models.photo_review import open_reports, record_score, review_new_photo, unscored_photos
from models.photos import delete_photo
from models.profile_steps import add_photo
from services.database import db_session, transaction
from services.photo_classifier import score_upload
from services.photo_pipeline import (
    delete_photo_files,
    is_photo_filename,
    keep_as_evidence,
    original_name,
    store_photo,
)
from services.photo_store import evidence_store, photo_store
from services.site_settings import current_settings

UNSCORED_GRACE = timedelta(minutes=1)  # younger unscored photos may be an upload under way
SWEEP_BATCH = 200  # photos the hourly sweep scores at most
EVIDENCE_BATCH = 500  # evidence photos looked up in one statement


@dataclass(frozen=True)
class AddedPhoto:
    photo_id: int
    filename: str
    thumb_filename: str


def add_member_photo(member_id: int, data: bytes) -> AddedPhoto:
    """Clean and store an upload with its row, approved or pending as photo moderation has it.
    Raises PhotoRejected (not a usable photo) or AccountError (photo limit reached)."""
    store = photo_store()
    stored = store_photo(data, store)
    moderation = current_settings().photo_moderation
    try:
        cleaned = store.get(stored.filename) or b""  # scored as stored: re-encoded, upright
        score = score_upload(cleaned, stored.filename)  # before the row: never public unscored
        with transaction() as db:
            photo = add_photo(db, member_id, stored.filename, stored.thumb_filename)
            review_new_photo(db, photo, stored.phash, moderation, score)
            photo_id = photo.id
    except BaseException:  # refused (photo limit) or failed: keep no files without a row
        delete_photo_files(store, stored.filename, stored.thumb_filename)
        raise
    return AddedPhoto(photo_id, stored.filename, stored.thumb_filename)


def score_unscored_photos(now: datetime) -> int:
    """The sweep (hourly, services/account_purge.py): score photos the classifier skipped (busy
    or failed) that are over a minute old, at most SWEEP_BATCH a run; returns how many."""
    with db_session() as db:
        found = unscored_photos(db, now - UNSCORED_GRACE, SWEEP_BATCH)
    moderation = current_settings().photo_moderation
    for photo_id, filename in found:
        content = photo_store().get(filename)
        score = None if content is None else score_upload(content, filename)
        if score is None:
            continue  # busy, failed or deleted meanwhile: the next round tries again
        with transaction() as db:
            record_score(db, photo_id, filename, score, moderation)
    return len(found)


def delete_spent_evidence(now: datetime) -> int:
    """The hourly purge's part: the evidence photos (with their thumbnails) no report keeps any
    more, deleted; returns how many photos."""
    folder = evidence_store()
    files: dict[str, list[str]] = {}  # a photo's name: its files here
    for name in folder.names():
        if is_photo_filename(name):
            files.setdefault(original_name(name), []).append(name)
    photos = list(files)
    kept: set[str] = set()
    with db_session() as db:
        for start in range(0, len(photos), EVIDENCE_BATCH):
            kept |= photos_still_evidence(db, photos[start : start + EVIDENCE_BATCH], now)
    spent = [photo for photo in photos if photo not in kept]
    for photo in spent:
        delete_photo_files(folder, *files[photo])
    return len(spent)


def remove_member_photo(member_id: int, photo_id: int) -> None:
    """Delete the member's photo row (NotYourPhotos for any other id), then its files; those
    of a photo an open report or notice names are kept in the evidence store instead (files
    of reported photos their members deleted, for the moderators as long as
    models/evidence.py says)."""
    with transaction() as db:
        reported = bool(open_reports(db, photo_id))
        files = delete_photo(db, member_id, photo_id)
    if reported:
        keep_as_evidence(photo_store(), evidence_store(), *files)
    else:
        delete_photo_files(photo_store(), *files)
