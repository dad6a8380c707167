"""The HTTP side of accounts: the session hand-off, mailed links, log-out's way onward."""

import json
from datetime import timedelta
from functools import partial

import pytest
from sqlmodel import Session, select

from actions.viewer import DEVICE_COOKIE, SESSION_COOKIE
from models.account_changes import change_password
from models.activation import issue_activation
from models.auth_session import (
    AuthSession,
    member_id_for_token,
    start_handoff_session,
    start_session,
)
from models.deletion import delete_account
from models.member import Member, utcnow
from services.config import get_config
from services.device_cookie import vouches
from tests.factories import PASSWORD, committed, make_member, make_member_with_password

HANDOFF = "/api/session.php"
NEW = "a brand new passphrase"


def _cookie_header(response) -> str:
    return response.headers.get("set-cookie", "")


def test_a_handoff_code_becomes_an_httponly_session_cookie_once(client, db: Session) -> None:
    member = make_member(db)
    code = committed(db, start_handoff_session, member.id)
    response = client.post(HANDOFF, json={"code": code})
    assert response.status_code == 204
    cookie = _cookie_header(response)
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Max-Age=2592000" in cookie and "Path=/" in cookie
    token = response.cookies[SESSION_COOKIE]
    assert member_id_for_token(db, token) == member.id
    assert client.post(HANDOFF, json={"code": code}).status_code == 400


def _device_cookie(response) -> str:
    [device] = [c for c in response.headers.get_list("set-cookie") if c.startswith(DEVICE_COOKIE)]
    assert "HttpOnly" in device and "SameSite=lax" in device and "Max-Age=31536000" in device
    return response.cookies[DEVICE_COOKIE]


@pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own
def test_a_log_in_leaves_the_browser_its_device_cookie_for_a_year(client, db: Session) -> None:
    """What lets this browser past a lock of its address (services/device_cookie.py)."""
    member = make_member_with_password(db)
    code = committed(db, start_handoff_session, member.id)
    device = _device_cookie(client.post(HANDOFF, json={"code": code}))
    assert vouches(device, db.get(Member, member.id), utcnow())


@pytest.mark.usefixtures("outbox")
def test_a_password_change_in_settings_earns_the_browser_a_fresh_device_cookie(
    client, db: Session
) -> None:
    member = make_member_with_password(db)
    code = committed(db, start_handoff_session, member.id)
    old = _device_cookie(client.post(HANDOFF, json={"code": code}))
    token = client.cookies[SESSION_COOKIE]
    committed(db, change_password, member.id, PASSWORD, NEW, NEW, token)
    db.expire_all()
    member = db.get(Member, member.id)
    assert not vouches(old, member, utcnow())  # the new password voided it
    ours = {"origin": get_config().public_origin}
    cross_site = {"origin": "https://evil.example"}
    assert client.post("/api/device.php", headers=cross_site).status_code == 403
    fresh = _device_cookie(client.post("/api/device.php", headers=ours))
    assert vouches(fresh, member, utcnow())
    client.cookies.delete(SESSION_COOKIE)
    signed_out = client.post("/api/device.php", headers=ours)
    assert signed_out.status_code == 403 and DEVICE_COOKIE not in signed_out.cookies


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": "text/plain"},
        {"content-type": "application/json", "origin": "https://evil.example"},
    ],
)
def test_a_forged_cross_site_handoff_is_refused_and_the_code_kept(client, db, headers) -> None:
    code = committed(db, start_handoff_session, make_member(db).id)
    response = client.post(HANDOFF, content=f'{{"code": "{code}"}}', headers=headers)
    assert response.status_code == 400 and SESSION_COOKIE not in _cookie_header(response)
    assert client.post(HANDOFF, json={"code": code}).status_code == 204


def test_an_old_handoff_code_is_refused(client, db: Session) -> None:
    code = committed(db, start_handoff_session, make_member(db).id)
    row = db.exec(select(AuthSession)).one()
    row.created_at = utcnow() - timedelta(minutes=2)
    db.add(row)
    db.commit()
    assert client.post(HANDOFF, json={"code": code}).status_code == 400


def test_the_activation_link_confirms_but_never_logs_in(client, db: Session) -> None:
    member = make_member(db, status="not_confirmed")
    token = committed(db, issue_activation, member)
    for _click in range(2):  # a mail scanner may open it first
        response = client.get(f"/api/activate.php?token={token}", follow_redirects=False)
        assert response.headers["location"] == "/activate/done"
        assert SESSION_COOKIE not in _cookie_header(response)
    db.expire_all()
    assert db.get(Member, member.id).status == "active"
    bad = client.get("/api/activate.php?token=forged", follow_redirects=False)
    assert bad.headers["location"] == "/activate/error"


def test_the_reactivation_link_restores_the_account(client, db: Session) -> None:
    member = make_member_with_password(db)
    token = committed(db, delete_account, member.id, PASSWORD, "privacy", "")
    response = client.get(f"/api/reactivate.php?token={token}", follow_redirects=False)
    assert response.headers["location"] == "/login?reactivated=1"
    assert SESSION_COOKIE not in _cookie_header(response)
    db.expire_all()
    assert db.get(Member, member.id).status == "active"
    used = client.get(f"/api/reactivate.php?token={token}", follow_redirects=False)
    assert used.headers["location"] == "/activate/error?reactivate=1"


@pytest.mark.parametrize(
    ("next_path", "location"),
    [
        ("/account-deleted", "/account-deleted"),
        ("//evil.example", "/"),
        ("https://evil.example", "/"),
    ],
)
def test_logout_goes_on_only_to_our_own_pages(client, next_path: str, location: str) -> None:
    ours = {"origin": get_config().public_origin}
    for send in (client.get, partial(client.post, headers=ours)):
        response = send("/api/logout.php", params={"next": next_path}, follow_redirects=False)
        assert response.headers["location"] == location


def test_a_new_log_in_ends_the_session_this_browser_had(client, db: Session) -> None:
    old = committed(db, start_session, make_member(db, "old@example.com").id)
    client.cookies.set(SESSION_COOKIE, old)
    code = committed(db, start_handoff_session, make_member(db, "new@example.com").id)
    assert client.post(HANDOFF, json={"code": code}).status_code == 204
    assert member_id_for_token(db, old) is None


@pytest.mark.parametrize("declared", [True, False])
def test_an_oversized_json_body_is_refused_unread(client, db: Session, declared: bool) -> None:
    """A body over 8 KB is refused by its Content-Length, or by the first 8 KB read when it
    declares none: a visitor cannot stream gigabytes into a worker's memory."""
    code = committed(db, start_handoff_session, make_member(db).id)
    db.commit()
    body = json.dumps({"code": code, "pad": "x" * 9000}).encode()
    chunks = iter([body[:4000], body[4000:]])
    sent = body if declared else chunks
    response = client.post(HANDOFF, content=sent, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert client.post(HANDOFF, json={"code": code}).status_code == 204  # the code is kept
