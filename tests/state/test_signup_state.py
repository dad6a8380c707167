"""The signup modal: the account is made on the server from checked input, and every later step
acts only on the account this tab created."""

from io import BytesIO

import pytest
import reflex as rx
from PIL import Image
from sqlmodel import Session, delete, select

import services.site_settings
import state.signup
from actions.effects import settle
from actions.photos import add_photo as store_photo
from models.auth_session import AuthSession, end_all_sessions, start_handoff, start_session
from models.member import Member, Photo, Profile, utcnow
from models.profile_steps import CHOOSE_COUNTRY
from models.signup import NEEDS_TRAFFIC_SOURCE, SignupEvent, SignupSource
from models.site_settings import save_setting
from models.traffic import TrafficClick
from services.config import get_config
from state.i18n import I18nState
from state.signup import PUSH, SignupState
from tests.clicks import click_cookie, recorded_click
from tests.factories import PASSWORD, add_photo, committed, make_member, row_counts
from tests.state.conftest import handle, run, scripts, substate
from translations.catalog import gettext
from translations.errors import DUPLICATE_EMAIL, INVALID_EMAIL, PHOTO_LIMIT_REACHED

TABLES = (Member, Profile, SignupSource, AuthSession, Photo)
FORM = {
    "email": "sunny@example.com",
    "name": "Sunny Anna",
    "password": PASSWORD,
    "date_of_birth": "1990-05-17",
}


CHUNK = 4096  # bytes: a streamed upload reaches its handler in pieces


async def uploaded(*files: bytes | tuple[str, bytes]) -> rx.UploadChunkIterator:
    """What a streamed upload hands its handler: each file's chunks in order, then the end.
    A file is its bytes, or its name and bytes."""
    chunks = rx.UploadChunkIterator(maxsize=10_000)
    for file in files:
        name, data = file if isinstance(file, tuple) else ("photo.jpg", file)
        for offset in range(0, max(len(data), 1), CHUNK):
            piece = data[offset : offset + CHUNK]
            chunk = rx.UploadChunk(filename=name, offset=offset, content_type="", data=piece)
            await chunks.push(chunk)
    await chunks.finish()
    return chunks


def while_storing(monkeypatch: pytest.MonkeyPatch, module, meanwhile) -> None:
    """The first photo `module` stores waits until the tab ran `meanwhile` (another upload)."""
    act, waiting = module.act, [meanwhile]

    async def slow(action, *args):
        if action is store_photo and waiting:
            await waiting.pop()()
        return await act(action, *args)

    monkeypatch.setattr(module, "act", slow)


def jpeg(size: int = 400) -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (size, size), (200, 80, 90)).save(buffer, "JPEG")
    return buffer.getvalue()


def fresh(db: Session) -> Session:
    """The test's session without its snapshot: the handlers wrote in sessions of their own."""
    db.rollback()
    db.expire_all()
    return db


def signed_up(db: Session, signup: SignupState, member_id: int) -> None:
    """The tab's signup made this member's account and session."""
    signup._member_id, signup._session_id = member_id, committed(db, start_handoff, member_id)[1]


async def opened(root, locale: str = "en") -> SignupState:
    substate(root, I18nState).locale = locale
    signup = substate(root, SignupState)
    await run(signup.open_signup())
    return signup


async def test_invalid_input_shows_translated_errors_and_writes_nothing(make_root, db) -> None:
    signup = await opened(make_root(), "nl")
    before = row_counts(db, *TABLES)
    await run(signup.submit_account({**FORM, "email": "not an address"}))
    assert signup.errors == {"email": gettext("nl", INVALID_EMAIL)}
    assert signup.step == 0 and signup._member_id is None
    assert row_counts(fresh(db), *TABLES) == before


async def test_a_taken_address_offers_the_log_in(make_root, db) -> None:
    make_member(db, "sunny@example.com")
    signup = await opened(make_root())
    await run(signup.submit_account(FORM))
    assert signup.existing_account == "active"
    assert signup.errors == {"email": gettext("en", DUPLICATE_EMAIL)}
    assert signup._member_id is None


