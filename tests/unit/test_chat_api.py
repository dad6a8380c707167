"""GET /api/chats.php, DELETE /api/chat.php and GET /api/likes.php: the member's own chats and
likes only, removal by conversation or by profile, and nothing for anybody else."""

import uuid

import pytest
from sqlmodel import Session, update
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.viewer import SESSION_COOKIE
from app.chat_api import chats, delete_chat, likes
from models.auth_session import start_session
from models.chat import ChatSide, Message, Outgoing, send_message
from models.credits import grant_credits
from models.likes import like_member
from models.member import Member, utcnow
from models.site_settings import SiteSettings
from tests.factories import committed, make_member

SETTINGS = SiteSettings()
JSON = {"content-type": "application/json"}


@pytest.fixture
def client(engine) -> TestClient:
    routes = [
        Route("/api/chats.php", chats),
        Route("/api/chat.php", delete_chat, methods=["DELETE"]),
        Route("/api/likes.php", likes),
    ]
    return TestClient(Starlette(routes=routes), base_url="https://testserver")


def log_in(client: TestClient, db: Session, member: Member) -> None:
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, member.id))


def write(db: Session, sender: Member, recipient: Member, text: str = "Hi") -> int:
    grant_credits(db, sender, SETTINGS.message_credits, "test")
    db.commit()
    outgoing = Outgoing(sender.id, recipient.id, uuid.uuid4().hex, text=text)
    return send_message(db, outgoing, SETTINGS).message.conversation_id


def delete(client: TestClient, body: dict) -> int:
    return client.request("DELETE", "/api/chat.php", json=body, headers=JSON).status_code


def test_every_call_needs_a_session(client, db) -> None:
    for method, path in (("GET", "/api/chats.php"), ("GET", "/api/likes.php")):
        assert client.request(method, path).status_code == 403
    assert delete(client, {"conversation": 1}) == 403


def test_the_chat_list_has_profile_unread_count_and_last_message(client, db) -> None:
    anna, bob = make_member(db, "anna@example.com"), make_member(db, "bob@example.com")
    conversation_id = write(db, bob, anna, "Hello Anna")
    log_in(client, db, anna)

    answer = client.get("/api/chats.php").json()

    [chat] = answer["chats"]
    assert chat["conversation"] == conversation_id and chat["num_unread_messages"] == 1
    assert chat["profile"] == {"id": bob.id, "name": "Bob", "main_image": None}
    assert chat["last_message"]["text"] == "Hello Anna" and not chat["last_message"]["from_me"]
    assert answer["total_unread_messages"] == 1


def test_a_flagged_last_message_is_marked_for_its_recipient_only(client, db) -> None:
    anna, bob = make_member(db, "anna@example.com"), make_member(db, "bob@example.com")
    grant_credits(db, bob, SETTINGS.message_credits, "test")
    db.commit()
    outgoing = Outgoing(bob.id, anna.id, uuid.uuid4().hex, text="You stupid bitch", anyway=True)
    send_message(db, outgoing, SETTINGS)

    log_in(client, db, anna)
    [received] = client.get("/api/chats.php").json()["chats"]
    log_in(client, db, bob)
    [sent] = client.get("/api/chats.php").json()["chats"]

    assert received["last_message"]["flagged"] and not sent["last_message"]["flagged"]
    assert sent["last_message"]["text"] == "You stupid bitch"
    db.exec(update(Message).values(removed_at=utcnow()))  # a moderator removed it
    db.commit()
    log_in(client, db, anna)
    [removed] = client.get("/api/chats.php").json()["chats"]
    assert removed["last_message"]["removed"] and not removed["last_message"]["flagged"]


def test_a_chat_is_removed_by_conversation_or_by_profile(client, db) -> None:
    anna, bob, carol = (make_member(db, f"{n}@example.com") for n in ("anna", "bob", "carol"))
    with_bob, with_carol = write(db, anna, bob), write(db, carol, anna)
    log_in(client, db, anna)

    assert delete(client, {"conversation": with_bob}) == 204
    assert delete(client, {"profile": carol.id}) == 204

    db.expire_all()
    assert db.get(ChatSide, (with_bob, anna.id)).removed
    assert db.get(ChatSide, (with_carol, anna.id)).removed
    assert not db.get(ChatSide, (with_bob, bob.id)).removed
    assert client.get("/api/chats.php").json()["chats"] == []


def test_other_members_chats_and_bad_requests_are_refused(client, db) -> None:
    anna, bob, eve = (make_member(db, f"{n}@example.com") for n in ("anna", "bob", "eve"))
    theirs = write(db, anna, bob)
    log_in(client, db, eve)

    assert delete(client, {"conversation": theirs}) == 404
    assert delete(client, {"conversation": "1; drop table"}) == 404
    assert delete(client, {"profile": True}) == 404
    response = client.request("DELETE", "/api/chat.php", content=b"not json", headers=JSON)
    assert response.status_code == 400
    db.expire_all()
    assert not db.get(ChatSide, (theirs, anna.id)).removed


def test_likes_lists_given_and_received_with_the_new_flag(client, db) -> None:
    anna, bob, carol = (make_member(db, f"{n}@example.com") for n in ("anna", "bob", "carol"))
    committed(db, like_member, anna.id, bob.id)
    committed(db, like_member, carol.id, anna.id)
    log_in(client, db, anna)

    answer = client.get("/api/likes.php").json()

    assert [like["id"] for like in answer["likes"]] == [bob.id]
    assert [(like["id"], like["like_new"]) for like in answer["liked_by"]] == [(carol.id, True)]
    assert answer["total_new_likes"] == 1


def test_a_message_a_moderator_removed_is_not_quoted(client, db) -> None:
    anna, bob = make_member(db, "anna@example.com"), make_member(db, "bob@example.com")
    write(db, bob, anna, "Something nasty")
    db.exec(update(Message).values(removed_at=utcnow()))
    db.commit()
    log_in(client, db, anna)

    [chat] = client.get("/api/chats.php").json()["chats"]

    assert chat["last_message"]["text"] == "" and chat["last_message"]["removed"]
