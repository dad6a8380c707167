"""The signup aimed at a member (`/members/{id}/signup`, docs/acquisition.md, "Member landings"):
step 0 names the member and takes a first message; confirming the address sends it, charged
as any message, and the activation link opens the chat with that member."""

from urllib.parse import parse_qs, urlsplit

from sqlmodel import Session, select
from starlette.testclient import TestClient

from actions.effects import settle
from app.http_api import http_api
from models.chat import Message
from models.member import Member, MemberStatus
from models.signup import SignupSource
from models.site_settings import SiteSettings
from state.signup import SignupState
from tests.factories import PASSWORD, add_photo, edit_profile, make_member
from tests.state.conftest import run, substate

FORM = {
    "email": "sunny@example.com",
    "name": "Sunny Day",
    "password": PASSWORD,
    "date_of_birth": "1990-05-17",
}


def _activation_token(outbox) -> str:
    (mail,) = outbox()
    text = mail.get_body(("plain",)).get_content()
    link = next(word for word in text.split() if "/api/activate.php?token=" in word)
    return parse_qs(urlsplit(link).query)["token"][0]


async def _signed_up(make_root, db: Session, outbox, message: str) -> tuple[Member, str]:
    """A visitor signs up on Anna's signup page, writing `message`; Anna and the token."""
    anna = edit_profile(db, make_member(db, "anna@example.com"), name="Anna")
    add_photo(db, anna, "anna", main=True)
    signup = substate(make_root(url=f"/members/{anna.id}/signup"), SignupState)
    await run(signup.open_for_member())
    assert signup.open and signup.to_member["name"] == "Anna"
    await run(signup.submit_account({**FORM, "signup_message": message}))
    await settle()
    assert signup.step == 1, signup.errors
    return anna, _activation_token(outbox)


def _confirm(token: str) -> str:
    client = TestClient(http_api(), base_url="https://testserver")
    answer = client.get(f"/api/activate.php?token={token}", follow_redirects=False)
    assert answer.status_code == 303
    return answer.headers["location"]


async def test_confirming_sends_the_first_message_and_opens_the_chat(
    make_root, db: Session, outbox
) -> None:
    anna, token = await _signed_up(make_root, db, outbox, "Hi Anna, coffee?")
    db.expire_all()
    sunny = db.exec(select(Member).where(Member.email == FORM["email"])).one()
    assert db.get(SignupSource, sunny.id).to_member_id == anna.id
    assert db.exec(select(Message)).all() == []  # not before the address is confirmed

    assert _confirm(token) == f"/members/{anna.id}/chat"
    await settle()
    db.expire_all()
    (message,) = db.exec(select(Message)).all()
    assert (message.sender_id, message.body) == (sunny.id, "Hi Anna, coffee?")
    sunny = db.get(Member, sunny.id)
    settings = SiteSettings()
    assert sunny.status == MemberStatus.ACTIVE
    assert sunny.credits == settings.signup_credits - settings.message_credits

    assert _confirm(token) == f"/members/{anna.id}/chat"  # a second click: the chat, once
    db.expire_all()
    assert len(db.exec(select(Message)).all()) == 1


async def test_without_a_message_the_chat_opens_empty(make_root, db: Session, outbox) -> None:
    anna, token = await _signed_up(make_root, db, outbox, "")
    assert _confirm(token) == f"/members/{anna.id}/chat"
    db.expire_all()
    assert db.exec(select(Message)).all() == []


async def test_a_member_who_left_meanwhile_gets_no_message(make_root, db, outbox) -> None:
    anna, token = await _signed_up(make_root, db, outbox, "Hello")
    anna = db.get(Member, anna.id)
    anna.status = MemberStatus.BANNED
    db.add(anna)
    db.commit()
    assert _confirm(token) == f"/members/{anna.id}/chat"  # the chat says she is not available
    db.expire_all()
    assert db.exec(select(Message)).all() == []
    sunny = db.exec(select(Member).where(Member.email == FORM["email"])).one()
    assert sunny.status == MemberStatus.ACTIVE  # confirmed all the same


async def test_a_plain_signup_still_lands_on_the_activation_page(make_root, db, outbox) -> None:
    signup = substate(make_root(url="/signup"), SignupState)
    await run(signup.open_signup())
    await run(signup.submit_account(FORM))
    await settle()
    assert _confirm(_activation_token(outbox)) == "/activate/done"