async def test_a_valid_account_is_created_and_mailed(make_root, db, outbox) -> None:
    signup = await opened(make_root(), "it")
    events = await run(signup.submit_account(FORM))
    await settle()  # the activation mail goes out after the commit
    member = fresh(db).exec(select(Member)).one()
    assert (member.email, member.status, member.language) == (FORM["email"], "not_confirmed", "it")
    assert signup._member_id == member.id and signup.step == 1
    assert signup.password == "" and signup.email == FORM["email"]
    signup.keep_draft("password", PASSWORD)  # a late blur of the field keeps nothing now
    assert signup.password == ""
    assert any("siteSession.handoff(" in script for script in scripts(events))
    (mail,) = outbox()
    assert mail["To"].addresses[0].addr_spec == FORM["email"]
    assert "/api/activate.php?token=" in mail.get_body(("plain",)).get_content()


async def test_the_modal_stays_open_while_signup_is_under_way(make_root, db) -> None:
    signup = await opened(make_root())
    for step in range(1, 6):
        signup.step = step
        await signup.request_open_change(False)
        assert signup.open
    signup.step = 0
    await signup.request_open_change(False)
    assert not signup.open
    kinds = [e.kind for e in fresh(db).exec(select(SignupEvent).order_by(SignupEvent.id))]
    assert kinds == ["started", "closed"]


async def test_a_photo_is_stored_and_becomes_the_main_photo(make_root, db, outbox) -> None:
    member = make_member(db)
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step = 1
    await run(handle(signup, "upload_photo", await uploaded(jpeg())))
    assert signup.errors == {} and signup.photo_url.endswith("_t.jpg")
    photo = fresh(db).exec(select(Photo)).one()
    assert db.get(Profile, member.id).main_photo_id == photo.id


