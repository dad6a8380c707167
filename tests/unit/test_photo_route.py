"""GET /media/photos/{filename}: each viewer gets the file, its blurred rendition (never the
original's bytes) or 404, following models/photo_access.py."""

import random
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image
from sqlmodel import Session, select
from starlette.testclient import TestClient

from actions.viewer import SESSION_COOKIE
from app.http_api import http_api
from models.auth_session import start_session
from models.likes import like_member
from models.member import Member, MemberStatus, Photo
from models.photo_access import FREE_VIEWER_PHOTOS
from services.config import get_config
from services.photo_pipeline import StoredPhoto, store_photo
from services.photo_store import PhotoStore
from services.photo_store_local import LocalFolder
from tests.factories import add_photo, block_member, committed, edit_profile, make_member

PUBLIC_CACHE = "private, no-cache"  # revalidated each time: a rejection shows at once
NO_STORE = "no-store"


@pytest.fixture
def photo_dir(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The photo folder of a DATA_DIR in tmp_path."""
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    get_config.cache_clear()
    yield get_config().media_dir / "photos"
    get_config.cache_clear()


def noise_image(seed: int) -> bytes:
    """A PNG of random pixels: every photo, thumbnail and blur differs from every other."""
    size = (320, 240)
    pixels = random.Random(seed).randbytes(size[0] * size[1] * 3)
    buffer = BytesIO()
    Image.frombytes("RGB", size, pixels).save(buffer, "PNG")
    return buffer.getvalue()


def stored_gallery(db: Session, owner: Member, photo_dir: Path, count: int) -> list[StoredPhoto]:
    """`count` real photos of the owner in gallery order, the first one main."""
    return gallery_in(db, owner, LocalFolder(photo_dir), count)


def gallery_in(db: Session, owner: Member, store: PhotoStore, count: int) -> list[StoredPhoto]:
    """`stored_gallery` in any photo store."""
    stored = [store_photo(noise_image(owner.id * 100 + i), store) for i in range(count)]
    for i, photo in enumerate(stored):
        add_photo(db, owner, photo.filename.removesuffix(".jpg"), main=i == 0)
    return stored


def client_for(db: Session, viewer: Member | None) -> TestClient:
    client = TestClient(http_api(), base_url="https://testserver")
    if viewer is not None:
        client.cookies.set(SESSION_COOKIE, committed(db, start_session, viewer.id))
    return client


def file_bytes(photo_dir: Path, name: str) -> bytes:
    return (photo_dir / name).read_bytes()


def assert_original(client: TestClient, photo_dir: Path, name: str) -> None:
    response = client.get(f"/media/photos/{name}")
    assert response.status_code == 200, name
    assert response.content == file_bytes(photo_dir, name)
    assert response.headers["cache-control"] == PUBLIC_CACHE


def assert_blurred(client: TestClient, photo_dir: Path, photo: StoredPhoto, name: str) -> None:
    """`name` (the photo or its thumbnail) answered with the blurred rendition only."""
    response = client.get(f"/media/photos/{name}")
    assert response.status_code == 200, name
    assert response.content == file_bytes(photo_dir, photo.blur_filename)
    assert response.content not in (
        file_bytes(photo_dir, photo.filename),
        file_bytes(photo_dir, photo.thumb_filename),
    )
    assert response.headers["cache-control"] == NO_STORE


def all_names(photos: list[StoredPhoto]) -> list[str]:
    return [name for p in photos for name in (p.filename, p.thumb_filename, p.blur_filename)]


def assert_all_missing(client: TestClient, photos: list[StoredPhoto]) -> None:
    for name in all_names(photos):
        assert client.get(f"/media/photos/{name}").status_code == 404, name


def viewer_of_kind(db: Session, owner: Member, kind: str) -> Member | None:
    if kind == "visitor":
        return None
    if kind == "owner":
        return owner
    return make_member(db, f"{kind}@example.com", paid_user=kind == "premium")


FULL_RANKS = {"visitor": 1, "free": FREE_VIEWER_PHOTOS, "premium": 5, "owner": 5}


@pytest.mark.parametrize("kind", list(FULL_RANKS))
def test_each_viewer_gets_originals_or_blurs(db: Session, photo_dir: Path, kind: str) -> None:
    owner = make_member(db, "bea@example.com", paid_user=True)
    photos = stored_gallery(db, owner, photo_dir, 5)
    client = client_for(db, viewer_of_kind(db, owner, kind))
    for rank, photo in enumerate(photos):
        for name in (photo.filename, photo.thumb_filename):
            if rank < FULL_RANKS[kind]:
                assert_original(client, photo_dir, name)
            else:
                assert_blurred(client, photo_dir, photo, name)


@pytest.mark.parametrize("kind", list(FULL_RANKS))
def test_the_blurred_address_works_for_whoever_sees_the_profile(db, photo_dir, kind) -> None:
    owner = make_member(db, "bea@example.com")
    photos = stored_gallery(db, owner, photo_dir, 4)
    client = client_for(db, viewer_of_kind(db, owner, kind))
    for photo in photos:
        response = client.get(f"/media/photos/{photo.blur_filename}")
        assert response.status_code == 200
        assert response.content == file_bytes(photo_dir, photo.blur_filename)


def test_a_missing_blur_is_made_from_the_thumbnail(db: Session, photo_dir: Path) -> None:
    owner = make_member(db, "bea@example.com")
    main, second = stored_gallery(db, owner, photo_dir, 2)
    (photo_dir / second.blur_filename).unlink()
    client = client_for(db, None)
    response = client.get(f"/media/photos/{second.filename}")
    assert response.status_code == 200 and response.headers["cache-control"] == NO_STORE
    assert response.content == file_bytes(photo_dir, second.blur_filename)
    assert response.content not in (
        file_bytes(photo_dir, second.filename),
        file_bytes(photo_dir, second.thumb_filename),
    )
    assert Image.open(BytesIO(response.content)).format == "JPEG"
    assert_original(client, photo_dir, main.filename)


def test_a_blocked_viewer_gets_nothing(db: Session, photo_dir: Path) -> None:
    owner = make_member(db, "bea@example.com")
    photos = stored_gallery(db, owner, photo_dir, 4)
    carl = make_member(db, "carl@example.com")
    client = client_for(db, carl)
    assert_original(client, photo_dir, photos[0].filename)
    block_member(db, owner.id, carl.id)
    assert_all_missing(client, photos)


def test_the_blocker_still_sees_the_blocked_members_photos(db, photo_dir) -> None:
    owner = make_member(db, "bea@example.com")
    photos = stored_gallery(db, owner, photo_dir, 2)
    carl = make_member(db, "carl@example.com")
    block_member(db, carl.id, owner.id)
    client = client_for(db, carl)
    assert_original(client, photo_dir, photos[0].filename)
    assert_original(client, photo_dir, photos[1].filename)


@pytest.mark.parametrize("gone", [MemberStatus.DELETED, MemberStatus.DELETED_PENDING, "disabled"])
@pytest.mark.parametrize("kind", ["visitor", "premium"])
def test_photos_of_a_member_who_left_are_gone(db, photo_dir, gone: str, kind: str) -> None:
    owner = make_member(db, "bea@example.com")
    photos = stored_gallery(db, owner, photo_dir, 2)
    if gone == "disabled":
        edit_profile(db, owner, status="disabled")
    else:
        owner.status = gone
        db.add(owner)
        db.commit()
    assert_all_missing(client_for(db, viewer_of_kind(db, owner, kind)), photos)


@pytest.mark.parametrize(
    "path",
    ["unknown.jpg", "unknown_b.jpg", "unknown_t.jpg", "orphan.jpg", "orphan_b.jpg", "x.gif",
     "..%2Fx.jpg", "..%2F..%2Fx.jpg", "%2E%2E%2Fx.jpg", "x.jpg%00.jpg", ".jpg", "X.JPG"],
)  # fmt: skip
def test_unknown_and_unsafe_names_are_not_found(db, photo_dir: Path, path: str) -> None:
    owner = make_member(db, "bea@example.com")
    stored_gallery(db, owner, photo_dir, 1)
    for name in ("orphan.jpg", "orphan_t.jpg", "x.gif", "x.jpg"):  # files without a photo row
        (photo_dir / name).write_bytes(b"secret")
    (photo_dir.parent / "x.jpg").write_bytes(b"secret")
    (photo_dir.parent.parent / "x.jpg").write_bytes(b"secret")
    response = client_for(db, owner).get(f"/media/photos/{path}")
    assert response.status_code == 404 and b"secret" not in response.content


@pytest.mark.parametrize("stem_length", [99, 100])
def test_long_names_without_a_blurred_name_are_not_found(db, photo_dir, stem_length) -> None:
    """A valid name whose `_b` name would pass the length limit: 404, not a server error."""
    client = TestClient(http_api(), raise_server_exceptions=False)
    assert client.get(f"/media/photos/{'a' * stem_length}.jpg").status_code == 404


def test_privacy_mode_shows_further_photos_to_liked_members(db, photo_dir) -> None:
    owner = make_member(db, "bea@example.com", privacy_mode=True)
    main, second = stored_gallery(db, owner, photo_dir, 2)
    liked, other = make_member(db, "carl@example.com"), make_member(db, "dirk@example.com")
    committed(db, like_member, owner.id, liked.id)
    other_client = client_for(db, other)
    assert_original(other_client, photo_dir, main.filename)
    assert_blurred(other_client, photo_dir, second, second.filename)
    assert_original(client_for(db, liked), photo_dir, second.filename)
    assert_all_missing(client_for(db, None), [main, second])  # members only


def test_a_photo_is_revalidated_cheaply_and_gone_once_rejected(db: Session, photo_dir) -> None:
    owner = make_member(db, "bea@example.com")
    _main, second = stored_gallery(db, owner, photo_dir, 2)
    client = client_for(db, make_member(db, "free@example.com"))
    first = client.get(f"/media/photos/{second.filename}")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "private, no-cache" and first.headers["last-modified"]

    again = client.get(f"/media/photos/{second.filename}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag

    photo = db.exec(select(Photo).where(Photo.filename == second.filename)).one()
    photo.status = "rejected"
    db.add(photo)
    db.commit()
    gone = client.get(f"/media/photos/{second.filename}", headers={"If-None-Match": etag})
    assert gone.status_code == 404
