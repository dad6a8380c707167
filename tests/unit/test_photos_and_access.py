"""A member's own photos (order, main photo, deletion) and what other viewers get of them."""

import pytest
from sqlmodel import Session

from models.likes import like_member
from models.member import Member, MemberStatus, Photo, Profile
from models.photo_access import (
    FREE_VIEWER_PHOTOS,
    PhotoView,
    Viewer,
    gallery_for,
    photo_view,
    viewer_of,
)
from models.photos import (
    NotYourPhotos,
    delete_photo,
    gallery_order,
    reorder_photos,
    set_main_photo,
)
from tests.factories import add_photo, block_member, make_member

FULL, BLURRED, NONE = PhotoView.FULL, PhotoView.BLURRED, PhotoView.NONE


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


def _photos(db: Session, member: Member, n: int, stem: str = "p") -> list[Photo]:
    """`n` photos at positions 0..n-1, the first one main."""
    photos = [add_photo(db, member, f"{stem}{i}", main=i == 0) for i in range(n)]
    for position, photo in enumerate(photos):
        photo.position = position
        db.add(photo)
    db.commit()
    return photos


def _ids(photos: list[Photo]) -> list[int]:
    return [photo.id for photo in photos]


def _main_id(db: Session, member: Member) -> int | None:
    db.expire_all()
    return db.get(Profile, member.id).main_photo_id


# --- own photos ---------------------------------------------------------------------------


def test_gallery_shows_the_main_photo_first_then_by_position(db: Session, anna: Member) -> None:
    a, b, c = _photos(db, anna, 3)
    a.position, c.position = 5, 1
    db.add_all([a, c])
    db.commit()
    set_main_photo(db, anna.id, b.id)
    assert _ids(gallery_order(db, anna.id)) == [b.id, c.id, a.id]
    assert gallery_order(db, make_member(db, "bert@example.com").id) == []


def test_photos_of_other_members_cannot_be_made_main(db: Session, anna: Member) -> None:
    (own,) = _photos(db, anna, 1)
    (other,) = _photos(db, make_member(db, "bert@example.com"), 1, "b")
    for photo_id in (other.id, 9999):
        with pytest.raises(NotYourPhotos):
            set_main_photo(db, anna.id, photo_id)
    assert _main_id(db, anna) == own.id


def test_reordering_sets_positions_and_the_main_photo(db: Session, anna: Member) -> None:
    a, b, c = _photos(db, anna, 3)
    reorder_photos(db, anna.id, [c.id, a.id, b.id])
    assert _main_id(db, anna) == c.id
    assert _ids(gallery_order(db, anna.id)) == [c.id, a.id, b.id]
    assert [db.get(Photo, p.id).position for p in (c, a, b)] == [0, 1, 2]


@pytest.mark.parametrize(
    "order",
    [
        lambda own, other: [own[1], own[0]],  # one missing
        lambda own, other: [own[0], own[1], own[2], own[2]],  # duplicate
        lambda own, other: [own[0], own[1], own[2], other],  # someone else's
        lambda own, other: [own[0], own[1], other],  # swapped for someone else's
        lambda own, other: [own[0], own[1], 9999],  # unknown
        lambda own, other: [],
    ],
)
def test_reordering_needs_exactly_the_members_photos(db: Session, anna: Member, order) -> None:
    own = _ids(_photos(db, anna, 3))
    (other,) = _photos(db, make_member(db, "bert@example.com"), 1, "b")
    with pytest.raises(NotYourPhotos):
        reorder_photos(db, anna.id, order(own, other.id))
    assert _main_id(db, anna) == own[0]
    assert _ids(gallery_order(db, anna.id)) == own


def test_deleting_the_main_photo_promotes_the_next(db: Session, anna: Member) -> None:
    a, b, c = _photos(db, anna, 3)
    reorder_photos(db, anna.id, [b.id, c.id, a.id])
    assert delete_photo(db, anna.id, b.id) == ("p1.jpg", "p1_t.jpg")
    assert db.get(Photo, b.id) is None
    assert _main_id(db, anna) == c.id
    delete_photo(db, anna.id, a.id)
    assert _main_id(db, anna) == c.id
    delete_photo(db, anna.id, c.id)
    assert _main_id(db, anna) is None
    assert gallery_order(db, anna.id) == []


def test_photos_of_other_members_cannot_be_deleted(db: Session, anna: Member) -> None:
    _photos(db, anna, 1)
    (other,) = _photos(db, make_member(db, "bert@example.com"), 1, "b")
    for photo_id in (other.id, 9999):
        with pytest.raises(NotYourPhotos):
            delete_photo(db, anna.id, photo_id)
    assert db.get(Photo, other.id) is not None


# --- what viewers get ---------------------------------------------------------------------


@pytest.fixture
def viewers(db: Session, anna: Member) -> dict[str, Member]:
    return {
        "free": make_member(db, "free@example.com"),
        "premium": make_member(db, "premium@example.com", paid_user=True),
    }


def _views(db: Session, viewer_id: int | None, owner: Member) -> list[PhotoView]:
    return [item.view for item in gallery_for(db, viewer_of(db, viewer_id), owner.id)]


