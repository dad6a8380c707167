"""Settings → photos: uploads go through the photo pipeline within the photo limit, and every
photo id from the browser is checked against the member behind the session cookie."""

import pytest
from sqlmodel import Session, select

import state.photo_manager
from models.auth_session import end_session, start_session
from models.member import Member, Photo, Profile
from models.photos import moved
from services.config import get_config
from services.photo_pipeline import PHOTO_NOT_AN_IMAGE
from state.i18n import I18nState
from state.photo_manager import PhotoManagerState
from state.session import SessionState
from tests.factories import add_photo, committed, make_member
from tests.state.conftest import handle, redirects, run, substate
from tests.state.test_signup_state import fresh, jpeg, uploaded, while_storing
from translations.catalog import gettext
from translations.errors import PHOTO_LIMIT_REACHED

LOGIN = "/login?next=%2Fsettings%3Ftab%3Dphotos"


async def photos_tab(make_root, token: str | None, locale: str = "en") -> PhotoManagerState:
    """The photos tab of /settings as loaded with this session cookie (or none)."""
    cookie = {"cookie": f"auth.session={token}"} if token else {}
    root = make_root(url="/settings?tab=photos", **cookie)
    await substate(root, SessionState)._load()
    substate(root, I18nState).locale = locale
    return substate(root, PhotoManagerState)


async def loaded_tab(make_root, db: Session, member: Member, locale: str = "en"):
    """The photos tab of a logged-in member, loaded."""
    tab = await photos_tab(make_root, committed(db, start_session, member.id), locale)
    await run(tab.load())
    return tab


def stored_files() -> list[str]:
    directory = get_config().media_dir / "photos"
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


def gallery(db: Session, member: Member) -> tuple[int | None, list[int]]:
    """The main photo id and the photo ids by position."""
    fresh(db)
    photos = db.exec(
        select(Photo).where(Photo.member_id == member.id).order_by(Photo.position, Photo.id)
    ).all()
    return db.get(Profile, member.id).main_photo_id, [p.id for p in photos]


def three_photos(db: Session, member: Member) -> list[Photo]:
    photos = [add_photo(db, member, f"p{n}{member.id}", main=n == 0) for n in range(3)]
    for position, photo in enumerate(photos):
        photo.position = position
        db.add(photo)
    db.commit()
    return photos


async def test_uploads_are_stored_and_the_first_becomes_the_main_photo(
    make_root, db, outbox
) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member)
    assert tab.photos == [] and tab.limit == 3
    await run(handle(tab, "upload", await uploaded(jpeg(), jpeg(600))))
    main_id, ids = gallery(db, member)
    assert len(ids) == 2 and main_id == ids[0]
    assert [tile["is_main"] for tile in tab.photos] == [True, False]
    assert [tile["id"] for tile in tab.photos] == ids
    assert all(str(tile["url"]).endswith("_t.jpg") for tile in tab.photos)
    assert len(stored_files()) == 6  # photo, thumbnail and blurred rendition each
    assert tab.errors == {} and tab.file_errors == [] and not tab.busy


async def test_a_drop_while_an_upload_stores_is_dropped(
    make_root, db, outbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member)
    second = await uploaded(jpeg(), b"not a photo")

    async def drop_more() -> None:
        await run(handle(tab, "upload", second))
        assert tab.busy and tab.file_errors == [] and [c async for c in second] == []

    while_storing(monkeypatch, state.photo_manager, drop_more)
    await run(handle(tab, "upload", await uploaded(jpeg())))
    assert len(gallery(db, member)[1]) == 1 and len(tab.photos) == 1
    assert tab.errors == {} and tab.file_errors == [] and not tab.busy


async def test_at_the_limit_nothing_is_stored(make_root, db, outbox) -> None:
    member = make_member(db)
    three_photos(db, member)
    tab = await loaded_tab(make_root, db, member, "fr")
    assert tab._at_limit()
    await run(handle(tab, "upload", await uploaded(jpeg())))
    assert tab.errors == {"photo": gettext("fr", PHOTO_LIMIT_REACHED)}
    assert len(gallery(db, member)[1]) == 3 and stored_files() == []


async def test_the_upload_stops_at_the_limit(make_root, db, outbox) -> None:
    member = make_member(db)
    add_photo(db, member, "first", main=True)
    add_photo(db, member, "second")
    tab = await loaded_tab(make_root, db, member)
    await run(handle(tab, "upload", await uploaded(jpeg(), jpeg(), jpeg())))
    assert tab.errors == {"photo": gettext("en", PHOTO_LIMIT_REACHED)}
    assert len(gallery(db, member)[1]) == 3 and len(stored_files()) == 3
    assert len(tab.photos) == 3 and tab._at_limit()


async def test_premium_members_may_add_more(make_root, db, outbox) -> None:
    member = make_member(db, paid_user=True)
    three_photos(db, member)
    tab = await loaded_tab(make_root, db, member)
    assert tab.limit == 25 and tab.premium and not tab._at_limit()
    await run(handle(tab, "upload", await uploaded(jpeg())))
    assert tab.errors == {} and len(gallery(db, member)[1]) == 4


