"""The HTTP routes mounted beside Reflex: log-out, beacon, push subscription, worker, photos."""

import pytest
from sqlmodel import Session, select

from actions.viewer import SESSION_COOKIE
from models.auth_session import member_id_for_token, start_session
from models.push_subscription import PushSubscription
from services.config import get_config
from tests.factories import SUBSCRIPTION, add_photo, committed, make_member

JSON = {"content-type": "application/json"}


def _our_origin() -> dict[str, str]:
    return {"origin": get_config().public_origin}


@pytest.mark.parametrize(
    "headers", [_our_origin(), {"sec-fetch-site": "same-origin"}], ids=["origin", "fetch-site"]
)
def test_logout_ends_the_server_session_and_clears_the_cookie(client, db, headers) -> None:
    token = committed(db, start_session, make_member(db).id)
    client.cookies.set(SESSION_COOKIE, token)
    response = client.post("/api/logout.php", headers=headers, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    assert f'{SESSION_COOKIE}=""' in response.headers["set-cookie"]
    assert member_id_for_token(db, token) is None


@pytest.mark.parametrize(
    "send",
    [
        lambda c: c.get("/api/logout.php", follow_redirects=False),
        lambda c: c.get("/api/logout.php?next=/pages/about", follow_redirects=False),
        lambda c: c.post("/api/logout.php", follow_redirects=False),
        lambda c: c.post("/api/logout.php", headers={"origin": "https://evil.example"}),
        lambda c: c.post("/api/logout.php", headers={"origin": "null"}),
        lambda c: c.post("/api/logout.php", headers={"sec-fetch-site": "cross-site"}),
        lambda c: c.post(
            "/api/logout.php", headers={"origin": "http://evil.example", "host": "evil.example"}
        ),
    ],
    ids=["get", "get-next", "post-without-origin", "foreign", "null", "cross-site", "host"],
)
def test_another_site_cannot_log_a_member_out(client, db: Session, send) -> None:
    token = committed(db, start_session, make_member(db).id)
    client.cookies.set(SESSION_COOKIE, token)
    response = send(client)
    assert SESSION_COOKIE not in response.headers.get("set-cookie", "")
    assert member_id_for_token(db, token) is not None


def test_a_get_drops_a_cookie_whose_session_already_ended(client, db: Session) -> None:
    """After an account is deleted, its page sends the browser on with a plain GET."""
    client.cookies.set(SESSION_COOKIE, "ended-session")
    response = client.get("/api/logout.php?next=/account-deleted", follow_redirects=False)
    assert response.headers["location"] == "/account-deleted"
    assert f'{SESSION_COOKIE}=""' in response.headers["set-cookie"]


def test_page_hidden_beacon_is_accepted(client) -> None:
    assert client.post("/api/page-hidden.php?lb=1", json={}).status_code == 204


def test_push_subscription_needs_a_session(client) -> None:
    response = client.post("/api/user.php?push=1", json=SUBSCRIPTION)
    assert response.status_code == 403
    assert response.json() == {"error": "authentication_required"}


@pytest.mark.parametrize(
    "body",
    [b"not json", b"[]", b'{"subscription": {"endpoint": "http://insecure", "keys": {}}}',
     b'{"subscription": {"endpoint": "https://x", "keys": {"p256dh": 1, "auth": "a"}}}',
     b'{"subscription": {"endpoint": "https://127.0.0.1/x", "keys": {"p256dh": "k", "auth": "a"}}}',
     b"{" + b" " * 9000 + b"}"],
)  # fmt: skip
def test_bad_subscriptions_are_refused_and_nothing_is_stored(client, db, body: bytes) -> None:
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, make_member(db).id))
    response = client.post("/api/user.php?push=1", content=body, headers=JSON)
    assert response.status_code == 400
    assert db.exec(select(PushSubscription)).all() == []


def test_push_subscription_is_stored_for_the_member(client, db: Session) -> None:
    member = make_member(db)
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, member.id))
    assert client.post("/api/user.php?push=1", json=SUBSCRIPTION).status_code == 204
    assert client.post("/api/user.php?push=1", json=SUBSCRIPTION).status_code == 204
    rows = db.exec(select(PushSubscription)).all()
    assert [(r.member_id, r.endpoint) for r in rows] == [
        (member.id, "https://fcm.googleapis.com/fcm/send/abc")
    ]


def test_service_worker_is_served_uncached(client) -> None:
    response = client.get("/sw-push.js")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    assert "NEW_PUSH_CLICK" in response.text


@pytest.fixture
def photo_files(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    get_config.cache_clear()
    folder = get_config().media_dir / "photos"
    folder.mkdir(parents=True)
    for stem in ("main", "main_t", "extra", "extra_t"):
        (folder / f"{stem}.jpg").write_bytes(b"\xff\xd8 jpeg")
    yield
    get_config.cache_clear()


def test_photos_public_main_only_owner_sees_the_rest(client, db: Session, photo_files) -> None:
    owner = make_member(db)
    add_photo(db, owner, "main", main=True)
    add_photo(db, owner, "extra")
    assert client.get("/media/photos/main_t.jpg").status_code == 200
    assert client.get("/media/photos/extra.jpg").status_code == 404
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, owner.id))
    assert client.get("/media/photos/extra.jpg").status_code == 200


@pytest.mark.parametrize("name", ["..%2F..%2Fapp.db", "unknown.jpg", "main.exe"])
def test_photo_route_refuses_unknown_and_unsafe_names(client, db, photo_files, name) -> None:
    add_photo(db, make_member(db), "main", main=True)
    assert client.get(f"/media/photos/{name}").status_code == 404