def _file_views(db: Session, viewer_id: int | None, photos: list[Photo]) -> list[PhotoView]:
    """The view of each photo file, asked for by its name (as the photo route does)."""
    viewer = viewer_of(db, viewer_id)
    return [photo_view(db, viewer, photo.filename) for photo in photos]


def test_what_each_kind_of_viewer_gets(db: Session, anna: Member, viewers) -> None:
    photos = _photos(db, anna, 5)
    free, premium = FREE_VIEWER_PHOTOS, 5
    expected = {
        anna.id: [FULL] * 5,
        None: [FULL] + [BLURRED] * 4,
        viewers["free"].id: [FULL] * free + [BLURRED] * (5 - free),
        viewers["premium"].id: [FULL] * premium,
    }
    for viewer_id, views in expected.items():
        assert _views(db, viewer_id, anna) == views, viewer_id
        assert _file_views(db, viewer_id, photos) == views, viewer_id


def test_ranks_follow_the_gallery_order_with_the_main_photo_first(
    db: Session, anna: Member, viewers
) -> None:
    photos = _photos(db, anna, 5)
    set_main_photo(db, anna.id, photos[4].id)
    views = _file_views(db, viewers["free"].id, photos)
    assert views == [FULL, FULL, BLURRED, BLURRED, FULL]
    assert _file_views(db, None, photos) == [BLURRED] * 4 + [FULL]


def test_privacy_mode_blurs_further_photos_for_members_not_liked(
    db: Session, anna: Member, viewers
) -> None:
    photos = _photos(db, anna, 5)
    anna.privacy_mode = True
    db.add(anna)
    db.commit()
    free, premium = viewers["free"].id, viewers["premium"].id
    like_member(db, free, anna.id)  # the viewer's own like does not count
    for viewer_id in (free, premium):
        assert _file_views(db, viewer_id, photos) == [FULL] + [BLURRED] * 4
    assert _file_views(db, None, photos) == [NONE] * 5
    assert _file_views(db, anna.id, photos) == [FULL] * 5

    like_member(db, anna.id, free)
    like_member(db, anna.id, premium)
    assert _file_views(db, free, photos) == [FULL] * FREE_VIEWER_PHOTOS + [BLURRED] * 2
    assert _file_views(db, premium, photos) == [FULL] * 5


def test_blocked_viewer_gets_nothing_not_even_the_main_photo(
    db: Session, anna: Member, viewers
) -> None:
    photos = _photos(db, anna, 2)
    premium = viewers["premium"]
    block_member(db, anna.id, premium.id)
    assert gallery_for(db, viewer_of(db, premium.id), anna.id) == []
    assert _file_views(db, premium.id, photos) == [NONE, NONE]
    assert photo_view(db, viewer_of(db, premium.id), photos[0].thumb_filename) == NONE
    assert _file_views(db, viewers["free"].id, photos) == [FULL, FULL]


def test_a_viewer_who_blocked_the_owner_still_sees_the_photos(
    db: Session, anna: Member, viewers
) -> None:
    photos = _photos(db, anna, 2)
    block_member(db, viewers["free"].id, anna.id)
    assert _file_views(db, viewers["free"].id, photos) == [FULL, FULL]


@pytest.mark.parametrize(
    "status", [MemberStatus.DELETED_PENDING, MemberStatus.NOT_CONFIRMED, MemberStatus.DELETED]
)
def test_photos_of_hidden_members_are_shown_to_nobody_else(
    db: Session, anna: Member, viewers, status: str
) -> None:
    photos = _photos(db, anna, 2)
    anna.status = status
    db.add(anna)
    db.commit()
    for viewer_id in (None, viewers["free"].id, viewers["premium"].id):
        assert _file_views(db, viewer_id, photos) == [NONE, NONE]
    assert _file_views(db, anna.id, photos) == [FULL, FULL]


def test_photo_view_by_thumbnail_and_unknown_names(db: Session, anna: Member, viewers) -> None:
    photos = _photos(db, anna, 5)
    viewer = viewer_of(db, viewers["free"].id)
    thumbs = [photo_view(db, viewer, photo.thumb_filename) for photo in photos]
    assert thumbs == [FULL] * FREE_VIEWER_PHOTOS + [BLURRED] * 2
    for name in ("nothing.jpg", "", "p1", "../p1.jpg"):
        assert photo_view(db, viewer, name) == NONE


def test_viewer_of_knows_premium_members_only(db: Session, viewers) -> None:
    assert viewer_of(db, viewers["premium"].id) == Viewer(viewers["premium"].id, True)
    assert viewer_of(db, viewers["free"].id) == Viewer(viewers["free"].id, False)
    assert viewer_of(db, None) == Viewer(None) == viewer_of(db, 9999)


def test_gallery_items_carry_their_photos(db: Session, anna: Member) -> None:
    photos = _photos(db, anna, 2)
    items = gallery_for(db, viewer_of(db, None), anna.id)
    assert [item.photo.filename for item in items] == [p.filename for p in photos]