async def test_a_file_that_is_not_a_photo_is_refused_by_name_and_stops_the_rest(
    make_root, db, outbox
) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member, "de")
    not_a_photo = ("cv.pdf", b"%PDF-1.4 not a photo" * 100)
    await run(handle(tab, "upload", await uploaded(jpeg(), not_a_photo, jpeg())))
    assert tab.file_errors == [f"cv.pdf: {gettext('de', PHOTO_NOT_AN_IMAGE)}"]
    assert len(gallery(db, member)[1]) == 1 and len(stored_files()) == 3  # the first JPEG only


async def test_an_upload_without_files_changes_nothing(make_root, db) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member, "nl")
    await run(handle(tab, "upload", await uploaded()))  # a drop of text or a link: no file
    assert tab.file_errors == [] and not tab.busy
    assert gallery(db, member) == (None, [])


def test_moving_swaps_with_the_neighbour_where_there_is_one() -> None:
    assert moved([1, 2, 3], 3, -1) == [1, 3, 2]
    assert moved([1, 2, 3], 1, 1) == [2, 1, 3]
    assert moved([1, 2, 3], 1, -1) == [1, 2, 3]
    assert moved([1, 2, 3], 3, 5) == [1, 2, 3]


async def test_moving_left_into_the_first_place_makes_the_main_photo(make_root, db) -> None:
    member = make_member(db)
    a, b, c = (p.id for p in three_photos(db, member))
    tab = await loaded_tab(make_root, db, member)
    await run(tab.move(c, -1))
    assert gallery(db, member) == (a, [a, c, b])
    await run(tab.move(c, -1))
    assert gallery(db, member) == (c, [c, a, b])
    assert [tile["id"] for tile in tab.photos] == [c, a, b] and tab.photos[0]["is_main"]


async def test_make_main_photo(make_root, db) -> None:
    member = make_member(db)
    a, b, c = (p.id for p in three_photos(db, member))
    tab = await loaded_tab(make_root, db, member)
    await run(tab.make_main(b))
    assert gallery(db, member)[0] == b
    assert [tile["id"] for tile in tab.photos] == [b, a, c]
    assert [tile["is_main"] for tile in tab.photos] == [True, False, False]


async def test_deleting_removes_the_row_and_the_files(make_root, db, outbox) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member)
    await run(handle(tab, "upload", await uploaded(jpeg(), jpeg())))
    first, second = gallery(db, member)[1]
    await run(handle(tab, "delete", first))
    assert gallery(db, member) == (second, [second])
    assert [tile["id"] for tile in tab.photos] == [second] and tab.photos[0]["is_main"]
    kept = db.get(Photo, second)
    stem = kept.filename.removesuffix(".jpg")
    assert stored_files() == sorted([f"{stem}.jpg", f"{stem}_t.jpg", f"{stem}_b.jpg"])


@pytest.mark.parametrize("handler", ["make_main", "move_left", "move_right", "delete"])
async def test_another_members_photo_ids_change_nothing(make_root, db, handler) -> None:
    member, other = make_member(db), make_member(db, "bob@example.com")
    three_photos(db, member)
    theirs = three_photos(db, other)
    before = gallery(db, member), gallery(db, other)
    tab = await loaded_tab(make_root, db, member)
    shown = list(tab.photos)
    for photo_id in (theirs[1].id, "junk", -1, 10**9, 10**30, None):
        await run(_call(tab, handler, photo_id))
    assert (gallery(db, member), gallery(db, other)) == before
    assert tab.photos == shown


def _call(tab: PhotoManagerState, handler: str, photo_id: object):
    if handler in {"upload", "delete"}:  # background handlers
        return handle(tab, handler, photo_id)
    if handler.startswith("move_"):
        return tab.move(photo_id, -1 if handler == "move_left" else 1)
    return getattr(tab, handler)(photo_id)


@pytest.mark.parametrize("handler", ["upload", "make_main", "move_left", "delete"])
@pytest.mark.parametrize("cookie", ["missing", "ended"])
async def test_without_a_live_session_nothing_changes(
    make_root, db, outbox, handler, cookie
) -> None:
    member = make_member(db)
    photos = three_photos(db, member)
    db.delete(photos[2])  # room for one more
    db.commit()
    token = committed(db, start_session, member.id)
    tab = await photos_tab(make_root, token if cookie == "ended" else None)
    await run(tab.load())
    if cookie == "ended":  # logged out elsewhere after this page loaded
        assert len(tab.photos) == 2
        committed(db, end_session, token)
    before = gallery(db, member)
    argument = await uploaded(jpeg()) if handler == "upload" else photos[1].id
    events = await run(_call(tab, handler, argument))
    assert redirects(events) == [LOGIN]
    assert gallery(db, member) == before and stored_files() == []
