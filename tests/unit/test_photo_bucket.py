"""Photos in a bucket on a real S3 server (moto, tests/s3_server.py): served behind the same
access check, erased with their account, in the data export, and moved from the disk to the
bucket and back by `python -m services.move_photos`, resumably; the demo seed draws into it
and the data export is made from and kept in it."""

import zipfile
from datetime import timedelta
from io import BytesIO

import pytest
from sqlmodel import Session, select

from models.export_datasets import photo_path
from models.member import Photo, utcnow
from services.account_purge import purge_expired_accounts
from services.config import get_config
from services.demo_members import seed_demo_members
from services.export_archive import delete_archives, delete_strays, write_archive
from services.move_photos import Moved, main, move_photos
from services.photo_pipeline import StoredPhoto
from services.photo_store import (
    EVIDENCE,
    EXPORTS,
    PHOTOS,
    evidence_store,
    export_store,
    photo_store,
)
from services.photo_store_local import LocalFolder
from tests.factories import block_member, make_member
from tests.unit.test_deletion import _age_deletion, _delete, _full_account
from tests.unit.test_photo_route import client_for, gallery_in


@pytest.fixture
def photos(bucket_site: str, engine) -> LocalFolder:
    """The bucket is the site's store; returns the unused local photo folder, to check."""
    return LocalFolder(get_config().media_dir / PHOTOS)


def bucket_bytes(name: str) -> bytes:
    content = photo_store().get(name)
    assert content is not None, name
    return content


def test_the_route_serves_bucket_photos_behind_the_access_check(db: Session, photos) -> None:
    owner = make_member(db, "bea@example.com")
    main_photo, second = stored_gallery_in_bucket(db, owner)
    carl = make_member(db, "carl@example.com")
    client = client_for(db, carl)

    shown = client.get(f"/media/photos/{main_photo.filename}")
    assert shown.status_code == 200 and shown.content == bucket_bytes(main_photo.filename)
    assert shown.headers["content-type"] == "image/jpeg"
    etag = shown.headers["etag"]
    again = client.get(f"/media/photos/{main_photo.filename}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["etag"] == etag

    visitor = client_for(db, None).get(f"/media/photos/{second.filename}")
    assert visitor.status_code == 200 and visitor.headers["cache-control"] == "no-store"
    assert visitor.content == bucket_bytes(second.blur_filename)  # never the original
    assert visitor.content != bucket_bytes(second.filename)

    block_member(db, owner.id, carl.id)
    for name in (main_photo.filename, second.filename, second.blur_filename):
        assert client.get(f"/media/photos/{name}").status_code == 404, name
    assert list(photos.names()) == []  # nothing went to the disk


def stored_gallery_in_bucket(db: Session, owner) -> list[StoredPhoto]:
    return gallery_in(db, owner, photo_store(), 2)


def test_a_missing_blur_is_made_in_the_bucket(db: Session, photos) -> None:
    owner = make_member(db, "bea@example.com")
    _, second = stored_gallery_in_bucket(db, owner)
    photo_store().delete(second.blur_filename)
    response = client_for(db, None).get(f"/media/photos/{second.thumb_filename}")
    assert response.status_code == 200 and response.content == bucket_bytes(second.blur_filename)


def test_erasure_deletes_the_photos_from_the_bucket(db: Session, photos) -> None:
    gone = _full_account(db, "anna@example.com", "annaphoto")
    _full_account(db, "bert@example.com", "bertphoto")
    for stem in ("annaphoto1", "annaphoto2", "bertphoto1", "bertphoto2"):
        for name in (f"{stem}.jpg", f"{stem}_t.jpg", f"{stem}_b.jpg"):
            photo_store().put(name, b"jpeg")
    _delete(db, gone)
    _age_deletion(db, gone, 15)
    assert purge_expired_accounts() == 1
    assert sorted(photo_store().names()) == [
        "bertphoto1.jpg", "bertphoto1_b.jpg", "bertphoto1_t.jpg",
        "bertphoto2.jpg", "bertphoto2_b.jpg", "bertphoto2_t.jpg",
    ]  # fmt: skip


def test_the_export_archive_is_made_from_and_kept_in_the_bucket(photos) -> None:
    photo_store().put("annaphoto1.jpg", b"the original")
    write_archive("x.zip", {}, ["annaphoto1.jpg", "missing.jpg"], "readme")
    with zipfile.ZipFile(BytesIO(export_store().get("x.zip") or b"")) as archive:
        assert archive.read(photo_path("annaphoto1.jpg")) == b"the original"
        assert photo_path("missing.jpg") not in archive.namelist()
    assert not (get_config().media_dir / EXPORTS).exists()
    assert delete_strays({"x.zip"}, utcnow() + timedelta(hours=2)) == 0  # a row names it
    write_archive("y.zip", {}, [], "readme")
    assert delete_strays({"x.zip"}, utcnow()) == 0  # not an hour old yet
    assert delete_strays({"x.zip"}, utcnow() + timedelta(hours=2)) == 1
    delete_archives(["x.zip"])
    assert list(export_store().names()) == []


def disk(folder: str) -> LocalFolder:
    return LocalFolder(get_config().media_dir / folder)


def test_moving_to_the_bucket_and_back_is_resumable(photos) -> None:
    files = {f"p{i}.jpg": f"photo {i}".encode() for i in range(5)}
    for name, content in files.items():
        disk(PHOTOS).put(name, content)
    disk(EVIDENCE).put("e1.jpg", b"evidence")
    disk(EXPORTS).put("a1.zip", b"archive")
    (get_config().media_dir / EXPORTS / ".b2.zip.part").write_bytes(b"half an old build")

    moved = move_photos("to-bucket", get_config())
    assert moved == {PHOTOS: Moved(5, 0), EVIDENCE: Moved(1, 0), EXPORTS: Moved(1, 0)}
    assert {name: bucket_bytes(name) for name in photo_store().names()} == files
    assert evidence_store().get("e1.jpg") == b"evidence"
    assert list(export_store().names()) == ["a1.zip"]
    assert move_photos("to-bucket", get_config())[PHOTOS] == Moved(0, 5)  # safe to rerun
    photo_store().delete("p3.jpg")  # as if a run had stopped before it
    assert move_photos("to-bucket", get_config())[PHOTOS] == Moved(1, 4)
    assert bucket_bytes("p3.jpg") == files["p3.jpg"]

    for name in files:
        disk(PHOTOS).delete(name)
    disk(PHOTOS).put("p0.jpg", files["p0.jpg"])  # a resumed run: one already back
    main(["to-disk"])
    assert {name: disk(PHOTOS).get(name) for name in files} == files
    assert move_photos("to-disk", get_config()) == {
        PHOTOS: Moved(0, 5), EVIDENCE: Moved(0, 1), EXPORTS: Moved(0, 1)
    }  # fmt: skip


def test_moving_needs_a_bucket(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("OBJECT_STORE_URL", raising=False)
    get_config.cache_clear()
    with pytest.raises(SystemExit, match="OBJECT_STORE_URL"):
        main(["to-bucket"])
    get_config.cache_clear()


def test_the_demo_seed_draws_its_photos_into_the_bucket(db: Session, photos) -> None:
    assert seed_demo_members(db, 2, photo_store(), avatar_size=64) == 2
    names = {n for p in db.exec(select(Photo)) for n in (p.filename, p.thumb_filename)}
    assert names and set(photo_store().names()) == names
    assert list(photos.names()) == []