async def test_a_photo_sent_while_one_is_stored_is_dropped(
    make_root, db, outbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    member = make_member(db)
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step, second = 1, await uploaded(b"%PDF-1.4 not a photo" * 100)

    async def drop_another() -> None:
        await run(handle(signup, "upload_photo", second))
        assert signup.busy and signup.errors == {} and [c async for c in second] == []

    while_storing(monkeypatch, state.signup, drop_another)
    await run(handle(signup, "upload_photo", await uploaded(jpeg())))
    assert signup.errors == {} and signup.photo_url.endswith("_t.jpg") and not signup.busy
    assert row_counts(fresh(db), Photo) == {"Photo": 1}


async def test_a_file_that_is_not_an_image_is_refused(make_root, db, outbox) -> None:
    member = make_member(db)
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step = 1
    await run(handle(signup, "upload_photo", await uploaded(b"%PDF-1.4 not a photo" * 100)))
    assert signup.errors["photo"]
    assert row_counts(fresh(db), Photo) == {"Photo": 0}


async def test_a_tab_that_did_not_sign_up_cannot_edit_a_profile(make_root, db, outbox) -> None:
    member = make_member(db)
    before = db.get(Profile, member.id).model_dump()
    signup = substate(make_root(), SignupState)
    signup.step, signup.country = 2, "DE"
    signup.interest_options = signup.interests = ["travel"]
    await run(handle(signup, "upload_photo", await uploaded(jpeg())))
    await run(signup.save_place({"city": "Berlin"}))
    await run(signup.save_looks({"hair_colour": "blond", "body_type": "slim"}))
    await run(signup.save_about_me({"about": "Hello there"}))
    await run(signup.skip())
    assert fresh(db).get(Profile, member.id).model_dump() == before
    assert row_counts(db, Photo) == {"Photo": 0} and signup.step == 2


async def test_a_country_outside_the_settings_is_refused(make_root, db) -> None:
    member = make_member(db)
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step, signup.country = 2, "JP"
    await run(signup.save_place({"city": "Tokyo"}))
    assert signup.errors == {"country": gettext("en", CHOOSE_COUNTRY)}
    assert signup.step == 2
    assert fresh(db).get(Profile, member.id).country == "NL"


async def test_the_click_of_the_cookie_reaches_the_signup_record(make_root, db, outbox) -> None:
    click = recorded_click(db, network="adnet", ref="summer", sub1="x")
    root = make_root(url="/signup?network=forged&ref=forged", cookie=click_cookie(click.id))
    signup = await opened(root)
    await run(signup.submit_account(FORM))
    source = fresh(db).exec(select(SignupSource)).one()
    assert (source.network, source.ref, source.sub1) == ("adnet", "summer", "x")
    assert db.get(TrafficClick, click.id).member_id == source.member_id


@pytest.mark.parametrize(
    ("cookie", "closed"),
    [
        (None, True),
        ("forged", True),  # a value we did not sign
        ("signed", False),
    ],
)
async def test_signups_can_require_a_traffic_source(make_root, db, outbox, cookie, closed) -> None:
    committed(db, save_setting, "signups", "with_trafficsource")
    services.site_settings.forget_cached_settings()
    click = recorded_click(db, network="adnet")
    headers = {}
    if cookie is not None:
        forged = f"{click.id}.{int(utcnow().timestamp())}.{'0' * 64}"
        headers["cookie"] = click_cookie(click.id, forged if cookie == "forged" else None)
    signup = await opened(make_root(url="/?network=adnet", **headers))
    assert signup.signups_closed is closed and signup.needs_traffic_source is closed
    await run(signup.submit_account(FORM))
    members = row_counts(fresh(db), Member)["Member"]
    if closed:
        assert signup.errors == {"": gettext("en", NEEDS_TRAFFIC_SOURCE)} and members == 0
    else:
        assert signup.errors == {} and members == 1


async def test_a_photo_over_the_limit_leaves_no_files_behind(make_root, db, outbox) -> None:
    member = make_member(db)
    for n in range(3):
        add_photo(db, member, f"p{n}")
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step = 1
    await run(handle(signup, "upload_photo", await uploaded(jpeg())))
    assert signup.errors == {"photo": gettext("en", PHOTO_LIMIT_REACHED)}
    assert row_counts(fresh(db), Photo) == {"Photo": 3}
    photo_dir = get_config().media_dir / "photos"
    assert not photo_dir.exists() or list(photo_dir.iterdir()) == []


async def test_after_a_log_out_the_tab_can_no_longer_edit_the_new_account(make_root, db, outbox):
    member = make_member(db)
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step = 1
    db.exec(delete(AuthSession))  # logged out (or the password changed) elsewhere
    db.commit()
    await run(handle(signup, "upload_photo", await uploaded(jpeg())))
    assert fresh(db).exec(select(Photo)).all() == []


async def test_a_revoked_session_can_neither_resume_nor_save(make_root, db, outbox) -> None:
    member = make_member(db)
    kept, revoked = committed(db, start_session, member.id), committed(db, start_session, member.id)
    signup = substate(make_root(cookie=f"auth.session={revoked}"), SignupState)
    await run(signup.resume())
    assert signup.inline and signup.step == 1
    end_all_sessions(db, member.id, kept)  # a password change in another browser
    db.commit()
    before = fresh(db).get(Profile, member.id).model_dump()
    await run(signup.save_about_me({"about": "Not written by the member"}))
    assert signup.step == 1
    stranger = substate(make_root(cookie=f"auth.session={revoked}"), SignupState)
    await run(stranger.resume())
    await run(stranger.save_about_me({"about": "Not written by the member"}))
    assert not stranger.inline and stranger.step == 0
    assert fresh(db).get(Profile, member.id).model_dump() == before


@pytest.mark.parametrize(
    ("answer", "next_step"),
    [("subscribed", True), ("denied", True), ("unsupported", True), ("ios_home_screen", False),
     ("failed", False)],
)  # fmt: skip
async def test_the_push_step_goes_on_unless_the_phone_needs_the_home_screen(
    make_root, db, answer: str, next_step: bool
) -> None:
    member = make_member(db)
    signup = substate(make_root(), SignupState)
    signed_up(db, signup, member.id)
    signup.step = PUSH
    await run(signup.push_answered(answer))
    assert signup.step == (PUSH + 1 if next_step else PUSH)
    assert signup.push_result == answer
