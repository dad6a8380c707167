"""The mail routes: the one-click unsubscribe (RFC 8058) switches a member's notification mails
off with the reason "unsubscribe", a GET only shows the page that asks; the mail provider's
webhook switches them off for a hard bounce ("bounce") or a spam complaint ("spam"), only with
the shared secret."""

import dataclasses

import pytest
from sqlmodel import Session
from starlette.testclient import TestClient

import app.mail_api as mail_api
from models.member import Member
from models.notification_prefs import unsubscribe_key
from services.config import get_config
from tests.factories import committed, make_member

ONE_CLICK = {"content": b"List-Unsubscribe=One-Click"}
SECRET = "webhook-secret-for-tests"
BEARER = {"Authorization": f"Bearer {SECRET}"}


def reasons(db: Session, member: Member) -> list[str]:
    db.expire_all()
    return db.get(Member, member.id).notifications_disabled


def test_the_one_click_post_unsubscribes(client: TestClient, db: Session) -> None:
    bo = make_member(db)
    key = committed(db, unsubscribe_key, bo)
    answer = client.post(f"/api/unsubscribe.php?key={key}", **ONE_CLICK)
    assert answer.status_code == 200
    assert reasons(db, bo) == ["unsubscribe"]
    assert client.post(f"/api/unsubscribe.php?key={key}", **ONE_CLICK).status_code == 200
    assert reasons(db, bo) == ["unsubscribe"]  # once is enough


def test_a_get_of_the_link_only_shows_the_page(client: TestClient, db: Session) -> None:
    bo = make_member(db)
    key = committed(db, unsubscribe_key, bo)
    answer = client.get(f"/api/unsubscribe.php?key={key}", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/unsubscribe?key={key}"
    assert reasons(db, bo) == []


@pytest.mark.parametrize(
    ("query", "body", "status"),
    [
        ("key=" + "x" * 43, ONE_CLICK, 404),  # no account has it
        ("key=short", ONE_CLICK, 404),
        ("lang=en", ONE_CLICK, 404),  # no key at all
        (None, {"content": b""}, 400),  # without the one-click body
        (None, {"content": b"List-Unsubscribe=One-Click" + b" " * 300}, 400),  # too long
    ],
)
def test_other_posts_change_nothing(
    client: TestClient, db: Session, query: str | None, body: dict, status: int
) -> None:
    bo = make_member(db)
    key = committed(db, unsubscribe_key, bo)
    answer = client.post(f"/api/unsubscribe.php?{query or f'key={key}'}", **body)
    assert answer.status_code == status
    assert reasons(db, bo) == []


@pytest.fixture
def webhook_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    config = dataclasses.replace(get_config(), mail_events_secret=SECRET)
    monkeypatch.setattr(mail_api, "get_config", lambda: config)


def events(*items: dict) -> dict:
    return {"events": list(items)}


@pytest.mark.usefixtures("webhook_secret")
def test_a_hard_bounce_and_a_complaint_switch_mail_off(client: TestClient, db: Session) -> None:
    bo, cleo = make_member(db, email="bo@example.com"), make_member(db, email="cleo@example.com")
    dan = make_member(db, email="dan@example.com")
    body = events(
        {"type": "bounce", "email": "Bo@Example.com", "permanent": True},
        {"type": "complaint", "email": "cleo@example.com"},
        {"type": "bounce", "email": "dan@example.com", "permanent": False},  # soft: ignored
        {"type": "delivered", "email": "dan@example.com"},
        {"type": "complaint", "email": "nobody@example.com"},
    )
    answer = client.post("/api/mail-events.php", json=body, headers=BEARER)
    assert answer.status_code == 200 and answer.json() == {"switched_off": 2}
    assert (reasons(db, bo), reasons(db, cleo), reasons(db, dan)) == (["bounce"], ["spam"], [])


@pytest.mark.usefixtures("webhook_secret")
@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        ({}, events({"type": "complaint", "email": "bo@example.com"}), 401),
        ({"Authorization": "Bearer guess"}, events({"type": "complaint", "email": "bo@x"}), 401),
        ({"Authorization": SECRET}, events({"type": "complaint", "email": "bo@x"}), 401),
        ({"Authorization": f"Basic {SECRET}"}, events({"type": "complaint", "email": "bo@x"}), 401),
        (
            {"Authorization": f"Bearer  {SECRET}"},
            events({"type": "complaint", "email": "bo@x"}),
            401,
        ),
        (
            {"Authorization": f"Bearer {SECRET}x"},
            events({"type": "complaint", "email": "bo@x"}),
            401,
        ),
        (BEARER, {"events": "bo@example.com"}, 400),
        (BEARER, events({"type": "complaint"}), 400),
        (BEARER, events(*[{"type": "complaint", "email": "bo@example.com"}] * 101), 400),
    ],
    ids=[
        "no-secret",
        "wrong-secret",
        "no-bearer",
        "basic",
        "two-spaces",
        "longer-secret",
        "not-a-list",
        "no-address",
        "too-many",
    ],
)
def test_the_webhook_refuses_what_it_cannot_trust(
    client: TestClient, db: Session, headers: dict, body: dict, status: int
) -> None:
    bo = make_member(db, email="bo@example.com")
    answer = client.post("/api/mail-events.php", json=body, headers=headers)
    assert answer.status_code == status
    assert reasons(db, bo) == []


@pytest.mark.usefixtures("webhook_secret")
@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "bEaReR"])
def test_the_scheme_may_come_in_any_case(client: TestClient, db: Session, scheme: str) -> None:
    """RFC 7235: an authentication scheme is case-insensitive; the secret is not."""
    bo = make_member(db, email="bo@example.com")
    body = events({"type": "complaint", "email": "bo@example.com"})
    headers = {"Authorization": f"{scheme} {SECRET}"}
    assert client.post("/api/mail-events.php", json=body, headers=headers).status_code == 200
    assert reasons(db, bo) == ["spam"]
    upper = {"Authorization": f"{scheme} {SECRET.upper()}"}
    assert client.post("/api/mail-events.php", json=body, headers=upper).status_code == 401


def test_without_a_secret_the_webhook_is_not_there(client: TestClient, db: Session) -> None:
    make_member(db, email="bo@example.com")
    body = events({"type": "complaint", "email": "bo@example.com"})
    assert client.post("/api/mail-events.php", json=body, headers=BEARER).status_code == 404
