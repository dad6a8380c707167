"""GET /api/auto-like.php: the like to announce as {"profile": ...}, or null; members only."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.viewer import SESSION_COOKIE
from app.auto_like_api import auto_like
from models.auth_session import start_session
from models.likes import Like, like_member
from models.member import Profile, utcnow
from tests.factories import add_photo, committed, make_member


@pytest.fixture
def client(engine) -> TestClient:
    return TestClient(
        Starlette(routes=[Route("/api/auto-like.php", auto_like)]), base_url="https://testserver"
    )


def log_in(client: TestClient, db: Session, email: str = "anna@example.com") -> int:
    member = make_member(db, email, signup_date=utcnow() - timedelta(days=1))  # past the grace
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, member.id))
    return member.id


def test_without_a_session_it_asks_for_authentication(client, db: Session) -> None:
    make_member(db, "demo@example.com", is_demo=True)
    for cookie in (None, "forged"):
        if cookie:
            client.cookies.set(SESSION_COOKIE, cookie)
        response = client.get("/api/auto-like.php")
        assert response.status_code == 403
        assert response.json() == {"error": "authentication_required"}
    assert db.exec(select(Like)).all() == []


def test_an_automatic_like_comes_as_a_profile(client, db: Session) -> None:
    anna_id = log_in(client, db)
    demo = make_member(db, "demo@example.com", is_demo=True)
    db.get(Profile, demo.id).gender = "male"
    db.commit()
    add_photo(db, demo, "demo", main=True)
    response = client.get("/api/auto-like.php")
    assert response.status_code == 200 and response.headers["cache-control"] == "no-store"
    assert response.json() == {
        "profile": {"id": demo.id, "name": "Demo", "main_image": {"match": "photos/demo_t.jpg"}}
    }
    db.expire_all()
    (like,) = db.exec(select(Like)).all()
    assert (like.liker_id, like.liked_id, like.automatic) == (demo.id, anna_id, True)


def test_a_new_like_comes_first_and_once(client, db: Session) -> None:
    anna_id = log_in(client, db)
    bob = make_member(db, "bob@example.com")
    committed(db, like_member, bob.id, anna_id)
    first = client.get("/api/auto-like.php").json()
    assert first == {"profile": {"id": bob.id, "name": "Bob", "main_image": None}}
    assert client.get("/api/auto-like.php").json() == {"profile": None}


def test_without_a_candidate_the_profile_is_null(client, db: Session) -> None:
    log_in(client, db)
    make_member(db, "woman@example.com", is_demo=True)  # not what Anna looks for, no photo
    response = client.get("/api/auto-like.php")
    assert response.status_code == 200 and response.json() == {"profile": None}
    assert db.exec(select(Like)).all() == []
