"""The photo store's contract, run against the local folder and a bucket on a real S3 server
(moto, tests/s3_server.py); and the photo pipeline on both."""

from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from botocore.exceptions import ClientError
from PIL import Image

from services.config import get_config
from services.photo_pipeline import (
    delete_photo_files,
    ensure_blurred,
    keep_as_evidence,
    store_photo,
)
from services.photo_store import EVIDENCE, PHOTOS, PhotoStore, store_for
from services.photo_store_local import LocalFolder
from services.photo_store_s3 import BucketFolder, bucket_client
from tests.unit.test_photo_route import noise_image


@pytest.fixture(params=["local", "bucket"])
def folders(request: pytest.FixtureRequest, tmp_path, monkeypatch) -> Iterator[str]:
    """The site configured for the local folder or for a bucket; the store's kind."""
    if request.param == "bucket":
        request.getfixturevalue("bucket_site")
    else:
        monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
        monkeypatch.delenv("OBJECT_STORE_URL", raising=False)
        get_config.cache_clear()
    yield request.param
    get_config.cache_clear()


@pytest.fixture
def store(folders: str) -> PhotoStore:
    return store_for(PHOTOS)


def test_the_configuration_chooses_the_store(folders: str) -> None:
    kind = {"local": LocalFolder, "bucket": BucketFolder}[folders]
    assert isinstance(store_for(PHOTOS), kind) and isinstance(store_for(EVIDENCE), kind)
    assert store_for(PHOTOS) is store_for(PHOTOS)  # one per configuration


def test_put_get_stat_delete(store: PhotoStore) -> None:
    assert store.get("a.jpg") is None and store.stat("a.jpg") is None
    assert not store.exists("a.jpg")
    store.put("a.jpg", b"first")
    assert store.get("a.jpg") == b"first" and store.exists("a.jpg")
    first = store.stat("a.jpg")
    assert first is not None and first.size == 5 and first.etag.startswith('"')
    assert first.modified.tzinfo is not None
    store.put("a.jpg", b"second!")
    again = store.stat("a.jpg")
    assert store.get("a.jpg") == b"second!" and again.size == 7 and again.etag != first.etag
    store.delete("a.jpg")
    store.delete("a.jpg")  # missing: fine
    assert store.get("a.jpg") is None and not store.exists("a.jpg")


def test_names_lists_one_folder_only(store: PhotoStore) -> None:
    assert list(store.names()) == []
    for name in ("a.jpg", "b_t.jpg", "c_b.jpg"):
        store.put(name, b"x")
    store_for(EVIDENCE).put("d.jpg", b"evidence")
    assert sorted(store.names()) == ["a.jpg", "b_t.jpg", "c_b.jpg"]
    assert list(store_for(EVIDENCE).names()) == ["d.jpg"]


def test_check_passes_on_a_working_store(store: PhotoStore) -> None:
    store.check()


def test_a_missing_bucket_fails_the_check(bucket_site: str) -> None:
    with pytest.raises(ClientError):
        BucketFolder(bucket_client(get_config()), "no-such-bucket", PHOTOS).check()


def test_a_local_write_under_way_is_not_listed(tmp_path: Path) -> None:
    folder = LocalFolder(tmp_path)
    folder.put("a.jpg", b"x")
    (tmp_path / ".upload-123.tmp").write_bytes(b"half")
    assert list(folder.names()) == ["a.jpg"]


def test_the_pipeline_stores_blurs_keeps_and_deletes_in_either_store(store: PhotoStore) -> None:
    stored = store_photo(noise_image(1), store)
    names = {stored.filename, stored.thumb_filename, stored.blur_filename}
    assert set(store.names()) == names
    assert Image.open(BytesIO(store.get(stored.filename) or b"")).format == "JPEG"
    store.delete(stored.blur_filename)
    assert ensure_blurred(store, stored.filename) == stored.blur_filename
    assert store.exists(stored.blur_filename)

    evidence = store_for(EVIDENCE)
    original = store.get(stored.filename)
    keep_as_evidence(store, evidence, stored.filename, stored.thumb_filename)
    assert list(store.names()) == []
    assert sorted(evidence.names()) == sorted([stored.filename, stored.thumb_filename])
    assert evidence.get(stored.filename) == original
    delete_photo_files(evidence, stored.filename, stored.thumb_filename)
    assert list(evidence.names()) == []
